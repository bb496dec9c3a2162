package jsonscan

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// UnquoteASCII is Unquote for v, a string value (quotes included) of a
// text a Scanner accepted that holds only ASCII bytes (Scanner.ASCII):
// with nothing to check (no bad byte, no bad escape, no invalid UTF-8),
// the runs of text between escapes are copied whole into the one
// string it makes (Unquote reads it byte by byte and copies it twice).
// On other input its answer means nothing.
func UnquoteASCII(v []byte) string {
	if len(v) < 2 {
		return ""
	}
	s := v[1 : len(v)-1]
	var b strings.Builder
	b.Grow(len(s))
	for {
		j := bytes.IndexByte(s, '\\')
		if j < 0 || j+1 >= len(s) {
			b.Write(s)
			return b.String()
		}
		b.Write(s[:j])
		s = s[j+1:]
		if s[0] != 'u' {
			b.WriteByte(escaped[s[0]])
			s = s[1:]
			continue
		}
		r := hex4(s[1:])
		s = s[min(5, len(s)):]
		if r < 0 {
			continue
		}
		if utf16.IsSurrogate(r) {
			if len(s) >= 6 && s[0] == '\\' && s[1] == 'u' {
				if dec := utf16.DecodeRune(r, hex4(s[2:])); dec != unicode.ReplacementChar {
					s = s[6:]
					r = dec
				} else {
					r = unicode.ReplacementChar
				}
			} else {
				r = unicode.ReplacementChar
			}
		}
		var enc [utf8.UTFMax]byte
		b.Write(utf8.AppendRune(enc[:0], r))
	}
}
