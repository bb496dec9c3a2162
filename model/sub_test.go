//go:build unix

package model_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/model"
)

// Sub of a DirFS keeps OpenRegular: a regular file reads, a named pipe is
// refused without blocking, a missing file is not found, each error named
// as fs.Sub names it; the view passes fstest. Over a file system without
// OpenRegular it is fs.Sub's plain view.
func TestSubKeepsOpenRegular(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a", "memory")
	os.MkdirAll(filepath.Join(dir, "deep"), 0o755)
	os.WriteFile(filepath.Join(dir, "note.md"), []byte("hello\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "deep", "x.md"), []byte("x\n"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	sub, err := model.Sub(model.DirFS(root), "a/memory")
	if err != nil {
		t.Fatal(err)
	}
	ro, ok := sub.(model.RegularOpener)
	if !ok {
		t.Fatalf("Sub of a DirFS is a %T, without OpenRegular", sub)
	}
	f, err := ro.OpenRegular("note.md")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(f)
	f.Close()
	if string(data) != "hello\n" {
		t.Errorf("note.md read %q", data)
	}
	var pe *fs.PathError
	if _, err := ro.OpenRegular("pipe.md"); !model.IsNotRegular(err) || !errors.As(err, &pe) || pe.Path != "pipe.md" {
		t.Errorf("the pipe: %v", err)
	}
	if _, err := ro.OpenRegular("gone.md"); !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Path != "gone.md" {
		t.Errorf("a missing file: %v", err)
	}
	if _, err := ro.OpenRegular("../x"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("a name out of the folder: %v", err)
	}
	if got, err := model.ReadFileBounded(sub, "deep/x.md", 10); err != nil || string(got) != "x\n" {
		t.Errorf("deep/x.md: %q %v", got, err)
	}
	os.Remove(filepath.Join(dir, "pipe.md"))
	if err := fstest.TestFS(sub, "note.md", "deep/x.md"); err != nil {
		t.Error(err)
	}
	plain, err := model.Sub(fstest.MapFS{"d/f": {Data: []byte("f")}}, "d")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := plain.(model.RegularOpener); ok {
		t.Error("Sub of a MapFS claims OpenRegular")
	}
}
