package store

import (
	"fmt"

	memjournal "github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/model"
)

// readJournal reads the journal (an absent journal is empty).
func (s *Store) readJournal() (*memjournal.Journal, []model.Problem, error) {
	data, _, _, err := readStoreFile(s.jfs, s.jname)
	if err != nil {
		return nil, nil, fmt.Errorf("read the undo journal: %w", err)
	}
	j, probs := memjournal.Parse(memjournal.Path, data)
	return j, probs, nil
}

func (s *Store) writeJournal(j *memjournal.Journal) error {
	if err := s.jfs.WriteFile(s.jname, j.Bytes(), 0o600); err != nil {
		// Every change writes the journal first, so a read-only folder
		// is found here and named as such.
		return model.AsReadOnly(s.dir, fmt.Errorf("write the undo journal: %w", err))
	}
	return nil
}

// Journal returns the journaled changes that landed, oldest first, and
// the journal lines that could not be read; an entry left by a change
// that never landed is not returned but reported (see landed).
func (s *Store) Journal() ([]memjournal.Entry, []model.Problem, error) {
	j, probs, err := s.readJournal()
	if err != nil {
		return nil, nil, err
	}
	kept, _, lprobs := s.landedEntries(j)
	return kept, append(probs, lprobs...), nil
}
