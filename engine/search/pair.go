package search

// A pair is the finder's first, cheap test: two bytes of the pattern at
// their offsets in it, each compared after an OR with a mask (0x20 makes
// an ASCII letter's two cases one). A place where both agree is a
// candidate, and only a candidate is compared with the whole pattern.
// Two bytes a few places apart agree by chance far less often than one
// byte alone, so on text where every single byte of the pattern is
// common (a word of English in English prose) the finder still moves at
// the speed of memory: 16 places at a time on amd64 (pair_amd64.s, SSE2,
// which every amd64 processor has), byte by byte elsewhere.
type pair struct {
	o1, o2 int
	b1, b2 byte
	m1, m2 byte
	// vec is b1, m1, b2 and m2, each repeated 16 times, for the SIMD
	// loop.
	vec [4][16]byte
}

// newPair is the pair of pattern bytes at offsets o1 and o2; fold makes
// an ASCII letter match its other case.
func newPair(pat []byte, o1, o2 int, fold bool) pair {
	p := pair{o1: o1, o2: o2}
	mask := func(c byte) (byte, byte) {
		if fold && isLetter(c) {
			return c | 0x20, 0x20
		}
		return c, 0
	}
	p.b1, p.m1 = mask(pat[o1])
	p.b2, p.m2 = mask(pat[o2])
	for i := range 16 {
		p.vec[0][i], p.vec[1][i], p.vec[2][i], p.vec[3][i] = p.b1, p.m1, p.b2, p.m2
	}
	return p
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// at reports whether the pair agrees with s at i.
func (p *pair) at(s []byte, i int) bool {
	return s[i+p.o1]|p.m1 == p.b1 && s[i+p.o2]|p.m2 == p.b2
}

// next is the first i in [from, end) where the pair agrees with s, or
// -1; s must hold end-1+max(o1, o2).
func (p *pair) next(s []byte, from, end int) int {
	if n := end - from; n >= 16 && pairSIMD {
		r := pairBlocks(&s[from], n, p.o1, p.o2, &p.vec)
		if r >= 0 {
			return from + r
		}
		from += ^r
	}
	return p.nextScalar(s, from, end)
}

// nextScalar is next a byte at a time (the tail the SIMD loop leaves,
// and every place where there is none).
func (p *pair) nextScalar(s []byte, from, end int) int {
	for i := from; i < end; i++ {
		if p.at(s, i) {
			return i
		}
	}
	return -1
}
