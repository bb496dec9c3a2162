package store

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
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
