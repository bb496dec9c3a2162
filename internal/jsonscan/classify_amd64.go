package jsonscan

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// hasAVX2 and hasAVX512 say blocksAVX2 and blocksAVX512 can run (the
// processor has the instructions and the system saves their registers);
// else blocksGo does the work.
var (
	hasAVX2   = cpu.X86.HasAVX2
	hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW
)

// blocks fills the bitmaps of d: AVX-512 reads the last partial block
// itself (a masked load), the others from pad.
func blocks(d []byte, bitmap []words, c *carry, pad *[64]byte) bool {
	switch {
	case len(d) == 0:
		return false
	case hasAVX512:
		_ = bitmap[(len(d)+63)/64-1]
		return blocksAVX512(unsafe.SliceData(d), len(d)/64, len(d)%64, &bitmap[0], c, &nibbles)
	case hasAVX2:
		return padded(wholeAVX2, d, bitmap, c, pad)
	}
	return padded(blocksGo, d, bitmap, c, pad)
}

// wholeAVX2 is blocksAVX2 over the whole blocks of d.
func wholeAVX2(d []byte, bitmap []words, c *carry) bool {
	_ = bitmap[len(d)/64-1]
	return blocksAVX2(unsafe.SliceData(d), len(d)/64, 0, &bitmap[0], c, &nibbles)
}

// classTables are blocksAVX2's byte classes as two nibble lookups (a byte
// is in a class when lo[its low nibble] & hi[its high nibble] has one of
// the class's bits), each table twice, once a 16-byte lane; and each
// class's bits, in all 32 bytes.
type classTables struct {
	lo, hi, esc, hex, u [32]byte
}

// nibbles are the classes the escape checks want: the bytes a backslash
// may escape ("\/bfnrtu), the hex digits, and 'u'. Each class takes a
// bit for each high nibble its bytes have (4 + 3 + 1 = 8 bits).
var nibbles = func() (t classTables) {
	next := byte(1)
	for _, class := range []struct {
		bytes string
		mask  *[32]byte
	}{{`"\/bfnrtu`, &t.esc}, {"0123456789abcdefABCDEF", &t.hex}, {"u", &t.u}} {
		var bit [8]byte // the class's bit for each high nibble (all ASCII)
		for _, c := range []byte(class.bytes) {
			h := c >> 4
			if bit[h] == 0 {
				if next == 0 {
					panic("jsonscan: more than eight nibble classes")
				}
				bit[h] = next
				next <<= 1
				for i := range 32 {
					class.mask[i] |= bit[h]
				}
			}
			for lane := 0; lane < 32; lane += 16 {
				t.hi[lane+int(h)] |= bit[h]
				t.lo[lane+int(c&15)] |= bit[h]
			}
		}
	}
	return t
}()

// blocksAVX2 and blocksAVX512 fill bitmap for the n 64-byte blocks from
// p and, AVX-512 only, the tail bytes after them (AVX2 wants tail 0).
//
//go:noescape
func blocksAVX2(p *byte, n, tail int, bitmap *words, c *carry, t *classTables) (high bool)

//go:noescape
func blocksAVX512(p *byte, n, tail int, bitmap *words, c *carry, t *classTables) (high bool)
