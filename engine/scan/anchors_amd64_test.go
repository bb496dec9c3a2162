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
	blocks func(p *byte, n int, t *teddyMasks, out *uint64)
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
	defer func(blocks func(*byte, int, *teddyMasks, *uint64)) { teddyBlocks = blocks }(teddyBlocks)
	for _, l := range findLoops() {
		teddyBlocks = l.blocks
		t.Run(l.name, f)
	}
}

func forEachFindLoopB(b *testing.B, f func(b *testing.B)) {
	defer func(blocks func(*byte, int, *teddyMasks, *uint64)) { teddyBlocks = blocks }(teddyBlocks)
	for _, l := range findLoops() {
		teddyBlocks = l.blocks
		b.Run(l.name, f)
	}
}

// TestFindLooksAtBlocks checks that, where the processor has AVX2, Find
// hands all of a long text but its last block to the vector loop (the
// byte loop looks at the rest), and that the loop it chose is the
// fastest the processor has.
func TestFindLooksAtBlocks(t *testing.T) {
	loops := findLoops()
	if len(loops) == 1 {
		t.Skip("no AVX2 here: Find has only the byte loop")
	}
	if reflect.ValueOf(teddyBlocks).Pointer() != reflect.ValueOf(loops[0].blocks).Pointer() {
		t.Fatalf("Find runs another loop than %s", loops[0].name)
	}
	defer func(blocks func(*byte, int, *teddyMasks, *uint64)) { teddyBlocks = blocks }(teddyBlocks)
	looked := 0
	teddyBlocks = func(p *byte, n int, tm *teddyMasks, out *uint64) {
		looked += 64 * n
		loops[0].blocks(p, n, tm, out)
	}
	b := []byte(strings.Repeat(`{"type":"user","message":{"content":"AKIA ghp_ eyJ"}}`, 1<<14))
	a := SecretAnchors()
	if got, want := a.Find(b, nil), findOld(a, b, nil); !slices.Equal(got, want) {
		t.Fatalf("Find = %d hits, want %d", len(got), len(want))
	}
	if looked < len(b)-64 {
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
