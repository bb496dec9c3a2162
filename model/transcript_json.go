package model

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
)

// This file holds a small validating JSON scanner. Transcript lines are
// often hundreds of kilobytes (api-request-blob, attachments, pasted text)
// of which the reader needs a handful of top-level fields; decoding them
// with encoding/json would allocate and copy every string. The scanner
// validates the whole line exactly as json.Valid does (a fuzz test holds it
// to that) but only hands out byte spans, and skips strings with
// bytes.IndexByte so long values cost little.

// maxJSONDepth mirrors encoding/json's nesting limit, so a line accepted
// here is a line encoding/json accepts.
const maxJSONDepth = 10000

// jsonError is a syntax error at a byte offset of the scanned line.
type jsonError struct {
	off int
	msg string
}

func (e *jsonError) Error() string { return fmt.Sprintf("invalid JSON at byte %d: %s", e.off, e.msg) }

func errAt(off int, format string, args ...any) error {
	return &jsonError{off: off, msg: fmt.Sprintf(format, args...)}
}

func describeByte(d []byte, i int) string {
	if i >= len(d) {
		return "unexpected end of line"
	}
	return fmt.Sprintf("unexpected %q", d[i])
}

func skipWS(d []byte, i int) int {
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// hasControl reports whether s holds a byte below 0x20, which JSON forbids
// inside strings. It checks eight bytes at a time.
func hasControl(s []byte) bool {
	const lo, hi = 0x2020202020202020, 0x8080808080808080
	for len(s) >= 8 {
		x := binary.LittleEndian.Uint64(s)
		if (x-lo)&^x&hi != 0 {
			return true
		}
		s = s[8:]
	}
	for _, c := range s {
		if c < 0x20 {
			return true
		}
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// skipString validates the string starting at d[i] == '"' and returns the
// offset just past its closing quote and the number of bytes its escapes
// add over the decoded text (so decoded length = raw length - 2 - extra,
// with \uXXXX counted as one unit).
func skipString(d []byte, i int) (end, extra int, err error) {
	start := i
	i++
	// q caches the next '"' across escapes; an escaped quote moves i past
	// it, which the check below notices.
	q := -1
	for {
		if q < i {
			n := bytes.IndexByte(d[i:], '"')
			if n < 0 {
				return 0, 0, errAt(start, "unterminated string")
			}
			q = i + n
		}
		b := bytes.IndexByte(d[i:q], '\\')
		if b < 0 {
			if hasControl(d[i:q]) {
				return 0, 0, errAt(i, "control character in string")
			}
			return q + 1, extra, nil
		}
		e := i + b
		if hasControl(d[i:e]) {
			return 0, 0, errAt(i, "control character in string")
		}
		if e+1 >= len(d) {
			return 0, 0, errAt(start, "unterminated string")
		}
		switch d[e+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i = e + 2
			extra++
		case 'u':
			if e+6 > len(d) || !isHex(d[e+2]) || !isHex(d[e+3]) || !isHex(d[e+4]) || !isHex(d[e+5]) {
				return 0, 0, errAt(e, "bad \\u escape")
			}
			i = e + 6
			extra += 5
		default:
			return 0, 0, errAt(e, "bad escape \\%c", d[e+1])
		}
	}
}

func skipDigits(d []byte, i int) int {
	for i < len(d) && '0' <= d[i] && d[i] <= '9' {
		i++
	}
	return i
}

// skipNumber validates a JSON number starting at d[i].
func skipNumber(d []byte, i int) (int, error) {
	start := i
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		i = skipDigits(d, i+1)
	default:
		return 0, errAt(start, "bad number")
	}
	if i < len(d) && d[i] == '.' {
		j := skipDigits(d, i+1)
		if j == i+1 {
			return 0, errAt(start, "bad number")
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := skipDigits(d, i)
		if j == i {
			return 0, errAt(start, "bad number")
		}
		i = j
	}
	return i, nil
}

func skipLiteral(d []byte, i int, lit string) (int, error) {
	if !bytes.HasPrefix(d[i:], []byte(lit)) {
		return 0, errAt(i, "bad literal")
	}
	return i + len(lit), nil
}

// skipScalar validates a value that is not an object or array.
func skipScalar(d []byte, i int) (int, error) {
	switch c := d[i]; {
	case c == '"':
		end, _, err := skipString(d, i)
		return end, err
	case c == 't':
		return skipLiteral(d, i, "true")
	case c == 'f':
		return skipLiteral(d, i, "false")
	case c == 'n':
		return skipLiteral(d, i, "null")
	case c == '-' || '0' <= c && c <= '9':
		return skipNumber(d, i)
	}
	return 0, errAt(i, "%s", describeByte(d, i))
}

// skipKey validates `"key" :` at d[i] (after white space) and returns the
// offset of the value that follows (after white space).
func skipKey(d []byte, i int) (int, error) {
	if i >= len(d) || d[i] != '"' {
		return 0, errAt(i, "%s, want object key", describeByte(d, i))
	}
	end, _, err := skipString(d, i)
	if err != nil {
		return 0, err
	}
	i = skipWS(d, end)
	if i >= len(d) || d[i] != ':' {
		return 0, errAt(i, "%s, want ':'", describeByte(d, i))
	}
	return skipWS(d, i+1), nil
}

// skipValue validates the JSON value starting at d[i] (no leading white
// space) and returns the offset just past it. Nesting is tracked on an
// explicit stack, so hostile input cannot exhaust the goroutine stack.
func skipValue(d []byte, i int) (int, error) {
	var stack []byte // '{' or '[' per open container
	for {
		// Expect a value at i.
		if i >= len(d) {
			return 0, errAt(i, "unexpected end of line")
		}
		switch d[i] {
		case '{', '[':
			open := d[i]
			stack = append(stack, open)
			if len(stack) > maxJSONDepth {
				return 0, errAt(i, "nested too deeply")
			}
			i = skipWS(d, i+1)
			closer := byte('}')
			if open == '[' {
				closer = ']'
			}
			if i < len(d) && d[i] == closer {
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if open == '{' {
				var err error
				if i, err = skipKey(d, i); err != nil {
					return 0, err
				}
			}
			continue
		default:
			var err error
			if i, err = skipScalar(d, i); err != nil {
				return 0, err
			}
		}
		// A value ended at i: close containers until one wants another value.
		for {
			if len(stack) == 0 {
				return i, nil
			}
			i = skipWS(d, i)
			if i >= len(d) {
				return 0, errAt(i, "unexpected end of line")
			}
			top := stack[len(stack)-1]
			if d[i] == ',' {
				i = skipWS(d, i+1)
				if top == '{' {
					var err error
					if i, err = skipKey(d, i); err != nil {
						return 0, err
					}
				}
				break
			}
			if top == '{' && d[i] == '}' || top == '[' && d[i] == ']' {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			return 0, errAt(i, "%s, want ',' or closing bracket", describeByte(d, i))
		}
	}
}

// errNotObject is returned by eachMember for valid JSON that is not an object.
var errNotObject = fmt.Errorf("not a JSON object")

// eachMember validates d as exactly one JSON object (surrounded by optional
// white space) and calls fn with the key and the raw value of each member,
// in order. Keys with escapes are passed decoded so lookups by name work.
func eachMember(d []byte, fn func(key, val []byte)) error {
	return walkMembers(d, false, fn)
}

// eachMemberTrusted is eachMember for a span that was already validated
// (a value inside a validated line): it skips values without checking
// them again, which halves the cost of decoding nested objects.
func eachMemberTrusted(d []byte, fn func(key, val []byte)) {
	_ = walkMembers(d, true, fn)
}

func walkMembers(d []byte, trusted bool, fn func(key, val []byte)) error {
	i := skipWS(d, 0)
	if i >= len(d) {
		return errAt(i, "empty")
	}
	if d[i] != '{' {
		end, err := skipValue(d, i)
		if err != nil {
			return err
		}
		if j := skipWS(d, end); j != len(d) {
			return errAt(j, "%s after value", describeByte(d, j))
		}
		return errNotObject
	}
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return trailing(d, i+1)
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return errAt(i, "%s, want object key", describeByte(d, i))
		}
		var kend, extra int
		var err error
		if trusted {
			kend = skipStringTrusted(d, i)
			extra = bytes.IndexByte(d[i:kend], '\\') + 1
		} else if kend, extra, err = skipString(d, i); err != nil {
			return err
		}
		key := d[i+1 : kend-1]
		if extra > 0 {
			key = unquoteBytes(d[i:kend])
		}
		i = skipWS(d, kend)
		if i >= len(d) || d[i] != ':' {
			return errAt(i, "%s, want ':'", describeByte(d, i))
		}
		i = skipWS(d, i+1)
		vstart := i
		if trusted {
			i = skipTrusted(d, i)
		} else if i, err = skipValue(d, i); err != nil {
			return err
		}
		fn(key, d[vstart:i])
		i = skipWS(d, i)
		if i >= len(d) {
			return errAt(i, "unexpected end of line")
		}
		switch d[i] {
		case ',':
			i = skipWS(d, i+1)
		case '}':
			return trailing(d, i+1)
		default:
			return errAt(i, "%s, want ',' or '}'", describeByte(d, i))
		}
	}
}

// skipStringTrusted returns the end of the valid string at d[i]: the
// next quote not escaped by an odd run of backslashes.
func skipStringTrusted(d []byte, i int) int {
	j := i + 1
	for {
		n := bytes.IndexByte(d[j:], '"')
		if n < 0 {
			return len(d)
		}
		q := j + n
		bs := 0
		for k := q - 1; k > i && d[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// skipTrusted returns the end of the valid JSON value at d[i].
func skipTrusted(d []byte, i int) int {
	depth := 0
	for i < len(d) {
		switch d[i] {
		case '"':
			i = skipStringTrusted(d, i)
		case '{', '[':
			depth++
			i++
			continue
		case '}', ']':
			depth--
			i++
		default:
			if depth == 0 {
				// A number or literal runs to the next delimiter.
				for i < len(d) && !isDelimiter(d[i]) {
					i++
				}
				return i
			}
			i++
			continue
		}
		if depth == 0 {
			return i
		}
	}
	return i
}

func isDelimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

func trailing(d []byte, i int) error {
	if j := skipWS(d, i); j != len(d) {
		return errAt(j, "%s after object", describeByte(d, j))
	}
	return nil
}

// unquoteBytes decodes a raw JSON string that is known to be valid.
func unquoteBytes(raw []byte) []byte {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil
	}
	return []byte(s)
}

// rawString returns the text of a raw JSON string value, or "" (and false)
// when v is not a string (null included). The caller's interner avoids an
// allocation for values seen before.
func rawString(v []byte, in *interner) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	body := v[1 : len(v)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		if in != nil {
			return in.get(body), true
		}
		return string(body), true
	}
	return string(unquoteBytes(v)), true
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
