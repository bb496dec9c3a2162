package jsonscan

import (
	"encoding/binary"
	"math/bits"
)

// The bitmaps Reset makes, one bit a byte of the text (bit i%64 of word
// i/64 for byte i), in one pass of 64-byte blocks:
//
//   - quote: the quotes no backslash escapes, the ends of strings;
//   - esc: the bytes an escaping backslash escapes (the byte after each
//     backslash that ends an odd run of backslashes);
//   - bad: the bytes that make a string invalid where they are: the
//     bytes below 0x20, an escaped byte that is not one of "\/bfnrtu,
//     and a byte that is not a hex digit among the four after an escaped
//     'u'.
//
// So a string from an unescaped quote at i is valid, and ends at the next
// quote bit q, when no bad bit is set in (i, q]; it has escapes when an
// esc bit is set in (i, q). Outside strings the bitmaps mean nothing,
// and nothing reads them there. This is the first stage of simdjson
// (Langdale and Lemire, "Parsing gigabytes of JSON per second"), without
// its in-string regions: the structure is still walked in order, so the
// walk knows where strings begin.

// words are the bitmaps' words for 64 bytes of the text.
type words struct{ quote, esc, bad uint64 }

// carry is what a block hands the next: whether its last byte escapes
// the next block's first, and which of the next block's first four bytes
// follow a \u escape.
type carry struct{ esc, u uint64 }

// classifyState is classify's carry and its copy of the last partial
// block.
type classifyState struct {
	c   carry
	pad [64]byte
}

// escapes returns the bytes of a block escaped by a backslash, given the
// block's backslashes b: an odd run of backslashes escapes the byte after
// it. This is simdjson's branch-free rule (json_escape_scanner): the
// subtraction runs each series of backslashes down from its start, so
// the bits left mark the escaping backslashes and the bytes they escape.
func escapes(b uint64, c *carry) uint64 {
	const odd = 0xaaaaaaaaaaaaaaaa
	potential := b &^ c.esc
	code := (potential<<1 | odd) - potential ^ odd
	escaped := code ^ (b | c.esc)
	c.esc = (code & b) >> 63
	return escaped
}

// afterU returns the bytes of a block that must be hex digits, the four
// after each escaped 'u' of ue, and leaves those of the next block in c.
func afterU(ue uint64, c *carry) uint64 {
	t := ue | ue<<1
	need := t<<1 | t<<3 | c.u
	r := ue | ue>>1
	c.u = r>>60 | r>>62
	return need
}

// classify fills bitmap (a word each a block) for d with the block loop
// loop and says whether d has a byte above 0x7F; st is the caller's, so
// that nothing here escapes to the heap (the tests hold every loop to
// blocksGo). A loop reads the last partial block as if zeros followed
// it: nothing is set past the text but control bytes and an escape or a
// hex digit wanted there, none of which a string ending in the text
// reads.
func classify(loop func(d []byte, bitmap []words, c *carry, pad *[64]byte) bool, d []byte, bitmap []words, st *classifyState) bool {
	st.c = carry{}
	return loop(d, bitmap, &st.c, &st.pad)
}

// padded runs blocks over the whole blocks of d, then over its last
// partial block copied into pad, zeros after it.
func padded(blocks func(d []byte, bitmap []words, c *carry) bool, d []byte, bitmap []words, c *carry, pad *[64]byte) (high bool) {
	n := len(d) &^ 63
	if n > 0 {
		high = blocks(d[:n], bitmap, c)
	}
	if n < len(d) {
		clear(pad[copy(pad[:], d[n:]):])
		k := n >> 6
		high = blocks(pad[:], bitmap[k:k+1], c) || high
	}
	return high
}

// stopBits fills stops (one bit a byte of d) with d's stop bytes: '"',
// '\\' and the bytes below 0x20, a word of eight at a time. Only the
// walk of a string String does not vouch for reads them, so Scanner makes
// them when that walk first wants them.
func stopBits(d []byte, stops []uint64) {
	clear(stops)
	i := 0
	for ; i+8 <= len(d); i += 8 {
		q, b, ctl := swarMasks(binary.LittleEndian.Uint64(d[i:]))
		stops[i>>6] |= (q | b | ctl) << uint(i&63)
	}
	for ; i < len(d); i++ {
		if c := d[i]; c == '"' || c == '\\' || c < 0x20 {
			stops[i>>6] |= 1 << uint(i&63)
		}
	}
}

// blocksGo is blocks in Go, a word at a time: the three byte classes by
// SWAR (exact for each byte, as a flag does not depend on its
// neighbours), the escape rules on the words, and the escaped bytes'
// checks by a loop over the (few) escapes.
func blocksGo(d []byte, bitmap []words, c *carry) (high bool) {
	var or uint64
	for k := 0; k*64 < len(d); k++ {
		blk := d[k*64 : k*64+64]
		var q, b, ctl uint64
		for j := 0; j < 64; j += 8 {
			x := binary.LittleEndian.Uint64(blk[j:])
			or |= x
			mq, mb, mc := swarMasks(x)
			q |= mq << uint(j)
			b |= mb << uint(j)
			ctl |= mc << uint(j)
		}
		esc := escapes(b, c)
		bad, ue := ctl, uint64(0)
		for m := esc; m != 0; m &= m - 1 {
			p := bits.TrailingZeros64(m)
			switch e := blk[p]; {
			case e == 'u':
				ue |= 1 << uint(p)
			case e == '"' || e == '\\' || isShortEscape[e]:
			default:
				bad |= 1 << uint(p)
			}
		}
		for m := afterU(ue, c); m != 0; m &= m - 1 {
			if p := bits.TrailingZeros64(m); !isHex[blk[p]] {
				bad |= 1 << uint(p)
			}
		}
		bitmap[k] = words{q &^ esc, esc, bad}
	}
	return or&swarMSB != 0
}

// swarMasks returns, one bit a byte of the little-endian word x, its
// quotes, its backslashes and its bytes below 0x20.
func swarMasks(x uint64) (q, b, ctl uint64) {
	const low7 = swarLSB * 0x7f
	xq := x ^ (swarLSB * '"')
	xb := x ^ (swarLSB * '\\')
	// A byte y&0x7f plus 0x7f carries into the high bit unless it is 0:
	// with y's own high bit, the zero bytes are those left 0.
	zq := ^((xq&low7 + low7) | xq) & swarMSB
	zb := ^((xb&low7 + low7) | xb) & swarMSB
	// Below 0x20: neither the high bit nor a carry from adding 0x60.
	lo := ^((x&low7 + swarLSB*0x60) | x) & swarMSB
	return gather(zq), gather(zb), gather(lo)
}

// gather packs the high bits of the eight bytes of m (only high bits
// set) into the low eight bits.
func gather(m uint64) uint64 { return (m >> 7) * 0x0102040810204080 >> 56 }
