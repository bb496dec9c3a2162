package model

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// faultErrnos are the errnos every write step is made to fail with.
var faultErrnos = []syscall.Errno{syscall.ENOSPC, syscall.EACCES, syscall.EROFS}

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

// Every step of the atomic writer fails in turn, for a new file and for
// an existing one: the error names the file and the errno, the file is as
// it was, no temporary file is left, and a retry succeeds. A failed fsync
// of the folder comes after the rename, so the write counts as done.
func TestWriteFileAtomicFaults(t *testing.T) {
	t.Parallel()
	old := []byte("old content\n")
	data := bytes.Repeat([]byte("new content\n"), 1000)
	for _, exists := range []bool{false, true} {
		for _, step := range FaultSteps {
			for _, errno := range faultErrnos {
				name := step.String() + "/" + errno.Error()
				if exists {
					name = "existing/" + name
				}
				t.Run(name, func(t *testing.T) {
					dir := t.TempDir()
					path := filepath.Join(dir, "sub", "MEMORY.md")
					if exists {
						if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
							t.Fatal(err)
						}
						if err := os.WriteFile(path, old, 0o640); err != nil {
							t.Fatal(err)
						}
					}
					f := &FaultFS{Step: step, Err: errno}
					err := WriteFileAtomicWith(f, path, data, 0o600)
					hit := len(f.Hits()) > 0
					switch {
					case !hit:
						// The writer never makes this call on success.
						if step != StepRemove {
							t.Fatalf("step %s was never called", step)
						}
						if err != nil {
							t.Fatal(err)
						}
					case step == StepSyncDir:
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
						case exists && !bytes.Equal(got, old):
							t.Errorf("the file changed: %q", got)
						case !exists && !errors.Is(rerr, os.ErrNotExist):
							t.Errorf("a file appeared: %v", rerr)
						}
					}
					if hit && err != nil {
						f.Heal()
						if err := WriteFileAtomicWith(f, path, data, 0o600); err != nil {
							t.Fatalf("retry: %v", err)
						}
					}
					if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
						t.Errorf("after the write the file holds %d bytes, want %d", len(got), len(data))
					}
					if names := dirNames(t, filepath.Dir(path)); len(names) != 1 || names[0] != "MEMORY.md" {
						t.Errorf("folder holds %q, want only MEMORY.md", names)
					}
					st, _ := os.Stat(path)
					if want := map[bool]os.FileMode{false: 0o600, true: 0o640}[exists]; st.Mode().Perm() != want {
						t.Errorf("mode %v, want %v", st.Mode().Perm(), want)
					}
				})
			}
		}
	}
}

// When the temporary file cannot be removed either, the error says so.
func TestWriteFileAtomicReportsLeftoverTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.md")
	f := &FaultFS{Base: &FaultFS{Step: StepRemove, Err: syscall.EIO}, Step: StepWrite, Err: syscall.ENOSPC}
	err := WriteFileAtomicWith(f, path, []byte("data"), 0o600)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "temporary file could not be removed") {
		t.Fatalf("err = %v", err)
	}
	if names := dirNames(t, dir); len(names) != 1 || !strings.HasPrefix(names[0], ".x.md.memscope-") {
		t.Errorf("folder holds %q, want the reported temporary file", names)
	}
}

// Persist makes every call from the Nth on fail; Nth counts per step.
func TestFaultFSCounts(t *testing.T) {
	tests := []struct {
		nth     int
		persist bool
		want    []bool // whether calls 1..4 fail
	}{
		{0, false, []bool{true, false, false, false}},
		{2, false, []bool{false, true, false, false}},
		{3, true, []bool{false, false, true, true}},
	}
	for _, tt := range tests {
		f := &FaultFS{Step: StepMkdir, Nth: tt.nth, Persist: tt.persist, Err: syscall.EROFS}
		for i, want := range tt.want {
			err := f.MkdirAll(t.TempDir(), 0o700)
			if (err != nil) != want {
				t.Errorf("nth %d persist %v: call %d err = %v", tt.nth, tt.persist, i+1, err)
			}
			var pe *os.PathError
			if err != nil && (!errors.As(err, &pe) || pe.Op != "mkdir" || !errors.Is(err, syscall.EROFS)) {
				t.Errorf("err %v is not wrapped as os wraps it", err)
			}
		}
		if f.Calls(StepMkdir) != len(tt.want) || f.Calls(StepRename) != 0 {
			t.Errorf("calls = %d", f.Calls(StepMkdir))
		}
	}
}

// A real folder without write permission fails with EACCES and leaves
// nothing behind. Root writes anyway, so it is skipped there; the
// injected EACCES above covers the same path.
func TestWriteFileAtomicReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: permission bits do not stop writes (covered by FaultFS)")
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
	err := WriteFileAtomic(path, []byte("new"), 0o600)
	if !errors.Is(err, syscall.EACCES) || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("file = %q", got)
	}
}
