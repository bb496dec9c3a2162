//go:build unix

package journal

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Busy tells a held lock from a free one without creating anything, and
// Release(true) after a change that left no entry removes what Acquire
// made; a memscope waiting on the removed lock file takes the new one.
func TestLockBusyAndTidy(t *testing.T) {
	root := t.TempDir()
	j := filepath.Join(root, "memory", ".memscope", "journal.jsonl")
	if Busy(j) {
		t.Fatal("Busy without a lock file")
	}
	if _, err := os.Lstat(filepath.Join(root, "memory")); !os.IsNotExist(err) {
		t.Fatalf("Busy created folders: %v", err)
	}
	l := Acquire(j)
	if !Busy(j) {
		t.Fatal("Busy is false while the lock is held")
	}
	// A second memscope waits on the lock file...
	got := make(chan *Lock)
	go func() { got <- Acquire(j) }()
	select {
	case <-got:
		t.Fatal("a second Acquire did not wait")
	case <-time.After(50 * time.Millisecond):
	}
	// ...while the first's change fails (no journal written) and tidies.
	l.Release(true)
	l2 := <-got
	if !Busy(j) {
		t.Fatal("the waiting Acquire holds no lock after the first tidied")
	}
	if l2.f == nil || !sameFile(l2.f, LockOf(j)) {
		t.Fatal("the waiting Acquire holds a lock file that is no longer the journal's")
	}
	l2.Release(true)
	if _, err := os.Lstat(filepath.Join(root, "memory")); !os.IsNotExist(err) {
		t.Fatalf("the folders made for the lock stay after a change that wrote nothing: %v", err)
	}
	// A journal with an entry stays, with its lock and folder.
	l3 := Acquire(j)
	if err := os.WriteFile(j, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l3.Release(true)
	if _, err := os.Stat(j); err != nil {
		t.Fatalf("a journal with content was removed: %v", err)
	}
	if Busy(j) {
		t.Fatal("Busy after release")
	}
}
