package faultfs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Persist makes every call from the Nth on fail; Nth counts per step.
func TestCounts(t *testing.T) {
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
		f := &FS{Step: StepMkdir, Nth: tt.nth, Persist: tt.persist, Err: syscall.EROFS}
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

// RenameNoReplace is a call of StepRename and fails as a rename does;
// Chtimes fails as os.Chtimes does; both pass through otherwise.
func TestRenameNoReplaceAndChtimes(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(from, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := &FS{Step: StepRename, Err: syscall.ENOSPC}
	var le *os.LinkError
	if err := f.RenameNoReplace(from, to); !errors.As(err, &le) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("err = %v, want a *os.LinkError with ENOSPC", err)
	}
	if err := f.RenameNoReplace(from, to); err != nil || f.Calls(StepRename) != 2 {
		t.Fatalf("second call: err = %v, %d calls", err, f.Calls(StepRename))
	}
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	f = &FS{Step: StepChtimes, Err: syscall.EROFS}
	var pe *os.PathError
	if err := f.Chtimes(to, at, at); !errors.As(err, &pe) || pe.Op != "chtimes" || pe.Path != to || !errors.Is(err, syscall.EROFS) {
		t.Fatalf("err = %v, want a *os.PathError chtimes %s EROFS", err, to)
	}
	if err := f.Chtimes(to, at, at); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(to); err != nil || !st.ModTime().Equal(at) {
		t.Errorf("mtime %v (%v), want %v", st.ModTime(), err, at)
	}
}
