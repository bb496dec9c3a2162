package store

import (
	"errors"
	"io/fs"
	"os"

	memjournal "github.com/memscope/memscope/engine/journal"
)

// lockJournal takes the memory folder's journal lock (journal.Acquire);
// Release(true) lets it go and, when the journal holds no entry (a
// failed first change, an undo of the last one), removes the journal's
// folder and the folders the lock made. A store that is not a folder on disk goes on unlocked, and so does a
// memory folder that is a symbolic link: writes never go through one (the
// store refuses them with ErrSymlinkWrite), and neither does the lock.
func (s *Store) lockJournal() *memjournal.Lock {
	if s.jlock == "" {
		return nil
	}
	// A memory folder not there yet is made by the lock (and removed
	// again with it when the first change fails); one that is a link is
	// never written through. A document journal lives in the home.
	if !s.doc {
		if fi, err := os.Lstat(s.dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 || err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	return memjournal.Acquire(s.jlock)
}
