package filehist

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/filehistgen"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// A file-history rewind (four files, one of them deleted) and its undo
// meet a fault at every call of every step. The restore journals first
// and does not roll back: after a failure either nothing changed, or the
// journal holds the restore and undo puts every file back. The error
// names the errno and the path, no temporary file is left, and once the
// fault is gone the rewind goes through. By default each step fails at
// its first or its last call only (testenv.Calls); MEMSCOPE_LONG=1 runs
// every call.
func TestFileRestoreFaults(t *testing.T) {
	t.Parallel()
	rewind := func(t *testing.T) (filehistgen.Layout, *model.Home, *RestorePlan) {
		l, home, s := genFileHistory(t)
		p, err := PlanTurnRestore(home.FS, &s, filehistgen.U1)
		if err != nil {
			t.Fatal(err)
		}
		return l, home, p
	}
	// The calls a rewind and its undo make without a fault.
	count := &faultfs.FS{Base: faultfs.NoSync{}}
	l, home, p := rewind(t)
	before := diskState(t, l)
	if _, err := ApplyRestoreWith(count, home.Dir, home.FS, p, fhT0); err != nil {
		t.Fatal(err)
	}
	want := diskState(t, l)
	applyCalls := faultfs.CallsOf(count)
	if _, err := UndoRestoreWith(count, home.Dir, filehistgen.SessionID); err != nil {
		t.Fatal(err)
	}
	sameState(t, "reference undo", diskState(t, l), before)
	for _, c := range faultfs.Matrix("rewind", "undo", applyCalls, count, testenv.Calls) {
		undo, step, k, errno := c.Second, c.Step, c.Nth, c.Err
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			l, home, p := rewind(t)
			f := &faultfs.FS{Base: faultfs.NoSync{}, Step: step, Nth: k, Err: errno}
			var err error
			if undo {
				if _, err := ApplyRestoreWith(faultfs.NoSync{}, home.Dir, home.FS, p, fhT0); err != nil {
					t.Fatal(err)
				}
				_, err = UndoRestoreWith(f, home.Dir, filehistgen.SessionID)
			} else {
				_, err = ApplyRestoreWith(f, home.Dir, home.FS, p, fhT0)
			}
			if step == faultfs.StepSyncDir {
				if err != nil {
					t.Fatalf("a failed folder fsync failed the restore: %v", err)
				}
			} else {
				if !errors.Is(err, errno) {
					t.Fatalf("err = %v, want %v", err, errno)
				}
				if hits := f.Hits(); len(hits) == 0 || !strings.Contains(err.Error(), hits[0]) {
					t.Errorf("error %q does not name the path that failed (%q)", err, hits)
				}
			}
			if left := enginetest.Leftovers(t, l.Home, filepath.Dir(l.CWD)); len(left) > 0 {
				t.Errorf("left behind: %q", left)
			}
			f.Heal()
			// Whatever the failure left, undo (as often as the
			// journal has entries) brings back the files as they
			// were before the rewind.
			entries, _, jerr := Restores(home.FS, filehistgen.SessionID)
			if jerr != nil {
				t.Fatal(jerr)
			}
			if len(entries) == 0 {
				sameState(t, "after a failure with nothing journaled", diskState(t, l), before)
			}
			for range entries {
				if _, err := UndoRestoreWith(f, home.Dir, filehistgen.SessionID); err != nil {
					t.Fatalf("undo after the failure: %v", err)
				}
			}
			sameState(t, "after undo", diskState(t, l), before)
			if _, err := ApplyRestoreWith(f, home.Dir, home.FS, p, fhT0); err != nil {
				t.Fatalf("retry: %v", err)
			}
			sameState(t, "after the retry", diskState(t, l), want)
		})
	}
}
