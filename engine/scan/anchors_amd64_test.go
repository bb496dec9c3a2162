package scan

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// findLoop is a loop Find can run: a vector loop, or nil for findFrom.
type findLoop struct {
	name   string
	blocks func(p *byte, n int, t *teddyMasks) (int, uint64)
}

// findLoops are the loops Find can run here: AVX-512 and AVX2 where the
// processor has them, and the byte loop always.
func findLoops() []findLoop {
	var loops []findLoop
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW {
		loops = append(loops, findLoop{"avx512", teddyAVX512})
	}
	if cpu.X86.HasAVX2 {
		loops = append(loops, findLoop{"avx2", teddyAVX2})
	}
	return append(loops, findLoop{"go", nil})
}

// forEachFindLoop runs f with each loop of Find forced in turn (as
// jsonscan's TestScannerWithoutSIMD does).
func forEachFindLoop(t *testing.T, f func(t *testing.T)) {
	defer func(blocks func(*byte, int, *teddyMasks) (int, uint64)) { teddyBlocks = blocks }(teddyBlocks)
	for _, l := range findLoops() {
		teddyBlocks = l.blocks
		t.Run(l.name, f)
	}
}

func forEachFindLoopB(b *testing.B, f func(b *testing.B)) {
	defer func(blocks func(*byte, int, *teddyMasks) (int, uint64)) { teddyBlocks = blocks }(teddyBlocks)
	for _, l := range findLoops() {
		teddyBlocks = l.blocks
		b.Run(l.name, f)
	}
}

// TestFindLooksAtBlocks checks that, where the processor has AVX2, Find
// hands all of a text to the vector loop, and that the loop it chose is
// the fastest the processor has.
func TestFindLooksAtBlocks(t *testing.T) {
	loops := findLoops()
	if len(loops) == 1 {
		t.Skip("no AVX2 here: Find has only the byte loop")
	}
	if reflect.ValueOf(teddyBlocks).Pointer() != reflect.ValueOf(loops[0].blocks).Pointer() {
		t.Fatalf("Find runs another loop than %s", loops[0].name)
	}
	defer func(blocks func(*byte, int, *teddyMasks) (int, uint64)) { teddyBlocks = blocks }(teddyBlocks)
	looked := 0
	teddyBlocks = func(p *byte, n int, tm *teddyMasks) (int, uint64) {
		k, m := loops[0].blocks(p, n, tm)
		looked += 64 * min(k+1, n)
		return k, m
	}
	b := []byte(strings.Repeat(`{"type":"user","message":{"content":"AKIA ghp_ eyJ"}}`, 1<<14))
	a := SecretAnchors()
	if got, want := a.Find(b, nil), findOld(a, b, nil); !slices.Equal(got, want) {
		t.Fatalf("Find = %d hits, want %d", len(got), len(want))
	}
	if looked < len(b)-1 {
		t.Fatalf("the vector loop looked at %d bytes of %d", looked, len(b))
	}
}

// TestTeddyHasEveryPiece checks every filed piece is a candidate of the
// tables (else Find would miss its anchors), for the secret anchors and
// dense random sets.
func TestTeddyHasEveryPiece(t *testing.T) {
	check := func(a *Anchors) {
		t.Helper()
		for p := range 1 << 16 {
			filed := a.bits[p>>6]&(1<<(p&63)) != 0
			if filed && !teddyCandidate(&a.teddy, byte(p>>8), byte(p)) {
				t.Fatalf("piece %q filed but not a candidate", []byte{byte(p >> 8), byte(p)})
			}
		}
	}
	check(SecretAnchors())
	r := rand.New(rand.NewPCG(28, 3))
	for range 200 {
		check(denseAnchors(r))
	}
}

// teddyCandidate is the vector loops' test of one pair of bytes.
func teddyCandidate(t *teddyMasks, c0, c1 byte) bool {
	return c0 < 0x80 && c1 < 0x80 && t.lo0[c0&15]&t.hi0[c0>>4]&t.lo1[c1&15]&t.hi1[c1>>4] != 0
}

// TestTeddyFalseCandidates counts, over benchCorpus (the repository's
// test home, or the folders MEMSCOPE_FIND_CORPUS names), the byte pairs
// that are candidates of the vector loops and those that are filed
// pieces: each false candidate costs a look at the piece table, so
// teddyFor's buckets must keep them rare (below 0.5 % of bytes).
func TestTeddyFalseCandidates(t *testing.T) {
	lines, n := benchCorpus(t)
	a := SecretAnchors()
	cand, filed := 0, 0
	for _, l := range lines {
		for i := 1; i < len(l); i++ {
			if teddyCandidate(&a.teddy, l[i-1], l[i]) {
				cand++
			}
			if p := uint16(l[i-1])<<8 | uint16(l[i]); a.bits[p>>6]&(1<<(p&63)) != 0 {
				filed++
			}
		}
	}
	t.Logf("%d bytes: %d candidates (%.3f %%), %d filed pieces (%.3f %%), %d false (%.3f %%)",
		n, cand, 100*float64(cand)/float64(n), filed, 100*float64(filed)/float64(n),
		cand-filed, 100*float64(cand-filed)/float64(n))
	if cand < filed || (cand-filed)*200 > n {
		t.Fatalf("%d candidates for %d filed pieces in %d bytes", cand, filed, n)
	}
}
