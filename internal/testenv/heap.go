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
func PeakHeap(fn func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
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
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
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
