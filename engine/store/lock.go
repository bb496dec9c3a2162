package store

import (
	"io/fs"
	"os"

	memjournal "github.com/memscope/memscope/engine/journal"
)

// lockJournal takes the memory folder's journal lock (lockJournalFile).
// A store that is not a folder on disk goes on unlocked, and so does a
// memory folder that is a symbolic link: writes never go through one (the
// store refuses them with ErrSymlinkWrite), and neither does the lock.
func (s *Store) lockJournal() func() {
	if s.jlock == "" {
		return func() {}
	}
	if fi, err := os.Lstat(s.dir); !s.doc && (err != nil || fi.Mode()&fs.ModeSymlink != 0) {
		return func() {}
	}
	return memjournal.LockFile(s.jlock)
}
