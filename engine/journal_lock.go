package engine

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// JournalLockPath is the lock file, relative to the memory folder, that
// two memscope processes (the TUI and a CLI command, say) take around a
// change: the journal is read, extended and rewritten whole, so without
// the lock one process could drop the other's entry and with it the
// means to undo that change.
const JournalLockPath = ".memscope/journal.lock"

// lockJournal takes the folder's journal lock, waiting for another
// memscope that holds it. It returns the function that releases it. A
// store that is not a folder on disk, a folder where the lock file cannot
// be created (read-only: the change fails on its own, with a clear
// error), or a platform without file locks goes on unlocked.
func (s *MemoryStore) lockJournal() func() {
	noop := func() {}
	if _, ok := s.fsys.(dirFS); !ok || s.dir == "" {
		return noop
	}
	// Writes never go through a symbolic link (the store refuses them
	// with ErrSymlinkWrite), and neither does the lock: a linked memory
	// folder or a planted .memscope link goes on unlocked and the change
	// is refused on its own.
	if fi, err := os.Lstat(s.dir); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
		return noop
	}
	lockDir := filepath.Join(s.dir, filepath.FromSlash(path.Dir(JournalLockPath)))
	if err := os.Mkdir(lockDir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return noop
	}
	// Made now or by another process meanwhile: it must be a folder, not
	// a link.
	if fi, err := os.Lstat(lockDir); err != nil || !fi.IsDir() {
		return noop
	}
	f, err := openLockFile(filepath.Join(s.dir, filepath.FromSlash(JournalLockPath)))
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
