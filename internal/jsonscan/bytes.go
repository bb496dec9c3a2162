package jsonscan

import (
	"bytes"
	"encoding/json"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// SWAR constants: one bit per byte of a little-endian word.
const (
	swarLSB = 0x0101010101010101
	swarMSB = 0x8080808080808080
)

// Unquote decodes the raw JSON string raw (quotes included) as
// encoding/json does, invalid UTF-8 read as U+FFFD; ok is false when raw
// is not a valid string. A plain quoted string is decoded here in one
// pass (json.Unmarshal validates it, then decodes it through reflection:
// the cost of reading a transcript's text); anything else goes to
// json.Unmarshal, so both answer alike (FuzzUnquote).
func Unquote(raw []byte) (string, bool) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		if t, ok := unquoteString(raw[1 : len(raw)-1]); ok {
			return t, true
		}
	}
	var t string
	if err := json.Unmarshal(raw, &t); err != nil {
		return "", false
	}
	return t, true
}

// unquoteString decodes the body of a JSON string (between its quotes)
// as encoding/json's unquote does; ok is false for anything it would not
// accept (an unescaped quote or control byte, a bad escape), which the
// caller hands to json.Unmarshal for its answer.
func unquoteString(s []byte) (string, bool) {
	r := 0
	for r < len(s) {
		c := s[r]
		if c == '\\' || c == '"' || c < ' ' {
			break
		}
		if c < utf8.RuneSelf {
			r++
			continue
		}
		rr, size := utf8.DecodeRune(s[r:])
		if rr == utf8.RuneError && size == 1 {
			break
		}
		r += size
	}
	if r == len(s) {
		return string(s), true
	}
	b := make([]byte, 0, len(s)+2*utf8.UTFMax)
	b = append(b, s[:r]...)
	for r < len(s) {
		switch c := s[r]; {
		case c == '\\':
			r++
			if r >= len(s) {
				return "", false
			}
			switch s[r] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				b = append(b, escaped[s[r]])
				r++
			case 'u':
				rr := hex4(s[r+1:])
				if rr < 0 {
					return "", false
				}
				r += 5
				if utf16.IsSurrogate(rr) {
					if r+1 < len(s) && s[r] == '\\' && s[r+1] == 'u' {
						if dec := utf16.DecodeRune(rr, hex4(s[r+2:])); dec != unicode.ReplacementChar {
							r += 6
							b = utf8.AppendRune(b, dec)
							break
						}
					}
					rr = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, rr)
			default:
				return "", false
			}
		case c == '"', c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			b = append(b, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			r += size
			b = utf8.AppendRune(b, rr)
		}
	}
	return string(b), true
}

// escaped is what each one-letter escape stands for.
var escaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hex4 reads four hex digits as a rune; -1 when s does not start with them.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

func unquoteBytes(raw []byte) []byte {
	t, _ := Unquote(raw)
	return []byte(t)
}

// Text returns the text of the JSON string value v (quotes included):
// when it has no escape, the bytes between the quotes (shared with v and
// not checked for UTF-8), else its decoded text. ok is false when v is
// not a string.
func Text(v []byte) (text []byte, ok bool) {
	if len(v) < 2 || v[0] != '"' {
		return nil, false
	}
	body := v[1 : len(v)-1]
	if bytes.IndexByte(body, '\\') >= 0 {
		return unquoteBytes(v), true
	}
	return body, true
}

// Int reads a JSON integer (-?digits) that fits an int64, as
// strconv.ParseInt does, without making a string of it.
func Int(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	switch {
	case neg && n <= 1<<63:
		return int64(-n), true
	case !neg && n < 1<<63:
		return int64(n), true
	}
	return 0, false
}
