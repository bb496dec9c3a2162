package cli

import (
	"encoding/binary"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/memscope/memscope/engine/search"
)

// appendHitJSON appends h as the line `search --json` prints for it:
// byte for byte encoding/json's encoding of search.Hit (HTML not
// escaped) and a newline, without reflection, which was a sixth of a
// many-hit search. ok is false for what it does not write itself (a hit
// with prompts, a time encoding/json refuses): the caller encodes those.
func appendHitJSON(b []byte, h *search.Hit) ([]byte, bool) {
	if len(h.Prompts) > 0 {
		return b, false
	}
	b = append(b, `{"store":`...)
	b = appendJSONString(b, string(h.Store))
	b = append(b, `,"file":`...)
	b = appendJSONString(b, h.File)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(h.Line), 10)
	b = append(b, `,"where":`...)
	b = appendJSONString(b, h.Where)
	opt := func(key, v string) {
		if v != "" {
			b = append(b, key...)
			b = appendJSONString(b, v)
		}
	}
	opt(`,"project":`, h.Project)
	opt(`,"sessionId":`, h.SessionID)
	opt(`,"agentId":`, h.AgentID)
	opt(`,"uuid":`, h.UUID)
	opt(`,"role":`, h.Role)
	if !h.Time.IsZero() {
		t, err := h.Time.MarshalJSON()
		if err != nil {
			return b, false
		}
		b = append(b, `,"timestamp":`...)
		b = append(b, t...)
	}
	opt(`,"compaction":`, string(h.Compaction))
	if h.Seen != nil {
		b = append(b, `,"seen":`...)
		b = strconv.AppendBool(b, *h.Seen)
	}
	opt(`,"label":`, h.Label)
	if h.Vault {
		b = append(b, `,"vault":true`...)
	}
	b = append(b, `,"snippet":`...)
	b = appendJSONString(b, h.Snippet)
	b = append(b, `,"match":[`...)
	b = strconv.AppendInt(b, int64(h.Match[0]), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(h.Match[1]), 10)
	b = append(b, `],"count":`...)
	b = strconv.AppendInt(b, int64(h.Count), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, int64(h.Offset), 10)
	return append(b, "}\n"...), true
}

// appendJSONString appends s quoted as encoding/json quotes a string
// with HTML escaping off: \" \\ \b \f \n \r \t, other controls as
// \u00XX, invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && plainJSON8(s[i:i+8]) {
			i += 8 // eight bytes that need no escape: most of a snippet
			continue
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
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
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
)

// swarZero reports whether a byte of v is zero (exact: a borrow only
// spreads above a byte that is zero).
func swarZero(v uint64) bool { return (v-swarOnes)&^v&swarHighs != 0 }

// plainJSON8 reports whether the eight bytes of s are ASCII that a JSON
// string holds as it is: no control, no quote, no backslash.
func plainJSON8(s string) bool {
	v := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
	return v&swarHighs == 0 && // ASCII: the borrow tests below are exact
		(v-0x20*swarOnes)&^v&swarHighs == 0 && // none below 0x20
		!swarZero(v^'"'*swarOnes) && !swarZero(v^'\\'*swarOnes)
}
