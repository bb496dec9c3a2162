package ledger

import (
	"math/bits"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// gramSet is the set of a text's four-byte windows, as one bit each in
// a table indexed by a hash of the window: a string that has a window
// whose bit is clear is not in the text, so most of the names the
// after-text does not hold (the ledger's lost items: most of what a
// boundary had) are answered without searching it. A set bit proves
// nothing (another window may share it); strings.Contains then decides.
type gramSet struct {
	bits  []uint64
	shift uint // 32 - log2(len(bits)*64)
}

// gramWidth is the window: four bytes, one uint32.
const gramWidth = 4

// The table's size in bits: about eight per byte of text, a power of
// two, at least 4 Ki and at most 1 Mi (128 KiB), so a long preserved
// segment fills its table but still costs bounded memory.
const (
	gramBitsMin = 1 << 12
	gramBitsMax = 1 << 20
)

// gramHash maps a window to its bit (Fibonacci hashing: the top bits of
// the product).
func gramHash(w uint32, shift uint) uint32 { return (w * 0x9E3779B1) >> shift }

// emptyGramSet is an empty table sized for a text of n bytes.
func emptyGramSet(n int) gramSet { return emptyGramSetIn(n, nil) }

// emptyGramSetIn is emptyGramSet made in room's table when it has the
// room (cleared), else in a new one.
func emptyGramSetIn(n int, room []uint64) gramSet {
	n = min(max(8*n, gramBitsMin), gramBitsMax)
	logBits := bits.Len(uint(n - 1)) // table of 1<<logBits bits
	words := (1 << logBits) / 64
	if cap(room) < words {
		return gramSet{bits: make([]uint64, words), shift: uint(32 - logBits)}
	}
	room = room[:words]
	clear(room)
	return gramSet{bits: room, shift: uint(32 - logBits)}
}

// newGramSet is the set of the windows of s.
func newGramSet(s string) gramSet {
	g := emptyGramSet(len(s))
	if len(s) < gramWidth {
		return g
	}
	w := uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2])
	for i := gramWidth - 1; i < len(s); i++ {
		w = w<<8 | uint32(s[i])
		h := gramHash(w, g.shift)
		g.bits[h/64] |= 1 << (h % 64)
	}
	return g
}

// mayHold reports whether s may be in the text: false when one of its
// windows is not the text's, true otherwise (and for s shorter than a
// window).
func (g gramSet) mayHold(s string) bool {
	if len(s) < gramWidth {
		return true
	}
	w := uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2])
	for i := gramWidth - 1; i < len(s); i++ {
		w = w<<8 | uint32(s[i])
		h := gramHash(w, g.shift)
		if g.bits[h/64]&(1<<(h%64)) == 0 {
			return false
		}
	}
	return true
}

// searches counts the strings.Contains calls of afterText.names (tests:
// the windows answer most names without one).
var searches atomic.Int64

// holds reports whether the normalised text a.norm contains n, through
// a's window set (made on the first call).
func (a *afterText) holds(n string) bool {
	if a.grams.bits == nil {
		a.grams = newGramSet(a.norm)
	}
	if !a.grams.mayHold(n) {
		return false
	}
	searches.Add(1)
	return strings.Contains(a.norm, n)
}

// normalizeGramsASCII is normalize of ASCII text s and the set of the
// result's windows, made in the same pass over s (the after-text is the
// longest text the ledger normalises, and nearly always has its names
// tested); false, as soon as it meets a byte above 0x7F, for text that
// is not ASCII. The table is sized for s, at least the result's length.
// The first three bytes written also set the bits of their partial
// windows (zeros before them): extra bits, which prove nothing, so the
// answers are the same and the loop has no test for them.
func normalizeGramsASCII(s string) (string, gramSet, bool) { return normalizeGramsASCIIIn(s, nil) }

// normalizeGramsASCIIIn is normalizeGramsASCII writing the copy and the
// table in room's (nil: new ones; room keeps what it wrote in, grown as
// needed).
func normalizeGramsASCIIIn(s string, room *afterRoom) (string, gramSet, bool) {
	var g gramSet
	var b []byte
	if room != nil {
		g = emptyGramSetIn(len(s), room.bits)
		if cap(room.norm) < len(s) {
			room.norm = make([]byte, len(s))
		}
		b = room.norm[:len(s)]
		room.bits = g.bits[:cap(g.bits)]
	} else {
		g = emptyGramSet(len(s))
		b = make([]byte, len(s))
	}
	n := 0
	var w uint32 // the last four bytes written
	gap := false // white space since the last word
	for i := 0; i < len(s); i++ {
		c := s[i]
		if k := asciiClass[c]; k != classPlain {
			switch k {
			case classOther:
				return "", gramSet{}, false
			case classSpace:
				gap = true
				continue
			case classUpper:
				c += 'a' - 'A'
			}
		}
		if gap && n > 0 {
			b[n] = ' '
			n++
			w = w<<8 | ' '
			h := gramHash(w, g.shift)
			g.bits[h/64] |= 1 << (h % 64)
		}
		gap = false
		b[n] = c
		n++
		w = w<<8 | uint32(c)
		h := gramHash(w, g.shift)
		g.bits[h/64] |= 1 << (h % 64)
	}
	return bytesString(b[:n]), g, true
}

// The classes of bytes normalizeGramsASCII tells apart.
const (
	classPlain = iota // kept as it is
	classSpace        // white space (asciiSpace)
	classUpper        // A-Z, lower-cased
	classOther        // above 0x7F: not ASCII
)

// asciiClass is each byte's class.
var asciiClass = func() (cl [256]uint8) {
	for c := range cl {
		switch {
		case c >= utf8.RuneSelf:
			cl[c] = classOther
		case asciiSpace[c]:
			cl[c] = classSpace
		case 'A' <= c && c <= 'Z':
			cl[c] = classUpper
		}
	}
	return cl
}()
