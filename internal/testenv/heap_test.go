package testenv

import (
	"runtime"
	"testing"
)

var sink []byte

// TestPeakHeapGarbageDoesNotScaleWithTheLiveHeap: with 48 MB kept alive
// by "earlier tests", a function that only makes garbage (1 MiB at a
// time, 300 MiB in all) grows the heap by little more than garbageRoom;
// at the default target it was counted up to the 48 MB the live heap
// allowed. What fn keeps is still counted in full.
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
	if garbage > 16<<20 {
		t.Errorf("garbage only: the heap grew %.1f MB over a 48 MB live heap, want at most 16", float64(garbage)/(1<<20))
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
