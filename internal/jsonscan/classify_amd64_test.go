package jsonscan

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// The assembly loops this processor can run are held to the byte rule
// and to blocksGo with the others.
func init() {
	if hasAVX2 {
		blockLoops["blocksAVX2"] = func(d []byte, bitmap []words, c *carry, pad *[64]byte) bool {
			return padded(wholeAVX2, d, bitmap, c, pad)
		}
	}
	if hasAVX512 {
		blockLoops["blocksAVX512"] = func(d []byte, bitmap []words, c *carry, pad *[64]byte) bool {
			if len(d) == 0 {
				return false
			}
			return blocksAVX512(unsafe.SliceData(d), len(d)/64, len(d)%64, &bitmap[0], c, &nibbles)
		}
	}
}

// TestNibbleClasses checks the assembly loop's lookup tables against the
// classes they stand for, on every byte.
func TestNibbleClasses(t *testing.T) {
	if nibbles.u[0] != 0x80 {
		t.Fatalf("the class bit of 'u' is %#x; the assembly loops take it as 0x80", nibbles.u[0])
	}
	for c := range 256 {
		cls := byte(0)
		if c < 0x80 {
			cls = nibbles.lo[c&15] & nibbles.hi[c>>4]
		}
		esc := strings.IndexByte(`"\/bfnrtu`, byte(c)) >= 0
		if (cls&nibbles.esc[0] != 0) != esc || (cls&nibbles.hex[0] != 0) != isHex[c] || (cls&nibbles.u[0] != 0) != (c == 'u') {
			t.Errorf("byte %#x: classes %#x", c, cls)
		}
	}
}

// TestScannerWithoutSIMD runs the scanner's checks with blocksGo, the
// loop of processors without AVX2, on the repository's lines and the
// hostile ones.
func TestScannerWithoutSIMD(t *testing.T) {
	avx2, avx512 := hasAVX2, hasAVX512
	hasAVX2, hasAVX512 = false, false
	defer func() { hasAVX2, hasAVX512 = avx2, avx512 }()
	lines := append(repoLines(t), hostileLines(rand.New(rand.NewPCG(11, 12)), 1000)...)
	for _, l := range lines {
		var s Scanner
		err := s.Members(l, func(k, v []byte) {})
		if (err == nil || err == ErrNotObject) != json.Valid(l) {
			t.Fatalf("Members(%q) = %v, json.Valid %v", l, err, json.Valid(l))
		}
		checkStrings(t, l)
	}
}
