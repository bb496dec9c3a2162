package store

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/model"
)

// Undo reverts the newest journaled change: every file it touched gets
// back the bytes (and existence) it had before, then the entry leaves the
// journal. It refuses with a ConflictError, writing nothing, when a file
// is neither as the change left it nor as it was before (someone changed
// it since). A file already back as it was is left alone, so an undo
// interrupted halfway can simply be run again. Nothing is scanned: undo
// puts back bytes that were on disk before.
func (s *Store) Undo() (Change, error) {
	defer s.lockJournal().Release(true)
	j, e, ch, targets, phantoms, err := s.planUndo()
	if errors.Is(err, ErrNothingToUndo) && phantoms > 0 {
		// Only entries of changes that never landed were left: drop
		// them (best effort: they are not listed either way).
		_ = s.writeJournal(j)
	}
	if err != nil {
		return ch, err
	}
	if len(targets) > 0 {
		if err := applyTargets(s.fsys, targets, "undo of "+e.ID); err != nil {
			s.Reload()
			return ch, model.AsReadOnly(s.dir, err)
		}
		removeEmptiedFolders(s.fsys, targets)
	}
	j.Drop(e.ID)
	if err := s.writeJournal(j); err != nil {
		s.Reload()
		if len(targets) > 0 {
			// The files are back; the entry left in the journal now
			// matches them as they were before, so it is no longer
			// listed or undone (see landed).
			return ch, fmt.Errorf("%w (the files of %s are restored; its entry stays in the journal but is no longer listed or undone)", err, e.ID)
		}
		return ch, err
	}
	s.Reload()
	return ch, nil
}

// UndoPreview says what Undo would do now, without doing it: the change
// it reverts with the diff, or the error that would stop it.
func (s *Store) UndoPreview() (Change, error) {
	_, _, ch, _, _, err := s.planUndo()
	return ch, err
}

// planUndo takes the newest journal entry whose change landed, checks
// every file of it against the disk and returns the targets that put
// back the bytes from before it. The journal it returns has the entries
// of changes that never landed dropped; phantoms counts them.
func (s *Store) planUndo() (j *journal.Journal, e journal.Entry, ch Change, targets []fileTarget, phantoms int, err error) {
	j, _, err = s.readJournal()
	if err != nil {
		return j, e, ch, nil, 0, err
	}
	// Entries of changes that never landed are skipped (and dropped with
	// the one undone): undo reverts the newest change that landed.
	kept, phantom, _ := s.landedEntries(j)
	for _, p := range phantom {
		j.Drop(p.ID)
	}
	phantoms = len(phantom)
	if len(kept) == 0 {
		return j, e, ch, nil, phantoms, ErrNothingToUndo
	}
	e = kept[len(kept)-1]
	ch = Change{ID: e.ID, Op: e.Op, Summary: "undo: " + e.Summary}
	w := s.newWorkset()
	for _, f := range e.Files {
		data, exists, info, err := readStoreFile(s.fsys, f.Path)
		if err != nil {
			return j, e, ch, nil, phantoms, err
		}
		now := StampOf(data, exists, info)
		atBefore := exists == f.Existed && (!exists || bytes.Equal(data, f.Before))
		atAfter := exists == (f.After != "") && (!exists || now.SHA256 == f.After)
		if atBefore {
			continue
		}
		if !atAfter {
			left := FileStamp{Exists: f.After != "", SHA256: f.After}
			return j, e, ch, nil, phantoms, &ConflictError{Path: f.Path, Read: left, Now: now, During: "undo of " + e.ID}
		}
		perm := f.Mode.Perm()
		if perm == 0 {
			perm = defaultFilePerm
		}
		prevPerm := perm
		if info != nil {
			prevPerm = info.Mode().Perm()
		}
		w.files[f.Path] = &wfile{base: data, baseExists: exists, baseStamp: now, perm: perm, data: f.Before, exists: f.Existed, modTime: f.ModTime}
		w.order = append(w.order, f.Path)
		// The file gets back its bytes, mode and (when the entry kept it)
		// mtime: a restored memory is as old as it was.
		targets = append(targets, fileTarget{rel: f.Path, data: f.Before, exists: f.Existed, perm: perm, modTime: f.ModTime, prev: data, prevExists: exists, prevPerm: prevPerm, prevStamp: now})
	}
	rels := w.changed()
	ch.Files, ch.Diff = w.changedFiles(rels), w.diff(rels)
	return j, e, ch, targets, phantoms, nil
}
