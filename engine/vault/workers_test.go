package vault

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// A sync's early files (the projects', synced while the rest of the home
// is listed) and the rest share one worker for each CPU: a worker's
// cutter, its read buffer of cutBuf bytes, goes from the early files to
// the rest. Before, each of the two made its own workers, as many cutters
// (and frames being filled) as twice the CPUs. On one CPU: one cutter's
// buffer (before: two).
func TestSyncWorkersAreSharedByEarlyAndRest(t *testing.T) {
	old := runtime.GOMAXPROCS(1)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
	var made atomic.Int32
	cutBufHook = func() { made.Add(1) }
	t.Cleanup(func() { cutBufHook = nil })
	home := testHome(t, 64)
	v := openVault(t, nil)
	rep := syncHome(t, v, home, t0)
	if rep.New < 10 {
		t.Fatalf("%d files new: the home's projects and the rest of it were not both synced", rep.New)
	}
	if n := made.Load(); n != 1 {
		t.Errorf("%d cutter buffers made on 1 CPU (want 1: early and rest share the workers)", n)
	}
	if vr, err := v.Verify(); err != nil || len(vr.Problems) > 0 {
		t.Fatalf("verify: %v %v", vr.Problems, err)
	}
}
