package journal

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LockPath is the lock file, relative to the memory folder, that
// two memscope processes (the TUI and a CLI command, say) take around a
// change: the journal is read, extended and rewritten whole, so without
// the lock one process could drop the other's entry and with it the
// means to undo that change.
const LockPath = ".memscope/journal.lock"

// LockFile takes the lock of the journal at journal (a path on
// disk; the lock is the file beside it named ".lock" instead of
// ".jsonl"), waiting for another memscope that holds it, and returns the
// function that releases it. Every journal's read-extend-rewrite runs
// under it: the memory undo journal's and each session's file-restore
// journal's. A folder that is a link, a lock file that cannot be created
// (read-only: the change fails on its own, with a clear error), or a
// platform without file locks goes on unlocked.
func LockFile(journal string) func() {
	noop := func() {}
	dir := filepath.Dir(journal)
	if err := os.MkdirAll(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return noop
	}
	// Made now or by another process meanwhile: it must be a folder, not
	// a link.
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return noop
	}
	f, err := openLockFile(strings.TrimSuffix(journal, ".jsonl") + ".lock")
	if err != nil {
		return noop
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return noop
	}
	return func() {
		unlockFile(f)
		f.Close()
	}
}
