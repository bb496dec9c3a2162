package secrets

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// warmCost is the allocations and the bytes allocated (the mean of
// three runs) of a warm Counts on the planted home with n more pastes,
// every write-once folder settled and trusted.
func warmCost(t *testing.T, n int) (allocs, bytes float64) {
	warmCounts(t, n, func(run func()) {
		allocs = testing.AllocsPerRun(3, run)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 3 {
			run()
		}
		runtime.ReadMemStats(&after)
		bytes = float64(after.TotalAlloc-before.TotalAlloc) / 3
	})
	return allocs, bytes
}

// warmCounts hands measure a warm Counts on the planted home with n more
// pastes, every write-once folder settled and trusted.
func warmCounts(t *testing.T, n int, measure func(run func())) {
	_, h := plantedHome(t)
	for i := range n {
		body := fmt.Sprintf("pasted text %d, nothing secret\n", i)
		name := filepath.Join(h.Dir, model.PasteCacheDir, string(model.HashPaste([]byte(body)))+".txt")
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	settleFolders(t, writeOnceFolders(t, h)...)
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	lf := newWatchFS(h.FS, func(name string) bool { return strings.HasPrefix(name, model.PasteCacheDir+"/") })
	ch := *h
	ch.FS = lf
	Counts(Options{Home: &ch, Workers: 1}, cache)
	Counts(Options{Home: &ch, Workers: 1}, cache)
	lf.take()
	measure(func() { Counts(Options{Home: &ch, Workers: 1}, cache) })
	if dirs, opens := lf.listed(); len(dirs) > 0 || opens > 0 {
		t.Fatalf("the warm runs listed %v and opened %d pastes: not the case measured", dirs, opens)
	}
}

// TestWarmCountsAllocationsPerPaste: a warm Counts whose write-once
// folders are all trusted allocates next to nothing for each of their
// files (W: 8 631 pastes, 2 626 backups), and builds no second map of
// the entries its cache answers with (it put every entry, some 15 000 on
// W, into a map for the next run's cache, 5.5 MB a warm start, and saved
// it only when one had changed: 882 bytes a paste; 610 without): at most
// one allocation and 750 bytes a trusted paste (its listing's unit, its
// result, the map the cache file is read into).
func TestWarmCountsAllocationsPerPaste(t *testing.T) {
	sa, sb := warmCost(t, 200)
	ba, bb := warmCost(t, 2200)
	pa, pb := (ba-sa)/2000, (bb-sb)/2000
	t.Logf("warm Counts: %.0f allocations, %.0f bytes with 200 more pastes; %.0f, %.0f with 2 200: %.2f allocations, %.0f bytes a paste", sa, sb, ba, bb, pa, pb)
	if pa > 1 {
		t.Errorf("a warm Counts allocates %.2f times a trusted paste, want at most 1", pa)
	}
	if pb > 750 {
		t.Errorf("a warm Counts allocates %.0f bytes a trusted paste, want at most 750", pb)
	}
}

// TestCountedEntryHeldInPlace: a counts entry is at most 128 bytes, so
// the maps of them (the kept counts, the next run's) hold each in place,
// with no allocation an entry put (it was 152 bytes: one allocation for
// each of W's some 15 000 files, every run).
func TestCountedEntryHeldInPlace(t *testing.T) {
	if n := unsafe.Sizeof(diskcache.Entry[counted]{}); n > 128 {
		t.Fatalf("a counts entry is %d bytes, want at most 128", n)
	}
}

// TestWarmCountsBench times a warm Counts on the planted home with
// 15 000 more pastes (W's size), every folder trusted, and logs its time
// and allocations a run (testing.Benchmark); it asserts nothing: a
// figure for scripts/secrets-warm-bench.sh (MEMSCOPE_LONG=1).
func TestWarmCountsBench(t *testing.T) {
	if !testenv.Long() {
		t.Skip("a measurement: MEMSCOPE_LONG=1 (scripts/secrets-warm-bench.sh)")
	}
	warmCounts(t, 15000, func(run func()) {
		r := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				run()
			}
		})
		t.Logf("warm Counts, 15 000 pastes: %v %v", r, r.MemString())
	})
}
