package search

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// naiveIndex is the first place pat (lower-case when fold) is in s,
// folding s's ASCII letters when fold is set.
func naiveIndex(s, pat []byte, fold bool) int {
	for i := 0; i+len(pat) <= len(s); i++ {
		if fold && equalFold(s[i:i+len(pat)], pat) || !fold && bytes.Equal(s[i:i+len(pat)], pat) {
			return i
		}
	}
	return -1
}

// TestFinderAgreesWithNaive: the finder (pair found 32, 16 or one
// place at a time, then compared) finds what a byte-by-byte comparison
// finds, on random text over a small alphabet (so that pairs agree
// often without the pattern), at every length around the blocks' sizes,
// both cases.
func TestFinderAgreesWithNaive(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abcdAB-\n\"\\k"
	impls := map[string]func(p *byte, n, o1, o2 int, vec *[4][16]byte) int{"default": pairBlocks}
	addPairImpls(impls)
	for round := range 3000 {
		s := make([]byte, rng.IntN(200))
		for i := range s {
			s[i] = alphabet[rng.IntN(len(alphabet))]
		}
		pat := make([]byte, 1+rng.IntN(6))
		for i := range pat {
			pat[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if len(s) > len(pat) && rng.IntN(2) == 0 {
			at := rng.IntN(len(s) - len(pat))
			copy(s[at:], pat)
		}
		fold := round%2 == 0
		f := newFinder(pat, fold)
		want := naiveIndex(s, f.pat, fold)
		if got := f.index(s); got != want {
			t.Fatalf("finder(%q, fold %v) in %q: %d, want %d (pair at %d, %d)", pat, fold, s, got, want, f.pair.o1, f.pair.o2)
		}
		// Each SIMD loop alone agrees with the scalar one on where the
		// pair first agrees.
		end := len(s) - len(pat) + 1
		if end < 1 {
			continue
		}
		want = f.pair.nextScalar(s, 0, end)
		for name, impl := range impls {
			got := -1
			if end >= 16 {
				if r := impl(&s[0], end, f.pair.o1, f.pair.o2, &f.pair.vec); r >= 0 {
					got = r
				} else {
					got = f.pair.nextScalar(s, ^r, end)
				}
			} else {
				got = f.pair.nextScalar(s, 0, end)
			}
			if got != want {
				t.Fatalf("%s: pair %+v in %q: %d, want %d", name, f.pair, s, got, want)
			}
		}
	}
}

// TestPairFoldsOnlyLetters: with case ignored, a letter of the pair
// matches its two cases and nothing else (the OR with 0x20 would also
// make '@' a '`', were it applied to anything but letters).
func TestPairFoldsOnlyLetters(t *testing.T) {
	t.Parallel()
	f := newFinder([]byte("k@"), true)
	for _, c := range []struct {
		s    string
		want int
	}{{"xxK@", 2}, {"xxk@", 2}, {"xxk`", -1}, {"xxK`", -1}, {"xxk@" + string(rune(0x6b|0x80)), 2}} {
		if got := f.index([]byte(c.s)); got != c.want {
			t.Errorf("%q: %d, want %d", c.s, got, c.want)
		}
	}
}

// TestRarestAvoidsNeighbours: the pair is two bytes some way apart, and
// the rarest byte is one of them.
func TestRarestAvoidsNeighbours(t *testing.T) {
	t.Parallel()
	f := newFinder([]byte("deadlock"), true)
	if o1, o2 := f.pair.o1, f.pair.o2; f.pat[o1] != 'k' || o2-o1 > -4 && o2-o1 < 4 {
		t.Errorf("deadlock: pair at %d (%c) and %d (%c)", o1, f.pat[o1], o2, f.pat[o2])
	}
	if f := newFinder([]byte("x"), false); f.pair.o1 != 0 || f.pair.o2 != 0 {
		t.Errorf("one byte: %+v", f.pair)
	}
}
