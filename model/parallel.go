package model

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// ParallelN runs fn(0), …, fn(n-1) on at most workers goroutines (all
// the processors when workers is 0 or less) and returns when every call
// has; each fn writes only its own part of what it fills.
func ParallelN(n, workers int, fn func(int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// walkWorkers is how many goroutines walk a home's folders: more than
// the processors, as a walk waits on the disk when the folders are not
// in the cache.
const walkWorkers = 4

// Parallel is ParallelN for walking a home's folders.
func Parallel(n int, fn func(int)) { ParallelN(n, max(walkWorkers, runtime.GOMAXPROCS(0)), fn) }
