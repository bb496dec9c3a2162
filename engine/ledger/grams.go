package ledger

import (
	"math/bits"
	"strings"
	"sync/atomic"
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

// newGramSet is the set of the windows of s.
func newGramSet(s string) gramSet {
	n := min(max(8*len(s), gramBitsMin), gramBitsMax)
	logBits := bits.Len(uint(n - 1)) // table of 1<<logBits bits
	g := gramSet{bits: make([]uint64, (1<<logBits)/64), shift: uint(32 - logBits)}
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
