package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/model"
)

// DocumentsDir is where the undo journals of edits outside memory
// folders live, relative to the Claude home: one folder per edited
// folder (named by a hash of its path), each with a journal.jsonl. The
// client never reads the home's .memscope folder.
const DocumentsDir = ".memscope/documents"

// documentJournal is the journal's name inside its folder.
const documentJournal = "journal.jsonl"

// OpenDocument returns the store of the folder holding path, a file the
// client reads that is not in a memory folder (a CLAUDE.md, a rule):
// Replace on it is a change like every memory edit (scanned, checked
// against what the editor started from, atomic, journaled with the
// file's bytes, mode and mtime) and Undo takes it back. Its journal is
// in the Claude home homeDir (DocumentsDir), not beside the file: memscope
// writes nothing into a project's folders but the file edited. writes is
// the fault seam (the real OS when nil).
func OpenDocument(path, homeDir string, writes model.WriteFS) *Store {
	return openDocumentFolder(filepath.Dir(path), homeDir, writes)
}

func openDocumentFolder(folder, homeDir string, writes model.WriteFS) *Store {
	sum := sha256.Sum256([]byte(folder))
	jdir := filepath.Join(homeDir, filepath.FromSlash(DocumentsDir), hex.EncodeToString(sum[:8]))
	s := &Store{fsys: DirFSWith(folder, writes), dir: folder, doc: true,
		jfs: DirFSWith(jdir, writes), jname: documentJournal, jlock: filepath.Join(jdir, documentJournal)}
	s.Reload()
	return s
}

// OpenDocuments returns the store of every folder with a document
// journal in the home homeDir (each journal names its folder) that keep
// accepts (nil: all), for an undo that takes back the newest change
// wherever it was.
func OpenDocuments(homeDir string, writes model.WriteFS, keep func(folder string) bool) []*Store {
	root := filepath.Join(homeDir, filepath.FromSlash(DocumentsDir))
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []*Store
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		j := &Store{jfs: DirFSWith(filepath.Join(root, e.Name()), writes), jname: documentJournal}
		jn, _, err := j.readJournal()
		if err != nil {
			continue
		}
		if last, ok := jn.Last(); ok && last.Folder != "" && filepath.IsAbs(last.Folder) && (keep == nil || keep(last.Folder)) {
			out = append(out, openDocumentFolder(last.Folder, homeDir, writes))
		}
	}
	return out
}

// UndoNewest undoes the newest change that landed among the stores'
// journals (a memory folder's and the documents'), so changes are taken
// back in the order they were made wherever they were written.
func UndoNewest(stores []*Store) (Change, error) {
	best, _, err := Newest(stores)
	if err != nil {
		return Change{}, err
	}
	return best.Undo()
}

// Newest is the change UndoNewest would undo: the newest journal entry
// that landed among the stores' and the store holding it, or
// ErrNothingToUndo. The app's footer names it ("u undo edit x.md"), even
// for a change an earlier run made.
func Newest(stores []*Store) (*Store, journal.Entry, error) {
	var best *Store
	var newest journal.Entry
	for _, s := range stores {
		if s == nil {
			continue
		}
		es, _, err := s.Journal()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, journal.Entry{}, err
		}
		if len(es) == 0 {
			continue
		}
		if e := es[len(es)-1]; best == nil || e.Time.UnixNano() > newest.Time.UnixNano() {
			best, newest = s, e
		}
	}
	if best == nil {
		return nil, journal.Entry{}, ErrNothingToUndo
	}
	return best, newest, nil
}
