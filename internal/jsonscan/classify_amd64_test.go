package jsonscan

import (
	"strings"
	"testing"
)

// TestNibbleClasses checks the assembly loop's lookup tables against the
// classes they stand for, on every byte.
func TestNibbleClasses(t *testing.T) {
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
