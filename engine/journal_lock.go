package engine

import (
	"os"
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
	if _, ok := s.fsys.(dirFS); !ok || s.dir == "" {
		return func() {}
	}
	p := filepath.Join(s.dir, filepath.FromSlash(JournalLockPath))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return func() {}
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return func() {}
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		unlockFile(f)
		f.Close()
	}
}
