package model_test

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/model"
)

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// writeCase is one way of writing path with the atomic writer.
type writeCase struct {
	name   string
	exists bool // path holds old before the write
	create bool // CreateFileAtomicWith (with an mtime), not WriteFileAtomicWith
}

// run writes data to path through w as the case says.
func (c writeCase) run(w model.WriteFS, path string, data []byte) error {
	if c.create {
		return model.CreateFileAtomicWith(w, path, 0o600, createdAt, func(out io.Writer) error {
			_, err := out.Write(data)
			return err
		})
	}
	return model.WriteFileAtomicWith(w, path, data, 0o600)
}

// createdAt is the mtime CreateFileAtomicWith gives in these tests.
var createdAt = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

// Every step of the atomic writer fails in turn, for a new file, an
// existing one, and a file created with an mtime: the error names the
// file and the errno, the file is as it was, no temporary file is left,
// and a retry succeeds. A failed fsync of the folder comes after the
// rename, so the write counts as done. A step the writer does not take
// (remove on success; chtimes without an mtime) must not be called.
func TestWriteFileAtomicFaults(t *testing.T) {
	t.Parallel()
	old := []byte("old content\n")
	data := bytes.Repeat([]byte("new content\n"), 1000)
	cases := []writeCase{{name: "new"}, {name: "existing", exists: true}, {name: "create", create: true}}
	for _, c := range cases {
		for _, step := range faultfs.Steps {
			for _, errno := range faultfs.Errnos {
				t.Run(c.name+"/"+step.String()+"/"+errno.Error(), func(t *testing.T) {
					dir := t.TempDir()
					path := filepath.Join(dir, "sub", "MEMORY.md")
					if c.exists {
						if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
							t.Fatal(err)
						}
						if err := os.WriteFile(path, old, 0o640); err != nil {
							t.Fatal(err)
						}
					}
					f := &faultfs.FS{Step: step, Err: errno}
					err := c.run(f, path, data)
					hit := len(f.Hits()) > 0
					switch {
					case !hit:
						if step != faultfs.StepRemove && (step != faultfs.StepChtimes || c.create) {
							t.Fatalf("step %s was never called", step)
						}
						if err != nil {
							t.Fatal(err)
						}
					case step == faultfs.StepRemove || step == faultfs.StepChtimes && !c.create:
						t.Fatalf("the writer called %s (%q)", step, f.Hits())
					case step == faultfs.StepSyncDir:
						if err != nil {
							t.Fatalf("a failed folder fsync after the rename: %v", err)
						}
					default:
						if !errors.Is(err, errno) {
							t.Fatalf("err = %v, want %v", err, errno)
						}
						if !strings.Contains(err.Error(), path) {
							t.Errorf("error %q does not name %s", err, path)
						}
						got, rerr := os.ReadFile(path)
						switch {
						case c.exists && !bytes.Equal(got, old):
							t.Errorf("the file changed: %q", got)
						case !c.exists && !errors.Is(rerr, os.ErrNotExist):
							t.Errorf("a file appeared: %v", rerr)
						}
						f.Heal()
						if err := c.run(f, path, data); err != nil {
							t.Fatalf("retry: %v", err)
						}
					}
					if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
						t.Errorf("after the write the file holds %d bytes, want %d", len(got), len(data))
					}
					// A temporary file left by the failure would still be here.
					if names := dirNames(t, filepath.Dir(path)); len(names) != 1 || names[0] != "MEMORY.md" {
						t.Errorf("folder holds %q, want only MEMORY.md", names)
					}
					st, _ := os.Stat(path)
					if want := map[bool]os.FileMode{false: 0o600, true: 0o640}[c.exists]; st.Mode().Perm() != want {
						t.Errorf("mode %v, want %v", st.Mode().Perm(), want)
					}
					if c.create && !st.ModTime().Equal(createdAt) {
						t.Errorf("mtime %v, want %v", st.ModTime(), createdAt)
					}
				})
			}
		}
	}
}

// CreateFileAtomic never replaces a file: not one that is there before
// (nothing is written), and not one that appears while the content is
// written (the temporary file is removed, the other file stays as it is).
func TestCreateFileAtomicNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.tar.gz")
	if err := os.WriteFile(path, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	called := false
	err := model.CreateFileAtomic(path, 0o600, time.Time{}, func(io.Writer) error { called = true; return nil })
	if !errors.Is(err, fs.ErrExist) || called || !strings.Contains(err.Error(), path) {
		t.Fatalf("existing file: err = %v, write called %v", err, called)
	}

	late := filepath.Join(dir, "late.md")
	err = model.CreateFileAtomic(late, 0o600, time.Time{}, func(w io.Writer) error {
		if _, err := w.Write([]byte("ours")); err != nil {
			return err
		}
		return os.WriteFile(late, []byte("theirs"), 0o600)
	})
	if !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), late) {
		t.Fatalf("file that appeared: err = %v", err)
	}
	if got, _ := os.ReadFile(late); string(got) != "theirs" {
		t.Errorf("the file that appeared became %q", got)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"a.tar.gz", "late.md"}) {
		t.Errorf("folder holds %q", names)
	}
	if got, _ := os.ReadFile(path); string(got) != "precious" {
		t.Errorf("the existing file became %q", got)
	}
}

// When the temporary file cannot be removed either, the error says so.
func TestWriteFileAtomicReportsLeftoverTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.md")
	f := &faultfs.FS{Base: &faultfs.FS{Step: faultfs.StepRemove, Err: syscall.EIO}, Step: faultfs.StepWrite, Err: syscall.ENOSPC}
	err := model.WriteFileAtomicWith(f, path, []byte("data"), 0o600)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "temporary file could not be removed") {
		t.Fatalf("err = %v", err)
	}
	if names := dirNames(t, dir); len(names) != 1 || !strings.HasPrefix(names[0], ".x.md.memscope-") {
		t.Errorf("folder holds %q, want the reported temporary file", names)
	}
}

// A real folder without write permission fails with EACCES and leaves
// nothing behind. Root writes anyway, so it is skipped there; the
// injected EACCES above covers the same path.
func TestWriteFileAtomicReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: permission bits do not stop writes (covered by internal/faultfs)")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "x.md")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	err := model.WriteFileAtomic(path, []byte("new"), 0o600)
	if !errors.Is(err, syscall.EACCES) || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("file = %q", got)
	}
}
