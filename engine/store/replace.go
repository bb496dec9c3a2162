package store

import (
	"fmt"
	"io/fs"

	"github.com/memscope/memscope/engine/journal"
)

// OpEdit is a whole file replaced by what the user wrote: a save from
// $EDITOR.
const OpEdit journal.OpKind = "edit"

// Edits reports whether Replace takes the file at p: MEMORY.md or a
// topic file of the folder, the files the client reads as memory.
func (s *Store) Edits(p string) bool {
	rel, err := s.Rel(p)
	return err == nil && clientReads(rel)
}

// Replace writes data over the file at p (MEMORY.md or a topic file) as
// one change, like every other: scanned (a high-severity finding the new
// content adds blocks it unless o.Force), journaled, atomic, and undone
// by Undo. It is for a file the user edited in $EDITOR on a copy, so it
// is checked against before, what the editor started from (existed
// false: the file must still be absent), not against the store's last
// read; when the file changed meanwhile nothing is written and the error
// is a *ConflictError. The content is written as given: metadata.modified
// is the user's to keep.
func (s *Store) Replace(p string, before []byte, existed bool, data []byte, o WriteOptions) (Change, error) {
	return s.ReplaceAs(OpEdit, "", p, before, existed, data, o)
}

// OpSettings is a client settings file changed by memscope (hooks
// install and uninstall).
const OpSettings journal.OpKind = "settings"

// ReplaceAs is Replace journaled as op with summary ("" for the editor's
// "edit <file> (saved from the editor)"): for a document store, any file
// the client reads, such as a settings.json memscope changes.
func (s *Store) ReplaceAs(op journal.OpKind, summary string, p string, before []byte, existed bool, data []byte, o WriteOptions) (Change, error) {
	rel, err := s.Rel(p)
	if err != nil {
		return Change{}, err
	}
	if summary == "" {
		summary = "edit " + rel + " (saved from the editor)"
	}
	if !s.doc && !clientReads(rel) {
		return Change{}, fmt.Errorf("%s is neither %s nor a memory file of %s", rel, "MEMORY.md", s.dir)
	}
	expect := StampOf(before, existed, nil)
	w := s.newWorkset()
	w.read = func(name string) ([]byte, bool, fs.FileInfo, error) {
		data, exists, info, err := readStoreFile(s.fsys, name)
		if err != nil {
			return nil, false, nil, err
		}
		if now := StampOf(data, exists, info); !now.SameContent(expect) {
			return nil, false, nil, &ConflictError{Path: name, Read: expect, Now: now, During: "save"}
		}
		return data, exists, info, nil
	}
	if err := w.put(rel, data); err != nil {
		return Change{}, err
	}
	return s.commit(op, summary, w, o)
}
