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

// LockOf is the lock file of the journal at journal (a path on disk):
// the file beside it named ".lock" instead of ".jsonl".
func LockOf(journal string) string {
	return strings.TrimSuffix(journal, ".jsonl") + ".lock"
}

// Lock is a journal's lock, held.
type Lock struct {
	f       *os.File
	lock    string
	journal string
	// made are the folders Acquire created for the lock, outermost
	// first.
	made []string
}

// LockFile takes the lock of the journal at journal (Acquire) and
// returns the function that releases it.
func LockFile(journal string) func() {
	l := Acquire(journal)
	return func() { l.Release(false) }
}

// Acquire takes the lock of the journal at journal (a path on disk; the
// lock is LockOf(journal)), waiting for another memscope that holds it.
// Every journal's read-extend-rewrite runs under it: the memory undo
// journal's and each session's file-restore journal's. A folder that is
// a link, a lock file that cannot be created (read-only: the change
// fails on its own, with a clear error), or a platform without file
// locks goes on unlocked (the returned Lock then holds nothing).
func Acquire(journal string) *Lock {
	l := &Lock{lock: LockOf(journal), journal: journal}
	dir := filepath.Dir(journal)
	for range 8 {
		if l.made == nil {
			l.made = absentChain(dir)
		}
		if err := os.MkdirAll(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			// Some of the folders may have been made: Release(true)
			// removes them.
			return l
		}
		// Made now or by another process meanwhile: it must be a folder,
		// not a link.
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			return l
		}
		f, err := openLockFile(l.lock)
		if err != nil {
			return l
		}
		if err := lockFile(f); err != nil {
			f.Close()
			return l
		}
		// Another memscope may have removed the lock file (Release with
		// tidy) while this one waited on it: the lock is then on a file
		// no one else will open, so take the one the name holds now (and
		// the folders this one makes again are its own to tidy).
		if sameFile(f, l.lock) {
			l.f = f
			return l
		}
		unlockFile(f)
		f.Close()
		l.made = nil
	}
	return l
}

// sameFile reports whether the open f is the file at name.
func sameFile(f *os.File, name string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(name)
	return err == nil && os.SameFile(a, b)
}

// Release lets the lock go. With tidy, when the journal holds no entry
// (it is absent or empty: the change that took the lock first failed),
// the empty journal, the lock file and the folders Acquire made for
// them are removed too, so a failed first change leaves no folder
// behind. A folder something else was written into stays.
func (l *Lock) Release(tidy bool) {
	if l == nil {
		return
	}
	// All of it while the lock is held: a memscope waiting on it then
	// finds the name gone and makes its own (Acquire).
	switch {
	case tidy && l.f != nil:
		if st, err := os.Lstat(l.journal); errors.Is(err, fs.ErrNotExist) || err == nil && st.Mode().IsRegular() && st.Size() == 0 {
			os.Remove(l.journal)
			os.Remove(l.lock)
		}
		l.removeFolders()
	case tidy:
		// The lock could not be taken (no room for its file, say): the
		// folders made for it go if they are still empty.
		for i := len(l.made) - 1; i >= 0; i-- {
			if err := os.Remove(l.made[i]); err != nil && !errors.Is(err, fs.ErrNotExist) {
				break
			}
		}
	}
	if l.f != nil {
		unlockFile(l.f)
		l.f.Close()
		l.f = nil
	}
}

// removeFolders removes the journal's own folder when it is empty,
// whoever made it, and the folders above it only when this lock made
// them (and they are empty).
func (l *Lock) removeFolders() {
	dir := filepath.Dir(l.journal)
	if os.Remove(dir) != nil {
		return
	}
	for i := len(l.made) - 1; i >= 0; i-- {
		if l.made[i] == dir {
			continue
		}
		if os.Remove(l.made[i]) != nil {
			return
		}
	}
}

// absentChain lists dir and its parents that do not exist, outermost
// first.
func absentChain(dir string) []string {
	var chain []string
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		chain = append([]string{d}, chain...)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return chain
}

// Busy reports whether a memscope holds the lock of the journal at
// journal now (a change is under way). It creates nothing: no lock file
// means no one holds it. Where locks cannot be taken it says true, so a
// caller never takes a running change's copies for leftovers.
func Busy(journal string) bool {
	f, err := openExistingLockFile(LockOf(journal))
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	defer f.Close()
	held, err := tryLockFile(f)
	if err != nil {
		return true
	}
	if held {
		unlockFile(f)
		return false
	}
	return true
}
