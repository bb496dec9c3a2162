package testenv

import (
	"runtime"
	"testing"
)

var sink []byte

// TestPeakHeapGarbageDoesNotScaleWithTheLiveHeap: with 48 MB kept alive
// by "earlier tests", a function that only makes garbage (1 MiB at a
// time, 300 MiB in all) grows the heap by well under the live heap (the
// collector is concurrent: allocation goes on while it marks, so more
// than garbageRoom; up to 20 MB seen); at the default target it was
// counted up to the 48 MB the live heap allowed (76 MB seen). What fn
// keeps is still counted in full.
func TestPeakHeapGarbageDoesNotScaleWithTheLiveHeap(t *testing.T) {
	ballast := make([][]byte, 48)
	for i := range ballast {
		ballast[i] = make([]byte, 1<<20)
		ballast[i][0] = 1
	}
	garbage := PeakHeap(func() {
		for range 300 {
			sink = make([]byte, 1<<20)
			sink[0] = 1
		}
		sink = nil
	})
	t.Logf("garbage only: the heap grew %.1f MB", float64(garbage)/(1<<20))
	if garbage > 32<<20 {
		t.Errorf("garbage only: the heap grew %.1f MB over a 48 MB live heap, want at most 32", float64(garbage)/(1<<20))
	}
	var kept [][]byte
	held := PeakHeap(func() {
		for range 24 {
			b := make([]byte, 1<<20)
			b[0] = 1
			kept = append(kept, b)
		}
	})
	if held < 24<<20 {
		t.Errorf("24 MB kept: the heap grew %.1f MB, want at least 24", float64(held)/(1<<20))
	}
	runtime.KeepAlive(ballast)
	runtime.KeepAlive(kept)
}

func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{{0, 100}, {garbageRoom, 100}, {2 * garbageRoom, 50}, {10 * garbageRoom, 10}, {100 * garbageRoom, 10}} {
		if got := gcPercentFor(c.live); got != c.want {
			t.Errorf("gcPercentFor(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}
