package secrets

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// A scrub of every planted secret (eight files) and its restore meet a
// fault at every step (create, write, fsync, close, chtimes, rename, …;
// ENOSPC, EACCES, EROFS in turn). After a failed scrub every file is as
// it was, with its mtime, and no copy or temporary file is left; after a
// failed restore every file is as the scrub left it and the copy is kept.
// The error names the errno and the path that failed; once the fault is
// gone, the same operation goes through. By default each step fails at
// its first or last call (testenv.Calls), and the cells are shared
// between this path and the leased one (inHalf); MEMSCOPE_LONG=1 runs
// every call on both.
func TestScrubFaults(t *testing.T) {
	t.Parallel()
	scrubFaults(t, 0, func(f *faultfs.FS) model.WriteFS { return f })
}

// TestScrubFaults on the leased path production takes on Linux
// (store.ReplaceGrowing with the OS's exchange): the same promises.
func TestScrubFaultsLeasedPath(t *testing.T) {
	t.Parallel()
	scrubFaults(t, 1, func(f *faultfs.FS) model.WriteFS { return store.WithOSExchange(f) })
}

// inHalf reports whether the i-th cell of the matrix runs by default on
// the path numbered half (0 plain, 1 leased): cells go to the two paths
// in pairs, so each path meets failures at the first call and at the
// last (testenv.Calls alternates them from one step to the next), in
// the scrub and in the restore.
func inHalf(i, half int) bool { return testenv.Long() || (i/2)%2 == half }

func scrubFaults(t *testing.T, half int, wrap func(*faultfs.FS) model.WriteFS) {
	// The calls a scrub and its restore make without a fault.
	count := &faultfs.FS{Base: faultfs.NoSync{}}
	_, h := plantedHome(t)
	p := PlanScrub(Options{Home: h}, Scan(Options{Home: h}), nil, BusyOptions{Now: now})
	res, err := Apply(ApplyOptions{Home: h, Write: wrap(count), Busy: BusyOptions{Now: now}, Now: now}, p)
	if err != nil {
		t.Fatal(err)
	}
	applyCalls := faultfs.CallsOf(count)
	if _, err := Restore(ApplyOptions{Home: h, Write: wrap(count), Now: now}, res.ID); err != nil {
		t.Fatal(err)
	}
	for i, c := range faultfs.Matrix("scrub", "restore", applyCalls, count, testenv.Calls) {
		if !inHalf(i, half) {
			continue
		}
		restore, step, k, errno := c.Second, c.Step, c.Nth, c.Err
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			_, h := plantedHome(t)
			original := snapshot(t, h.Dir)
			o := Options{Home: h}
			p := PlanScrub(o, Scan(o), nil, BusyOptions{Now: now})
			f := &faultfs.FS{Base: faultfs.NoSync{}, Step: step, Nth: k, Err: errno}
			ao := ApplyOptions{Home: h, Write: wrap(f), Busy: BusyOptions{Now: now}, Now: now}
			var err error
			var id string
			var want map[string]fileState
			if restore {
				res, aerr := Apply(ApplyOptions{Home: h, Write: faultfs.NoSync{}, Busy: BusyOptions{Now: now}, Now: now}, p)
				if aerr != nil {
					t.Fatal(aerr)
				}
				id, want = res.ID, snapshot(t, h.Dir)
				_, err = Restore(ao, id)
			} else {
				want = original
				_, err = Apply(ao, p)
			}
			if step == faultfs.StepSyncDir || step == faultfs.StepRemove && err == nil {
				// A folder fsync that fails does not undo a rename
				// that happened; a remove is made only on the
				// failure paths.
				if err != nil {
					t.Fatalf("a failed folder fsync failed the operation: %v", err)
				}
				return
			}
			if !errors.Is(err, errno) {
				t.Fatalf("err = %v, want %v", err, errno)
			}
			if hits := f.Hits(); len(hits) == 0 || !strings.Contains(err.Error(), filepath.Base(hits[0])) && !strings.Contains(err.Error(), hits[0]) {
				t.Errorf("error %q does not name the path that failed (%q)", err, hits)
			}
			sameState(t, "after the failure", snapshot(t, h.Dir), want)
			if left := enginetest.Leftovers(t, h.Dir); len(left) > 0 {
				t.Errorf("left behind: %q", left)
			}
			cs, _ := Copies(h)
			if restore && (len(cs) != 1 || cs[0].ID != id) {
				t.Errorf("a failed restore lost the copy: %+v", cs)
			}
			if !restore && len(cs) != 0 {
				t.Errorf("a failed scrub left a copy: %+v", cs)
			}
			f.Heal()
			if restore {
				if _, err := Restore(ao, id); err != nil {
					t.Fatalf("retry: %v", err)
				}
				sameState(t, "after the retried restore", snapshot(t, h.Dir), original)
				return
			}
			if _, err := Apply(ao, p); err != nil {
				t.Fatalf("retry: %v", err)
			}
			if left := Scan(Options{Home: h}); len(left.Findings) != 0 {
				t.Errorf("after the retried scrub: %d findings", len(left.Findings))
			}
		})
	}
}
