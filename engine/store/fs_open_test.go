//go:build unix

package store

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/memscope/memscope/model"
)

// A store's folder opens a regular file with one open of its own
// (model.RegularOpener, model.StatFS), not a stat and an open: a store's
// read of a memory folder opened each file twice. The answers are the
// folder's: a file reads, a pipe is refused without blocking, a name
// that is not there is fs.ErrNotExist. Fails on the old code (the
// folder is neither).
func TestDirFSOpensRegularFilesItself(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "-p", "memory")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("alpha"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := DirFSIn(home, dir, nil)
	if _, ok := d.(model.RegularOpener); !ok {
		t.Fatal("the store's folder opens regular files by a stat and an open")
	}
	if _, ok := d.(fs.StatFS); !ok {
		t.Error("the store's folder answers a stat by opening the file")
	}
	f, err := model.OpenRegular(d, "a.md")
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil || string(data) != "alpha" {
		t.Errorf("a.md: %q, %v", data, err)
	}
	if f, err := model.OpenRegular(d, "pipe.md"); err == nil {
		f.Close()
		t.Error("a pipe was opened")
	}
	if _, err := model.OpenRegular(d, "gone.md"); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
	if st, err := fs.Stat(d, "a.md"); err != nil || st.Size() != 5 {
		t.Errorf("stat a.md: %v, %v", st, err)
	}
}
