package testroot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// The root shows the test's own folders and the folders named, and nothing
// else of the machine: not /etc, not the working folder's parents.
func TestRootHidesTheMachine(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := New(t, "testdata-named")
	name := strings.TrimPrefix(filepath.ToSlash(filepath.Join(dir, "CLAUDE.md")), "/")
	if b, err := fs.ReadFile(root, name); err != nil || string(b) != "mine" {
		t.Fatalf("own temp file: %q, %v", b, err)
	}
	for _, hidden := range []string{"etc/passwd", "etc", "tmp/rc/work/beta/CLAUDE.md", "proc/self/status"} {
		if _, err := fs.Stat(root, hidden); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v, want not found", hidden, err)
		}
	}
	// A folder made later in the test is visible too.
	later := t.TempDir()
	if _, err := fs.Stat(root, strings.TrimPrefix(filepath.ToSlash(later), "/")); err != nil {
		t.Errorf("a later temp folder is hidden: %v", err)
	}
}

// Writer writes in the test's folders and refuses, failing the test, a
// write anywhere else.
func TestWriterRefusesOutside(t *testing.T) {
	dir := t.TempDir()
	w := Writer(t)
	if err := model.WriteFileAtomicWith(w, filepath.Join(dir, "a", "f"), []byte("x"), 0o600); err != nil {
		t.Fatalf("a write in the test's folder: %v", err)
	}
	outside := filepath.Join(filepath.Dir(filepath.Dir(dir)), "memscope-testroot-outside")
	ft := &recordingTB{TB: t}
	err := Writer(ft).MkdirAll(outside, 0o700)
	if !errors.Is(err, fs.ErrPermission) || len(ft.errs) != 1 || !strings.Contains(ft.errs[0], outside) {
		t.Errorf("a write outside: %v, test errors %q", err, ft.errs)
	}
	if _, err := os.Stat(outside); err == nil {
		os.Remove(outside)
		t.Errorf("%s was made", outside)
	}
}

// ReadOnly refuses, failing the test, a write in the folders it names
// and passes the others to the writer it wraps.
func TestReadOnlyRefusesItsFolders(t *testing.T) {
	dir := t.TempDir()
	shared := filepath.Join(dir, "shared")
	if err := os.Mkdir(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	ft := &recordingTB{TB: t}
	w := ReadOnly(ft, Writer(t), shared)
	if err := model.WriteFileAtomicWith(w, filepath.Join(dir, "own", "f"), []byte("x"), 0o600); err != nil || len(ft.errs) != 0 {
		t.Fatalf("a write beside the shared folder: %v, test errors %q", err, ft.errs)
	}
	err := model.WriteFileAtomicWith(w, filepath.Join(shared, "f"), []byte("x"), 0o600)
	if !errors.Is(err, fs.ErrPermission) || len(ft.errs) == 0 || !strings.Contains(ft.errs[0], shared) {
		t.Errorf("a write in the shared folder: %v, test errors %q", err, ft.errs)
	}
	if ents, _ := os.ReadDir(shared); len(ents) != 0 {
		t.Errorf("written in the shared folder: %v", ents)
	}
}

// recordingTB records the errors reported instead of failing.
type recordingTB struct {
	testing.TB
	errs []string
}

func (r *recordingTB) Error(args ...any) { r.errs = append(r.errs, fmt.Sprint(args...)) }
