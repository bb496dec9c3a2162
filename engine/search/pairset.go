package search

// A pairSet is the finders of one scan looked for in one pass: their
// pairs (pair.go) tested together at each place, the line breaks counted
// on the way. A scan of a transcript looks for the query's anchors and,
// from its first hit on, for compact boundaries: each finder went over
// the chunk once, and the line of each place found was then found again
// (the last line break before it, the line breaks before that counted).
// With the set the chunk is read once, in 64-byte blocks (AVX2), and the
// line's start and number come with the place.

// maxSetPairs is the most finders a set holds (the registers of the
// loop).
const maxSetPairs = 3

// pairSet is what the SIMD loop reads (its first fields, at fixed
// offsets: pair_amd64.s) and the finders.
type pairSet struct {
	// offs are o1 and o2 of each pair; bytes their bytes, ORed with
	// mask: 0x20 when a finder ignores case (a pair that does not is
	// then only a wider test), else 0; nl is '\n'.
	offs  [2 * maxSetPairs]int
	bytes [2 * maxSetPairs]byte
	mask  byte
	nl    byte
	// k is the number of pairs the loop tests (the first k).
	k int
	// maxOff is the farthest offset of a pair.
	maxOff  int
	finders []*finder
}

// newPairSet is the set of fs (at most maxSetPairs).
func newPairSet(fs []*finder) *pairSet {
	s := &pairSet{nl: '\n', finders: fs}
	for _, f := range fs {
		if f.fold {
			s.mask = 0x20
		}
	}
	for i, f := range fs {
		p := f.pair
		s.offs[2*i], s.offs[2*i+1] = p.o1, p.o2
		s.bytes[2*i], s.bytes[2*i+1] = p.b1|s.mask, p.b2|s.mask
		s.maxOff = max(s.maxOff, p.o1, p.o2)
	}
	return s
}

// next looks at b's places from from on for the first where one of the
// first k pairs agrees: p (-1: none), the line breaks in b[from:p] (to
// the end of b when none), and the last of them (-1: none).
func (s *pairSet) next(b []byte, from, k int) (p, nls, lastnl int) {
	lastnl = -1
	if pairSetSIMD {
		if n := len(b) - from - s.maxOff; n >= 64 {
			s.k = k
			r, c, l := pairSetBlocks(&b[from], n, s)
			if l >= 0 {
				lastnl = from + l
			}
			if r >= 0 {
				return from + r, c, lastnl
			}
			from += ^r
			nls = c
		}
	}
	p, c, l := s.nextScalar(b, from, k)
	if l >= 0 {
		lastnl = l
	}
	return p, nls + c, lastnl
}

// nextScalar is next a byte at a time.
func (s *pairSet) nextScalar(b []byte, from, k int) (p, nls, lastnl int) {
	lastnl = -1
	for i := from; i < len(b); i++ {
		for j := range k {
			o1, o2 := i+s.offs[2*j], i+s.offs[2*j+1]
			if o1 < len(b) && o2 < len(b) && b[o1]|s.mask == s.bytes[2*j] && b[o2]|s.mask == s.bytes[2*j+1] {
				return i, nls, lastnl
			}
		}
		if b[i] == '\n' {
			nls++
			lastnl = i
		}
	}
	return -1, nls, lastnl
}

// at reports whether finder j matches b at p.
func (s *pairSet) at(b []byte, p, j int) bool {
	f := s.finders[j]
	return p+len(f.pat) <= len(b) && f.equal(b[p:p+len(f.pat)])
}
