package search

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestPairSetLayout: the SIMD loop reads the set's fields at fixed
// offsets (pair_amd64.s).
func TestPairSetLayout(t *testing.T) {
	t.Parallel()
	var s pairSet
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"offs", unsafe.Offsetof(s.offs), 0},
		{"bytes", unsafe.Offsetof(s.bytes), 48},
		{"mask", unsafe.Offsetof(s.mask), 54},
		{"nl", unsafe.Offsetof(s.nl), 55},
		{"k", unsafe.Offsetof(s.k), 56},
	} {
		if c.got != c.want {
			t.Errorf("pairSet.%s at %d, the loop reads it at %d", c.name, c.got, c.want)
		}
	}
}

// TestPairSetNextIsScalar: the SIMD loop (where there is one) and the
// byte-by-byte one find the place, the line breaks before it and the
// last of them that a plain look finds,
// for random sets of one to three finders (either case) in random
// texts full of near misses and line breaks, from every start.
func TestPairSetNextIsScalar(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	alphabet := []byte("abcqQuUeE \n\"\\_-yYbB")
	for iter := 0; iter < 3000; iter++ {
		var fs []*finder
		for range 1 + rng.IntN(maxSetPairs) {
			pat := make([]byte, 1+rng.IntN(9))
			for i := range pat {
				pat[i] = alphabet[rng.IntN(len(alphabet)-1)+1] // no line break in a pattern... but a space first
				if pat[i] == '\n' {
					pat[i] = 'x'
				}
			}
			fs = append(fs, newFinder(pat, rng.IntN(2) == 0))
		}
		s := newPairSet(fs)
		b := make([]byte, rng.IntN(300))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		for k := 1; k <= len(fs); k++ {
			for from := 0; from <= len(b); from += 1 + rng.IntN(5) {
				p, n, l := s.next(b, from, k)
				sp, sn, sl := s.nextScalar(b, from, k)
				// The reference: the first place a pair agrees at, the
				// line breaks before it counted apart.
				rp := -1
				for i := from; i < len(b) && rp < 0; i++ {
					for j := range k {
						o1, o2 := i+s.offs[2*j], i+s.offs[2*j+1]
						if o1 < len(b) && o2 < len(b) && b[o1]|s.mask == s.bytes[2*j] && b[o2]|s.mask == s.bytes[2*j+1] {
							rp = i
							break
						}
					}
				}
				upto := rp
				if rp < 0 {
					upto = len(b)
				}
				rn, rl := bytes.Count(b[from:upto], []byte{'\n'}), bytes.LastIndexByte(b[from:upto], '\n')
				if rl >= 0 {
					rl += from
				}
				if p != rp || n != rn || l != rl || sp != rp || sn != rn || sl != rl {
					t.Fatalf("set %q k %d from %d in %q: next %d %d %d, scalar %d %d %d, want %d %d %d", pats(fs), k, from, b, p, n, l, sp, sn, sl, rp, rn, rl)
				}
			}
		}
	}
}

func pats(fs []*finder) []string {
	var out []string
	for _, f := range fs {
		out = append(out, string(f.pat))
	}
	return out
}

// TestScanRegionSetIsScanRegion: a region scanned with a pairSet (one
// pass, lines counted on the way; the SIMD loop and the byte-by-byte
// one) hands over the lines, with the numbers, that the finders one by
// one hand over: random regions of short lines full of near misses and
// carriage returns, random finds, specials (their lines checked) and a
// boundary find switched on at a random line.
func TestScanRegionSetIsScanRegion(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	alphabet := []byte("abqQuUeE \r\"\\_-yY")
	word := func() []byte {
		w := make([]byte, 1+rng.IntN(6))
		for i := range w {
			w[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return w
	}
	type emitted struct {
		line string
		n    int
	}
	simd := pairSetSIMD
	defer func() { pairSetSIMD = simd }()
	for iter := 0; iter < 4000; iter++ {
		pats := [][]byte{word(), word(), word()}
		var region []byte
		for range rng.IntN(60) {
			for range rng.IntN(12) {
				if rng.IntN(4) == 0 {
					region = append(region, pats[rng.IntN(3)]...)
				} else {
					region = append(region, alphabet[rng.IntN(len(alphabet))])
				}
			}
			region = append(region, '\n')
		}
		if rng.IntN(2) == 0 && len(region) > 0 {
			region = region[:len(region)-1] // the file's last line, without its line break
		}
		nf := 1 + rng.IntN(2)
		var finds []anchor
		var specials []*finder
		for i := range nf {
			finds = append(finds, newFinder(pats[i], rng.IntN(2) == 0))
		}
		if nf == 1 && rng.IntN(2) == 0 {
			specials = append(specials, newFinder(pats[1], false))
		}
		check := func(l []byte) bool { return len(l)%3 != 0 }
		flipAt := rng.IntN(8)
		run := func(withSet, scalar bool) []emitted {
			pairSetSIMD = simd && !scalar
			more := &moreFind{find: newFinder(pats[2], false)}
			ls := lineScan{finds: finds, specials: specials, check: check, more: more}
			if withSet {
				ls.set = newPairSet(append(append(append([]*finder{}, finderList(finds)...), specials...), more.find))
			}
			lc := lineCount{line: 1, buf: new([]byte)}
			var out []emitted
			var w worker
			w.scanRegion(region, 0, &lc, ls, func(l []byte, n int) {
				out = append(out, emitted{string(l), n})
				if len(out) == flipAt {
					more.on = true
				}
			})
			return out
		}
		want := run(false, false)
		for _, scalar := range []bool{false, true} {
			if got := run(true, scalar); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("finds %q specials %d more %q (on at %d) in %q, scalar %v:\nset     %v\nfinders %v", pats[:nf], len(specials), pats[2], flipAt, region, scalar, got, want)
			}
		}
	}
}

func finderList(as []anchor) []*finder {
	var out []*finder
	for _, a := range as {
		out = append(out, a.(*finder))
	}
	return out
}
