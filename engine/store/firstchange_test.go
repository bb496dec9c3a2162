package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/model"
)

// A first change into a memory folder that does not exist yet (the
// client had not written one) fails at each step of its writes: the
// memory folder, its .memscope/ and every folder the change made are gone
// again, not left empty.
func TestFailedFirstChangeLeavesNoFolder(t *testing.T) {
	t.Parallel()
	for _, step := range []faultfs.Step{faultfs.StepCreateTemp, faultfs.StepWrite, faultfs.StepRename} {
		for _, nth := range []int{1, 2} {
			t.Run(step.String()+"/"+string(rune('0'+nth)), func(t *testing.T) {
				t.Parallel()
				parent := t.TempDir()
				dir := filepath.Join(parent, "projects", "-p", "memory")
				f := &faultfs.FS{Base: faultfs.NoSync{}, Step: step, Nth: nth, Err: syscall.ENOSPC}
				s, _ := Open(dir, DirFSWith(dir, f))
				_, err := s.Create(NewMemory{Name: "First", Type: model.TypeUser, Description: "the first", Body: "one\n"},
					WriteOptions{Now: enginetest.OpsNow})
				if err == nil {
					t.Skipf("call %d of %s is not made by a first create (no fault met)", nth, step)
				}
				if _, serr := os.Lstat(filepath.Join(parent, "projects")); serr == nil {
					var left []string
					filepath.WalkDir(parent, func(p string, d os.DirEntry, err error) error {
						if p != parent {
							left = append(left, p)
						}
						return nil
					})
					t.Fatalf("the failed first change (%v) left %q", err, left)
				}
			})
		}
	}
}

// A change that fails after its write-ahead puts a full journal back as
// it was: adding its entry dropped the oldest one to make room, and that
// entry must not go with a change that never landed (it did before: each
// refused change beside a busy writer cost one undoable change).
func TestFailedChangeKeepsAFullJournal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	enginetest.WriteTree(t, dir, opsFixture())
	s, _ := Open(dir, nil)
	for i := range journal.MaxEntries {
		if _, err := s.SetBody("feedback_terse.md", fmt.Sprintf("version %d\n", i), WriteOptions{Now: enginetest.OpsNow}); err != nil {
			t.Fatalf("change %d: %v", i, err)
		}
	}
	before, _, err := s.Journal()
	if err != nil || len(before) != journal.MaxEntries {
		t.Fatalf("journal after %d changes: %d entries, err %v", journal.MaxEntries, len(before), err)
	}
	// The journal's write is the first rename, the memory file's the second.
	f := &faultfs.FS{Base: faultfs.NoSync{}, Step: faultfs.StepRename, Nth: 2, Err: syscall.ENOSPC}
	fs, _ := Open(dir, DirFSWith(dir, f))
	if _, err := fs.SetBody("feedback_terse.md", "never lands\n", WriteOptions{Now: enginetest.OpsNow}); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("SetBody = %v, want the injected ENOSPC", err)
	}
	after, _, err := s.Journal()
	if err != nil || len(after) != len(before) || after[0].ID != before[0].ID {
		var first string
		if len(after) > 0 {
			first = after[0].ID
		}
		t.Fatalf("journal after a failed change: %d entries from %s (err %v); want the %d it had, from %s", len(after), first, err, len(before), before[0].ID)
	}
}
