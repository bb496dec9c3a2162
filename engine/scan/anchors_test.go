package scan

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/internal/testenv"
)

// findOld is Find as it was before the vector loops (a byte at a time,
// the anchors of a piece in a map): the reference every loop of Find
// must agree with, hit for hit and in the same order.
func findOld(a *Anchors, b []byte, out []AnchorHit) []AnchorHit {
	byPair := oldPairs(a)
	if len(b) < 2 {
		return out
	}
	bits := &a.bits
	prev := uint32(b[0])
	for i := 1; i < len(b); i++ {
		c := uint32(b[i])
		p := (prev<<8 | c) & 0xFFFF
		prev = c
		if bits[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		for _, l := range byPair[uint16(p)] {
			s := i - 1 - l.at
			if s >= 0 && s+len(l.lit) <= len(b) && string(b[s:s+len(l.lit)]) == l.lit {
				out = append(out, AnchorHit{Start: s, End: s + len(l.lit), Rules: l.rules})
			}
		}
	}
	return out
}

// oldMaps holds, for each anchor set, its anchors by piece as the old
// Find had them.
var oldMaps sync.Map // *Anchors -> map[uint16][]anchorLit

func oldPairs(a *Anchors) map[uint16][]anchorLit {
	if m, ok := oldMaps.Load(a); ok {
		return m.(map[uint16][]anchorLit)
	}
	byPair := map[uint16][]anchorLit{}
	for p := range 1 << 16 {
		if a.bits[p>>6]&(1<<(p&63)) != 0 {
			byPair[uint16(p)] = a.lists[a.index(uint16(p))]
		}
	}
	oldMaps.Store(a, byPair)
	return byPair
}

// findNaive finds the anchors of a one literal at a time, ordered as
// Find orders them (by where their filed piece ends, then as filed): a
// reference that shares no loop with Find.
func findNaive(a *Anchors, b []byte) []AnchorHit {
	type hit struct {
		AnchorHit
		end, nth int
	}
	var hs []hit
	for _, ls := range a.lists {
		for nth, l := range ls {
			for s := 0; s+len(l.lit) <= len(b); s++ {
				if bytes.HasPrefix(b[s:], []byte(l.lit)) {
					hs = append(hs, hit{AnchorHit{s, s + len(l.lit), l.rules}, s + l.at + 1, nth})
				}
			}
		}
	}
	slices.SortFunc(hs, func(x, y hit) int {
		if x.end != y.end {
			return x.end - y.end
		}
		return x.nth - y.nth
	})
	var out []AnchorHit
	for _, h := range hs {
		out = append(out, h.AnchorHit)
	}
	return out
}

// secretLits are the anchors of the secret rules.
func secretLits(a *Anchors) []string {
	var lits []string
	for _, ls := range a.lists {
		for _, l := range ls {
			lits = append(lits, l.lit)
		}
	}
	slices.Sort(lits)
	return lits
}

// denseAnchors is a set of short anchors over a few letters, so that
// texts over those letters hold many, overlapping, several filed under
// one piece, and the candidates are dense.
func denseAnchors(r *rand.Rand) *Anchors {
	const alphabet = "abAB:_-0Q~"
	n := 1 + r.IntN(40)
	var lits []string
	var masks []RuleMask
	for range n {
		l := make([]byte, 2+r.IntN(5))
		for i := range l {
			l[i] = alphabet[r.IntN(len(alphabet))]
		}
		lits, masks = append(lits, string(l)), append(masks, RuleMask(1)<<r.IntN(64))
	}
	return newAnchors(lits, masks)
}

// anchorText makes a text of about n bytes from runs of prose, JSON,
// random bytes (any value), the anchors' own bytes and prefixes of
// anchors, then plants whole anchors at offsets of phase mod 64 in
// several 64-byte blocks, at the very start and at the very end, some
// overlapping the one before.
func anchorText(r *rand.Rand, n, phase int, lits []string) []byte {
	var alpha []byte
	for _, l := range lits {
		alpha = append(alpha, l...)
	}
	b := make([]byte, 0, n+64)
	for len(b) < n {
		switch r.IntN(6) {
		case 0:
			b = append(b, "the quick brown fox: "...)
		case 1:
			b = append(b, `{"type":"user","message":{"content":"ok"},"uuid":"9f2"}`...)
		case 2:
			for range 1 + r.IntN(40) {
				b = append(b, byte(r.IntN(256)))
			}
		case 3:
			for range 1 + r.IntN(40) {
				b = append(b, alpha[r.IntN(len(alpha))])
			}
		case 4:
			l := lits[r.IntN(len(lits))]
			b = append(b, l[:r.IntN(len(l))]...)
		case 5:
			b = append(b, lits[r.IntN(len(lits))]...)
		}
	}
	b = b[:n]
	plant := func(at int) int {
		l := lits[r.IntN(len(lits))]
		if at < 0 || at+len(l) > len(b) {
			return at
		}
		copy(b[at:], l)
		return at + len(l)
	}
	for at := phase; at < len(b); at += 64 * (1 + r.IntN(4)) {
		end := plant(at)
		if r.IntN(3) == 0 && end > at+1 {
			plant(at + 1 + r.IntN(end-at-1)) // overlapping
		}
	}
	plant(0)
	if len(lits) > 0 {
		l := lits[r.IntN(len(lits))]
		if len(l) <= len(b) {
			copy(b[len(b)-len(l):], l)
		}
	}
	return b
}

// checkFind asserts that Find, as the loop now in force runs it, gives
// what findOld gives, and returns how many hits that is.
func checkFind(t *testing.T, a *Anchors, b []byte) int {
	t.Helper()
	got := a.Find(b, nil)
	want := findOld(a, b, nil)
	if !slices.Equal(got, want) {
		t.Fatalf("Find(%q):\n got %v\nwant %v", b, got, want)
	}
	return len(want)
}

// textLen is a length for the i-th text: mostly below a few blocks,
// some short of the vector loops' minimum, some of many blocks.
func textLen(r *rand.Rand, i int) int {
	switch i % 8 {
	case 0:
		return r.IntN(130)
	case 1:
		return 1024 + r.IntN(3072)
	default:
		return r.IntN(700)
	}
}

// TestFindEveryLoop holds every loop of Find (as forEachFindLoop forces
// each in turn) to the byte loop it replaced, on 30 000 texts with the
// secret anchors and 6 000 with dense random anchor sets.
func TestFindEveryLoop(t *testing.T) {
	secret := SecretAnchors()
	lits := secretLits(secret)
	forEachFindLoop(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(28, 1))
		hits := 0
		for i := range 30000 {
			hits += checkFind(t, secret, anchorText(r, textLen(r, i), i%64, lits))
		}
		if hits < 30000 {
			t.Fatalf("only %d anchors in the texts: the plants miss", hits)
		}
		for i := range 600 {
			a := denseAnchors(r)
			dl := secretLits(a)
			for j := range 10 {
				checkFind(t, a, anchorText(r, textLen(r, i*10+j), (i*10+j)%64, dl))
			}
		}
	})
}

// TestFindReferences checks the reference itself: findOld agrees with
// findNaive, which looks for each literal separately.
func TestFindReferences(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 2))
	secret := SecretAnchors()
	lits := secretLits(secret)
	for i := range 2000 {
		a, l := secret, lits
		if i%2 == 1 {
			a = denseAnchors(r)
			l = secretLits(a)
		}
		b := anchorText(r, r.IntN(300), i%64, l)
		if got, want := findOld(a, b, nil), findNaive(a, b); !slices.Equal(got, want) {
			t.Fatalf("findOld(%q) = %v, findNaive %v", b, got, want)
		}
	}
}

// TestFindRepositoryFiles holds every loop to the byte loop on the
// repository's own test data and Go files (real text, few anchors).
func TestFindRepositoryFiles(t *testing.T) {
	var files [][]byte
	for _, dir := range []string{"../../testdata", "testdata", "."} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if b, err := os.ReadFile(path); err == nil {
					files = append(files, b)
				}
			}
			return err
		})
	}
	if len(files) < 50 {
		t.Fatalf("only %d files", len(files))
	}
	a := SecretAnchors()
	forEachFindLoop(t, func(t *testing.T) {
		for _, b := range files {
			checkFind(t, a, b)
			for l := range bytes.SplitSeq(b, []byte("\n")) {
				checkFind(t, a, l)
			}
		}
	})
}

// TestFindAppends checks Find appends to out and leaves what it held.
func TestFindAppends(t *testing.T) {
	a := SecretAnchors()
	b := []byte(strings.Repeat("x", 100) + "ghp_" + strings.Repeat("y", 100) + "AKIA")
	forEachFindLoop(t, func(t *testing.T) {
		held := []AnchorHit{{Start: 7, End: 9, Rules: 3}}
		got := a.Find(b, held)
		want := append([]AnchorHit{{Start: 7, End: 9, Rules: 3}}, findOld(a, b, nil)...)
		if !slices.Equal(got, want) || len(want) != 3 {
			t.Fatalf("Find = %v, want %v", got, want)
		}
	})
}

func FuzzFind(f *testing.F) {
	f.Add([]byte("x ghp_abc AKIA postgres://u:p@h"), uint64(1))
	f.Add([]byte(strings.Repeat("eyJ", 50)+"Q~"), uint64(2))
	f.Add(bytes.Repeat([]byte("sk-ant-api03-"), 20), uint64(3))
	secret := SecretAnchors()
	// Sixteen dense anchor sets, made once (findOld keeps a map of each).
	r := rand.New(rand.NewPCG(28, 4))
	var dense [16]*Anchors
	for i := range dense {
		dense[i] = denseAnchors(r)
	}
	f.Fuzz(func(t *testing.T, b []byte, seed uint64) {
		dense := dense[seed%16]
		forEachFindLoop(t, func(t *testing.T) {
			checkFind(t, secret, b)
			checkFind(t, dense, b)
		})
	})
}

// benchCorpus is the corpus of BenchmarkFind, as the scan of a home
// hands it to Find (JSONL files a line at a time, others whole): the files under the repository's test
// home, or under the folders MEMSCOPE_FIND_CORPUS names (separated by
// colons; scripts/anchors-bench.sh names a generated home's stores and
// the shared transcript formats), up to 24 MB from each.
func benchCorpus(b testing.TB) (lines [][]byte, n int) {
	dirs := []string{"../../testdata/home"}
	if env := os.Getenv("MEMSCOPE_FIND_CORPUS"); env != "" {
		dirs = strings.Split(env, ":")
	}
	for _, dir := range dirs {
		start := n
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() || n-start >= 24<<20 {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			n += len(data)
			if !strings.HasSuffix(path, ".jsonl") {
				lines = append(lines, data) // read whole, as the scan does
				return nil
			}
			for l := range bytes.SplitSeq(data, []byte("\n")) {
				lines = append(lines, l)
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return lines, n
}

// BenchmarkFind runs Find over the lines of benchCorpus: old, the byte
// loop it replaced, then each loop of Find. The corpus is larger than
// the caches, so this reads memory as much as it computes.
func BenchmarkFind(b *testing.B) { benchFind(b, false) }

// BenchmarkFindHot is BenchmarkFind over a sample of the corpus's lines
// (every k-th, about 256 KB) that stays in the second-level cache, as a
// line the scan of a home has just read does: the search's own cost.
func BenchmarkFindHot(b *testing.B) { benchFind(b, true) }

func benchFind(b *testing.B, hot bool) {
	lines, n := benchCorpus(b)
	if hot {
		var sample [][]byte
		k := n/(256<<10) + 1
		n = 0
		for i := 0; i < len(lines); i += k {
			sample = append(sample, lines[i])
			n += len(lines[i])
		}
		lines = sample
	}
	a := SecretAnchors()
	bench := func(find func([]byte, []AnchorHit) []AnchorHit) func(b *testing.B) {
		return func(b *testing.B) {
			b.SetBytes(int64(n))
			var hits []AnchorHit
			cpu0 := testenv.ProcessCPU()
			for b.Loop() {
				for _, l := range lines {
					hits = find(l, hits[:0])
				}
			}
			// The machine may be busy: CPU time, not wall, is the figure.
			cpu := (testenv.ProcessCPU() - cpu0).Seconds()
			b.ReportMetric(float64(n)*float64(b.N)/1e6/cpu, "MB/cpu-s")
		}
	}
	oldPairs(a)
	b.Run("old", bench(func(l []byte, hits []AnchorHit) []AnchorHit { return findOld(a, l, hits) }))
	forEachFindLoopB(b, bench(a.Find))
}
