package testenv

import (
	"path/filepath"
	"testing"
)

// shmFacts reads a folder's file system: a test folder is writable with
// room; a missing one has no facts.
func TestShmFacts(t *testing.T) {
	dir := t.TempDir()
	f := shmFacts(dir)
	if f == nil || !f.Writable || f.Free == 0 {
		t.Errorf("shmFacts(%s) = %+v, want a writable folder with room", dir, f)
	}
	if f := shmFacts(filepath.Join(dir, "missing")); f != nil {
		t.Errorf("a missing folder: %+v, want nil", f)
	}
}
