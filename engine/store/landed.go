package store

import (
	"bytes"
	"fmt"

	memjournal "github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/model"
)

// A change is journaled before its files are written, and the entry is
// dropped again when the write fails. When that drop fails too (a disk
// out of inodes fails the journal's rewrite as it failed the change), an
// entry is left for a change that never landed. Such an entry must never
// be presented as undoable: landed tells the entries whose change can be
// seen, on disk or in the entry that came after it.

// fileState is a file's content, or its absence.
type fileState struct {
	exists bool
	data   []byte
}

// landed reports, for each entry of entries (oldest first), whether its
// change landed: whether some file of it is, after it, not as it was
// before it. "After it" is the file on disk for the newest entry that
// touches the file, and what the next entry touching it found before
// itself otherwise. A file that cannot be read counts as changed, so an
// entry is hidden only when it certainly changed nothing.
func (s *Store) landed(entries []memjournal.Entry) []bool {
	after := map[string]*fileState{}
	out := make([]bool, len(entries))
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		for _, f := range e.Files {
			st, ok := after[f.Path]
			if !ok {
				data, exists, _, err := readStoreFile(s.fsys, f.Path)
				if err != nil {
					out[i] = true
					continue
				}
				st = &fileState{exists: exists, data: data}
			}
			if st.exists != f.Existed || st.exists && !bytes.Equal(st.data, f.Before) {
				out[i] = true
			}
		}
		for _, f := range e.Files {
			after[f.Path] = &fileState{exists: f.Existed, data: f.Before}
		}
	}
	return out
}

// landedEntries splits the journal's entries into those that landed and
// a problem for each that did not.
func (s *Store) landedEntries(j *memjournal.Journal) ([]memjournal.Entry, []memjournal.Entry, []model.Problem) {
	all := j.Entries()
	ok := s.landed(all)
	var kept, phantom []memjournal.Entry
	var probs []model.Problem
	for i, e := range all {
		if ok[i] {
			kept = append(kept, e)
			continue
		}
		phantom = append(phantom, e)
		probs = append(probs, model.Problem{File: memjournal.Path, Kind: model.ProblemMalformed, Reason: fmt.Sprintf(
			"change %s (%s) is not on disk: its files are as they were before it (it never landed, or they were put back), so it is not listed and undo skips it", e.ID, e.Summary)})
	}
	return kept, phantom, probs
}
