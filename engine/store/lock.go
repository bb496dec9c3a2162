package store

import (
	"io/fs"
	"os"
	"path/filepath"

	memjournal "github.com/memscope/memscope/engine/journal"
)

// lockJournal takes the memory folder's journal lock (lockJournalFile).
// A store that is not a folder on disk goes on unlocked, and so does a
// memory folder that is a symbolic link: writes never go through one (the
// store refuses them with ErrSymlinkWrite), and neither does the lock.
func (s *Store) lockJournal() func() {
	if _, ok := s.fsys.(dirFS); !ok || s.dir == "" {
		return func() {}
	}
	if fi, err := os.Lstat(s.dir); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
		return func() {}
	}
	return memjournal.LockFile(filepath.Join(s.dir, filepath.FromSlash(memjournal.Path)))
}
