package jsstr

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeLikeNode decodes b as Node's Buffer.toString("utf8") does
// (WHATWG UTF-8 decoding with replacement). A BOM is kept, as Node keeps it.
func DecodeLikeNode(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			sb.WriteByte(c)
			i++
			continue
		}
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c == 0xE0:
			need, lo = 2, 0xA0
		case c >= 0xE1 && c <= 0xEC || c == 0xEE || c == 0xEF:
			need = 2
		case c == 0xED:
			need, hi = 2, 0x9F
		case c == 0xF0:
			need, lo = 3, 0x90
		case c >= 0xF1 && c <= 0xF3:
			need = 3
		case c == 0xF4:
			need, hi = 3, 0x8F
		default:
			sb.WriteRune(utf8.RuneError)
			i++
			continue
		}
		j, ok := i+1, true
		for k := 0; k < need; k++ {
			if j >= len(b) || b[j] < lo || b[j] > hi {
				ok = false
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		if ok {
			sb.Write(b[i:j])
		} else {
			// The bad byte at j is not consumed: it starts the next sequence.
			sb.WriteRune(utf8.RuneError)
		}
		i = j
	}
	return sb.String()
}

// IsSpace reports whether r is white space for String.prototype.trim.
func IsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// Trim is String.prototype.trim.
func Trim(s string) string { return strings.TrimFunc(s, IsSpace) }

// UTF16Len is JavaScript's s.length.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// Units is s as UTF-16 code units.
func Units(s string) []uint16 { return utf16.Encode([]rune(s)) }

// FromUnits turns UTF-16 code units back into text. A surrogate left alone
// by a cut becomes U+FFFD, which is what Node writes for it in UTF-8.
func FromUnits(u []uint16) string { return string(utf16.Decode(u)) }

// LastUnit is u.lastIndexOf(c) over u (-1 when absent).
func LastUnit(u []uint16, c uint16) int {
	for i := len(u) - 1; i >= 0; i-- {
		if u[i] == c {
			return i
		}
	}
	return -1
}

// CutAtLine keeps at most max units of u: up to the last newline at or
// before index max, else (no newline there) the first max units, hard
// set. The client cuts MEMORY.md and a nested CLAUDE.md this way.
func CutAtLine(u []uint16, max int) (kept []uint16, hard bool) {
	if len(u) <= max {
		return u, false
	}
	if at := LastUnit(u[:max+1], '\n'); at > 0 {
		return u[:at], false
	}
	return u[:max], true
}

// SplitUnits is s.split("\n") over UTF-16 units.
func SplitUnits(u []uint16) [][]uint16 {
	var out [][]uint16
	start := 0
	for i, c := range u {
		if c == '\n' {
			out = append(out, u[start:i])
			start = i + 1
		}
	}
	return append(out, u[start:])
}

// CutAtWord shortens s to at most max UTF-16 units: when it is longer, it
// is cut at the last space that keeps room for "…" and the ellipsis added.
// Valid UTF-8 is measured in place; only other text takes the round trip
// through units (which turns its bad bytes into U+FFFD).
func CutAtWord(s string, max int) string {
	if len(s) <= max {
		return s // never more units than bytes
	}
	if !utf8.ValidString(s) {
		return cutAtWordUnits(s, max)
	}
	if UTF16Len(s) <= max {
		return s
	}
	end, split := UnitsEnd(s, max-1)
	cut := s[:end]
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	} else if split {
		cut += string(utf8.RuneError)
	}
	return strings.TrimRightFunc(cut, IsSpace) + "…"
}

// cutAtWordUnits is CutAtWord over UTF-16 units.
func cutAtWordUnits(s string, max int) string {
	u := Units(s)
	if len(u) <= max {
		return s
	}
	cut := u[:max-1]
	if i := LastUnit(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimRightFunc(FromUnits(cut), IsSpace) + "…"
}

// UnitsEnd is where, in s, the longest run of whole characters that is at
// most n UTF-16 units ends (a byte offset), and whether a character of two
// units straddles unit n (the run is then n-1 units: FromUnits of the
// first n units is s[:end] and a U+FFFD for the lone surrogate).
func UnitsEnd(s string, n int) (end int, split bool) {
	units := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return i, units < n
		}
		units += w
	}
	return len(s), false
}

// CutTextAtLine is FromUnits(CutAtLine(Units(s), max)) without the round
// trip when s is valid UTF-8 (on other text it takes it).
func CutTextAtLine(s string, max int) (kept string, hard bool) {
	if !utf8.ValidString(s) {
		u, hard := CutAtLine(Units(s), max)
		return FromUnits(u), hard
	}
	if len(s) <= max || UTF16Len(s) <= max {
		return s, false
	}
	// A newline at unit index <= max starts before unit max+1.
	end, _ := UnitsEnd(s, max+1)
	if at := strings.LastIndexByte(s[:end], '\n'); at > 0 {
		return s[:at], false
	}
	end, split := UnitsEnd(s, max)
	if split {
		return s[:end] + string(utf8.RuneError), true
	}
	return s[:end], true
}

// TruncateUTF8 cuts s to at most n bytes without splitting a character.
func TruncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
