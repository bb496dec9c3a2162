package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// ReplaceGrowing keeps what was appended after the base, refuses a file
// whose base changed, and (where leases exist) refuses, writing nothing,
// while another descriptor holds the file open.
func TestReplaceGrowing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "t.jsonl")
	os.WriteFile(p, []byte("a secret\nmore\n"), 0o600)
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("appended\n")
	f.Close()
	mtime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := ReplaceGrowing(nil, p, []byte("a secret\nmore\n"), []byte("a [X]\nmore\n"), 0o600, mtime); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "a [X]\nmore\nappended\n" {
		t.Errorf("got %q", got)
	}
	var ce *ConflictError
	if err := ReplaceGrowing(nil, p, []byte("a secret"), []byte("b"), 0o600, mtime); !errors.As(err, &ce) {
		t.Errorf("a changed base: err = %v, want a conflict", err)
	}
	if !leaseSupported {
		return
	}
	held, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	defer held.Close()
	err := ReplaceGrowing(nil, p, []byte("a [X]\n"), []byte("a\n"), 0o600, mtime)
	if !errors.Is(err, ErrHeldOpen) {
		t.Fatalf("held open: err = %v, want ErrHeldOpen", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "a [X]\nmore\nappended\n" {
		t.Errorf("held open: the file became %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("files left: %v", ents)
	}
}

// A writer whose open of the file is under way when the new version
// takes the name (it waits on the lease, then writes into the old
// version) loses nothing: what it wrote is carried into the new version.
func TestReplaceGrowingCarriesAnOpenUnderWay(t *testing.T) {
	if !leaseSupported {
		t.Skip("no leases on this system: ReplaceGrowing checks at the exchange instead (TestReplaceGrowing)")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "h.jsonl")
	os.WriteFile(p, []byte("a secret\n"), 0o600)
	done := make(chan error, 1)
	leasedHook = func(old *os.File) {
		go func() {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0) // waits on the lease
			if err == nil {
				_, err = f.WriteString("late line\n")
				f.Close()
			}
			done <- err
		}()
		// Until the open has reached the lease: it shows as a break.
		for settled(old) {
		}
	}
	t.Cleanup(func() { leasedHook = nil })
	if err := ReplaceGrowing(nil, p, []byte("a secret\n"), []byte("a [X]\n"), 0o600, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "a [X]\nlate line\n" {
		t.Errorf("got %q, want the late line carried over", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("files left: %v", ents)
	}
}
