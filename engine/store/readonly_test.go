package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/model"
)

// In a folder that refuses writes every operation fails with a
// *model.ReadOnlyError naming the folder, changes nothing and journals
// nothing; Writable says so up front. A full disk is not read-only.
func TestReadOnlyFolder(t *testing.T) {
	t.Parallel()
	for _, op := range faultOps() {
		for _, errno := range faultfs.Errnos {
			t.Run(op.name+"/"+errno.Error(), func(t *testing.T) {
				r := newFaultRun(t, op, &faultfs.FS{Step: faultfs.StepCreateTemp, Persist: true, Err: errno})
				readOnly := errno != syscall.ENOSPC
				werr := r.store.Writable()
				_, err := op.op(r.store)
				for _, e := range []error{werr, err} {
					var ro *model.ReadOnlyError
					if errors.As(e, &ro) != readOnly || !errors.Is(e, errno) {
						t.Errorf("err = %v, want read-only %v", e, readOnly)
					}
					if ro != nil && (ro.Dir != r.dir || !strings.Contains(e.Error(), "read-only: memscope cannot write in "+r.dir)) {
						t.Errorf("%v does not name the folder %s", e, r.dir)
					}
				}
				snap := snapshot(t, r.dir)
				if d := enginetest.DiffTrees(r.before, snap); d != "" {
					t.Errorf("files changed in a read-only folder:\n%s", d)
				}
				if ids := journalIDs(t, r.dir); !slices.Equal(ids, r.ids) {
					t.Errorf("journal %q, want %q", ids, r.ids)
				}
				r.f.Heal()
				if err := r.store.Writable(); err != nil {
					t.Errorf("writable again: %v", err)
				}
			})
		}
	}
}

// A real folder without write permission (not as root, where permission
// bits do not stop writes; TestReadOnlyFolder covers that case through
// the injected EACCES).
func TestReadOnlyFolderPermissions(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: chmod 0555 does not stop root's writes")
	}
	s, dir := openFixture(t, opsFixture())
	before := snapshot(t, dir)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	var ro *model.ReadOnlyError
	if err := s.Writable(); !errors.As(err, &ro) {
		t.Errorf("Writable = %v", err)
	}
	if _, err := s.SetBody("user_role.md", "x\n", WriteOptions{Now: enginetest.OpsNow}); !errors.As(err, &ro) || !errors.Is(err, syscall.EACCES) {
		t.Errorf("SetBody = %v", err)
	}
	if d := enginetest.DiffTrees(before, snapshot(t, dir)); d != "" {
		t.Errorf("files changed:\n%s", d)
	}
}

// A memory folder that is a symbolic link is not probed through (the
// probe would write where the link points) and counts as not writable.
func TestWritableRefusesLinkedFolder(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(root, "outside")
	enginetest.WriteTree(t, outside, opsFixture())
	link := filepath.Join(root, "memory")
	if err := os.Symlink(outside, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	f := &faultfs.FS{}
	s, _ := Open(link, DirFSWith(link, f))
	if err := s.Writable(); !errors.Is(err, ErrSymlinkWrite) {
		t.Errorf("Writable = %v, want ErrSymlinkWrite", err)
	}
	if n := f.Calls(faultfs.StepCreateTemp); n != 0 {
		t.Errorf("the probe created %d files through the link", n)
	}
}
