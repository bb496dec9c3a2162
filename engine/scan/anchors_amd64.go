package scan

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"golang.org/x/sys/cpu"
)

// On amd64 Find looks for candidates 64 bytes at a time, the way Teddy
// (Hyperscan; Rust's aho-corasick) does: every filed piece is put in one
// of eight buckets, and four 16-byte tables say, for the low and the
// high nibble of a piece's first and of its second byte, which buckets
// have a piece with that nibble there. A byte pair is a candidate when
// some bucket has all four of its nibbles; PSHUFB looks up 32 or 64
// nibbles at once. Every filed piece is a candidate, so the bit table and
// the anchors themselves, checked at the candidates only, give exactly
// the hits of findFrom. Pieces of one bucket share their nibble sets:
// a pair of bytes none of the bucket's pieces is made of can still
// match, and teddyFor groups the pieces so that such false candidates are
// rare in text (a few in ten thousand bytes; TestTeddyFalseCandidates).

// teddyBlocks is the vector loop Find runs: teddyAVX512 or teddyAVX2
// when the processor has the instructions and the system saves their
// registers; nil, and findFrom does all the work, when it has neither.
var teddyBlocks = func() func(p *byte, n int, t *teddyMasks) (int, uint64) {
	switch {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW:
		return teddyAVX512
	case cpu.X86.HasAVX2:
		return teddyAVX2
	}
	return nil
}()

// teddyMin is the shortest input the vector loops look at: one block
// and the byte before it (the last partial block is looked at again as
// the text's last 64 pieces). Below it the byte loop costs less than the
// vector loop on a zero-padded copy did: 93 against 204 ns for a
// 45-byte line, the copy's allocation included.
const teddyMin = 65

// Find appends to out every anchor in b, in order of position, and
// returns it. Overlapping anchors are all reported.
func (a *Anchors) Find(b []byte, out []AnchorHit) []AnchorHit {
	blocks := teddyBlocks
	if len(b) < teddyMin || blocks == nil {
		return a.findFrom(b, 1, out)
	}
	// e is the first byte not yet looked at as a piece's second byte;
	// block k of a call looks at the pieces ending at e+64k…e+64k+63,
	// reading b[e+64k-1 : e+64k+64].
	e := 1
	for len(b)-e >= 64 {
		n := (len(b) - e) / 64
		k, m := blocks(&b[e-1], n, &a.teddy)
		if k == n {
			e += 64 * n
			break
		}
		e += 64 * k
		out = a.candidates(b, e, m, out)
		e += 64
	}
	if e == len(b) {
		return out
	}
	// The last bytes, fewer than 64: the block of the text's last 64
	// pieces, without the candidates of the pieces already looked at (no
	// zero-padded copy of them: through the loop's function value it
	// escaped to the heap, an allocation per call).
	s := len(b) - 64
	if _, m := blocks(&b[s-1], 1, &a.teddy); m != 0 {
		out = a.candidates(b, s, m&^(1<<(e-s)-1), out)
	}
	return out
}

// candidates appends the anchors of the candidates m marks in the block
// whose pieces end at b[e…e+63].
func (a *Anchors) candidates(b []byte, e int, m uint64, out []AnchorHit) []AnchorHit {
	for ; m != 0; m &= m - 1 {
		i := e + bits.TrailingZeros64(m)
		p := uint16(b[i-1])<<8 | uint16(b[i])
		if a.bits[p>>6]&(1<<(p&63)) != 0 {
			out = a.verify(b, i, p, out)
		}
	}
	return out
}

// teddyMasks are the candidate search's nibble tables: bucket j's bit
// is set in lo0[x] when one of its pieces has a first byte whose low
// nibble is x, and so on for hi0 (the first byte's high nibble), lo1
// and hi1 (the second byte's).
type teddyMasks struct {
	lo0, hi0, lo1, hi1 [16]byte
}

// teddyBuckets is how many buckets a byte of the tables holds.
const teddyBuckets = 8

// teddyFor puts each piece in the bucket where it adds the fewest
// expected false candidates (pieces of frequent bytes first), by the
// bytes' frequencies in text (byteFreq), and fills the tables.
func teddyFor(byPair map[uint16][]anchorLit) teddyMasks {
	type nibbles struct{ lo0, hi0, lo1, hi1 uint16 }
	pairs := make([]uint16, 0, len(byPair))
	for p := range byPair {
		pairs = append(pairs, p)
	}
	of := func(p uint16) nibbles {
		return nibbles{1 << (p >> 8 & 15), 1 << (p >> 12), 1 << (p & 15), 1 << (p >> 4 & 15)}
	}
	// share is the expected share of text bytes whose low nibble is in
	// lo and high nibble in hi.
	share := func(lo, hi uint16) float64 {
		s := 0.0
		for c := range 128 {
			if lo&(1<<(c&15)) != 0 && hi&(1<<(c>>4)) != 0 {
				s += float64(byteFreq[c]) + 0.5
			}
		}
		return s
	}
	cost := func(n nibbles) float64 {
		if n == (nibbles{}) {
			return 0
		}
		return share(n.lo0, n.hi0) * share(n.lo1, n.hi1)
	}
	slices.SortFunc(pairs, func(x, y uint16) int {
		if c := cmp.Compare(cost(of(y)), cost(of(x))); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	var buckets [teddyBuckets]nibbles
	var t teddyMasks
	for _, p := range pairs {
		n := of(p)
		best, bestAdd := 0, math.Inf(1)
		for j, b := range buckets {
			m := nibbles{b.lo0 | n.lo0, b.hi0 | n.hi0, b.lo1 | n.lo1, b.hi1 | n.hi1}
			if add := cost(m) - cost(b); add < bestAdd {
				best, bestAdd = j, add
			}
		}
		b := &buckets[best]
		*b = nibbles{b.lo0 | n.lo0, b.hi0 | n.hi0, b.lo1 | n.lo1, b.hi1 | n.hi1}
		bit := byte(1) << best
		t.lo0[p>>8&15] |= bit
		t.hi0[p>>12] |= bit
		t.lo1[p&15] |= bit
		t.hi1[p>>4&15] |= bit
	}
	return t
}

// teddyAVX2 and teddyAVX512 look at the n 64-byte blocks from p+1 and
// return the first, k, with a candidate (n when none has) and its
// candidates: bit j of m is set when the bytes p[64k+j] and p[64k+j+1]
// are a candidate. They read at most n*64+1 bytes from p.
//
//go:noescape
func teddyAVX2(p *byte, n int, t *teddyMasks) (k int, m uint64)

//go:noescape
func teddyAVX512(p *byte, n int, t *teddyMasks) (k int, m uint64)

// byteFreq is how often each ASCII byte occurs, per 65536 bytes: the
// mean of a generated home's transcripts, pastes and file backups and
// of this repository's Go, Markdown, shell and JSON files (measured
// 2026-11-30). Only the order of magnitude matters to teddyFor.
var byteFreq = [128]uint16{
	0, 0, 0, 0, 0, 0, 0, 0, 0, 642, 576, 0, 0, 1, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	7933, 41, 1162, 7, 11, 41, 23, 33, 272, 272, 33, 45, 558, 257, 417, 256,
	263, 213, 193, 156, 163, 146, 135, 118, 129, 130, 432, 30, 11, 168, 9, 4,
	2, 50, 46, 65, 54, 60, 66, 17, 37, 65, 18, 22, 46, 63, 41, 42,
	60, 10, 66, 104, 93, 40, 17, 30, 11, 13, 20, 74, 609, 72, 1, 105,
	63, 2702, 629, 2067, 1984, 6302, 1164, 770, 1164, 3183, 110, 414, 1948, 2148, 3306, 3748,
	1476, 205, 3853, 3172, 4260, 1897, 338, 396, 206, 602, 26, 186, 60, 186, 1, 0,
}
