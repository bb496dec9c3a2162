package store

import (
	"errors"
	"time"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/model"
)

// OpenHome returns the document store of the Claude home homeDir itself:
// its journal is the one `memscope undo` and the app's undo read for the
// home's own files (settings.json, the user's CLAUDE.md) and for files a
// caller creates in the home (a session put back from the rescue vault,
// JournalCreated).
func OpenHome(homeDir string, writes model.WriteFS) *Store {
	return openDocumentFolder(homeDir, homeDir, writes)
}

// JournalCreated journals the creation of files in s's folder that the
// caller writes itself (a restore from the rescue vault writes each file
// as it rebuilds it): each File names a path relative to the folder and
// the SHA-256 of the bytes it will hold (After), Existed false. Call it
// before the first file is written: a restore cut short leaves an entry
// whose unwritten files are as before (undo skips them) and whose
// written ones undo removes, each only while it still holds those bytes.
// It returns the entry's id.
func (s *Store) JournalCreated(op journal.OpKind, summary string, files []journal.File, now time.Time) (string, error) {
	if now.IsZero() {
		return "", errors.New("journal refused: the time is not set")
	}
	for _, f := range files {
		if f.Existed || f.After == "" {
			return "", errors.New("journal refused: " + f.Path + " is not a file the change creates")
		}
	}
	defer s.lockJournal().Release(true)
	j, _, err := s.readJournal()
	if err != nil {
		return "", err
	}
	_, phantom, _ := s.landedEntries(j)
	for _, p := range phantom {
		j.Drop(p.ID)
	}
	e := journal.Entry{ID: j.NewID(now), Time: now.UTC(), Op: op, Summary: summary, Folder: s.dir, Files: files}
	j.Add(e)
	return e.ID, s.writeJournal(j)
}

// Creates is JournalCreated as a hook for a writer that names its files
// itself (vault.RestoreOptions.Journal): each call journals one change
// of kind op at now.
func (s *Store) Creates(op journal.OpKind, now time.Time) func(summary string, files []journal.File) error {
	return func(summary string, files []journal.File) error {
		_, err := s.JournalCreated(op, summary, files, now)
		return err
	}
}
