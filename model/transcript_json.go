package model

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"

	"github.com/memscope/memscope/internal/jsonscan"
)

// The transcript reader validates each line with jsonscan, which hands out
// the raw bytes of the members it reads; the helpers below turn such raw
// values into the record's fields.

// rawString returns the text of a raw JSON string value, or "" (and false)
// when v is not a string (null included). The caller's interner avoids an
// allocation for values seen before.
func rawString(v []byte, in *interner) (string, bool) {
	text, ok := jsonscan.Text(v)
	switch {
	case !ok:
		return "", false
	case in != nil:
		return in.get(text), true
	}
	return string(text), true
}

// rawStringLen returns the decoded byte length of a raw JSON string value,
// counting each escape as one byte (a \uXXXX escape as one unit). It is
// exact for ASCII text and close enough for token estimates otherwise.
func rawStringLen(v []byte) int {
	if len(v) < 2 || v[0] != '"' {
		return 0
	}
	n := len(v) - 2
	body := v[1 : len(v)-1]
	for {
		b := bytes.IndexByte(body, '\\')
		if b < 0 || b+1 >= len(body) {
			return n
		}
		if body[b+1] == 'u' {
			n -= 5
			body = body[b+6:]
		} else {
			n--
			body = body[b+2:]
		}
	}
}

// rawStringUnits is the length in UTF-16 code units of the text of a raw
// JSON string value: rawStringLen already counts each escape as one unit
// (a surrogate pair written as two \u escapes as two), so only raw
// non-ASCII bytes need recounting.
func rawStringUnits(v []byte) int {
	if len(v) < 2 || v[0] != '"' {
		return 0
	}
	body := v[1 : len(v)-1]
	return rawStringLen(v) - len(body) + utf16Units(body)
}

// utf16Units is the length of UTF-8 text b in UTF-16 code units: one per
// rune, two above U+FFFF, one per invalid byte (read as U+FFFD, as
// encoding/json reads it). ASCII is skipped eight bytes at a time, since
// almost all transcript text is ASCII.
func utf16Units(b []byte) int {
	n, i := 0, 0
	for i < len(b) {
		for i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0 {
			i += 8
			n += 8
		}
		if i >= len(b) {
			break
		}
		if b[i] < utf8.RuneSelf {
			i++
			n++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		i += size
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// rawBool reports whether v is the literal true.
func rawBool(v []byte) bool { return len(v) == 4 && string(v) == "true" }

// interner returns one string per distinct byte sequence, so repeated
// values (session ids, cwd, version, types) cost one allocation per
// transcript rather than one per line. It stops growing at a bound so
// unique values (uuids) cannot make it grow with the file.
type interner struct{ m map[string]string }

const internerMax = 4096

func (in *interner) get(b []byte) string {
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if in.m == nil {
		in.m = make(map[string]string)
	}
	if len(in.m) < internerMax {
		in.m[s] = s
	}
	return s
}
