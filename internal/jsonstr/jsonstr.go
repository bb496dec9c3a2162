// Package jsonstr appends strings quoted as encoding/json quotes them,
// for the hand-written JSON encoders (cli's search hits, engine/vault's
// state lines), which skip encoding/json's reflection.
package jsonstr

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"
)

// Append appends s quoted as encoding/json quotes a string: \" \\ \b \f
// \n \r \t, other control bytes as \u00XX, invalid UTF-8 as \ufffd,
// U+2028 and U+2029 escaped; with html, also <, > and & as \u003c,
// \u003e and \u0026 (json.Marshal's HTML escaping; an Encoder with
// SetEscapeHTML(false) leaves them).
func Append(b []byte, s string, html bool) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && plain8(s[i:i+8], html) {
			i += 8 // eight bytes that need no escape: most of a string
			continue
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Eight bytes at a time (SWAR): ones has 1 in each byte, highs the top
// bit of each.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zero reports whether a byte of v is zero (exact: a borrow only
// spreads above a byte that is zero).
func zero(v uint64) bool { return (v-ones)&^v&highs != 0 }

// plain8 reports whether the eight bytes of s are ASCII that a JSON
// string holds as it is: no control, no quote, no backslash (and with
// html no <, > or &).
func plain8(s string, html bool) bool {
	v := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
	return v&highs == 0 && // ASCII: the borrow tests below are exact
		(v-0x20*ones)&^v&highs == 0 && // none below 0x20
		!zero(v^'"'*ones) && !zero(v^'\\'*ones) &&
		(!html || !zero(v^'<'*ones) && !zero(v^'>'*ones) && !zero(v^'&'*ones))
}
