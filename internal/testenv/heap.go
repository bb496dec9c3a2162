package testenv

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// PeakHeap runs fn while sampling the heap and returns the most it grew
// over what was in use before: a bound on a reader's memory that a test
// can assert without timing anything. The collector runs at its default
// target meanwhile, as in the app, whatever the test package set (a
// package may raise GOGC for its other tests' speed).
//
// What grows includes garbage not yet collected, and the collector lets
// garbage reach the live heap's size before it runs: in a test binary
// whose earlier tests keep tens of MB alive (shared fixtures), fn's
// garbage allowance was those tens of MB, and a bound that holds when
// the test runs alone failed in its package. So the target is lowered
// while fn runs, in proportion, to give fn the allowance it has when
// little else is alive (garbageRoom).
func PeakHeap(fn func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	defer debug.SetGCPercent(debug.SetGCPercent(gcPercentFor(ms.HeapAlloc)))
	base := ms.HeapInuse
	var peak atomic.Uint64
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			var s runtime.MemStats
			runtime.ReadMemStats(&s)
			if s.HeapInuse > peak.Load() {
				peak.Store(s.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	// What fn keeps at its end is in the peak however the ticks fell.
	var end runtime.MemStats
	runtime.ReadMemStats(&end)
	if end.HeapInuse > peak.Load() {
		peak.Store(end.HeapInuse)
	}
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// garbageRoom is the garbage PeakHeap's fn may leave before the
// collector runs, about what the default target allows a test run alone.
const garbageRoom = 4 << 20

// gcPercentFor is the collector's target that lets garbageRoom of
// garbage pile up over a live heap of live bytes: the default (100)
// while the live heap is at most garbageRoom, lower above it (at least
// 10, so a huge live heap is not collected without pause).
func gcPercentFor(live uint64) int {
	if live <= garbageRoom {
		return 100
	}
	return max(10, int(100*garbageRoom/live))
}

// RaiseGC sets the collector's target to percent for a test package
// that makes much short-lived garbage (TestMain), unless the environment
// sets GOGC. Heap bounds are still measured at the default (PeakHeap).
func RaiseGC(percent int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
	}
}

// RaisedGCPercent is the collector's target MainRaisedGC sets.
const RaisedGCPercent = 400

// MainRaisedGC is the TestMain of a test package that makes much
// short-lived garbage (temporary homes, fixtures, fault cells): its tests
// run with the collector at RaisedGCPercent (RaiseGC), so it runs a
// quarter as often; heap bounds are still measured at the default
// (PeakHeap), and allocation counts do not depend on it. Its temporary
// folders are Main's.
func MainRaisedGC(m *testing.M) {
	RaiseGC(RaisedGCPercent)
	Main(m)
}
