package store

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

// TrashDir is the trash folder inside the memory folder. A deleted memory
// goes to .trash/<time>/<its path>, so its place is known for Restore;
// the client skips the folder (its name starts with ".").
const TrashDir = ".trash"

// trashTimeLayout names the folder of one deletion (UTC).
const trashTimeLayout = "20060102-150405.000"

// TrashItem is a memory in the trash.
type TrashItem struct {
	// Path is the file in the trash, relative to the memory folder.
	Path string `json:"path"`
	// Original is where Restore puts it back.
	Original string `json:"original"`
	// Deleted is when it was deleted (zero when the folder name is not a
	// time memscope wrote).
	Deleted     time.Time `json:"deleted,omitzero"`
	Size        int64     `json:"size"`
	Name        string    `json:"name,omitempty"`
	Description string    `json:"description,omitempty"`
}

// trashOriginal is the place a trash path came from.
func trashOriginal(rel string) (string, bool) {
	rest, ok := strings.CutPrefix(rel, TrashDir+"/")
	if !ok {
		return "", false
	}
	_, orig, ok := strings.Cut(rest, "/")
	if !ok || !model.IsMemoryTopicPath(orig) {
		return "", false
	}
	return orig, true
}

// Delete moves the memory at p into the trash and removes the index lines
// linking it, as one change. [[name]] links to it are left: the client
// allows links to missing names, and Restore brings the name back.
func (s *Store) Delete(p string, o WriteOptions) (Change, error) {
	rel, _, err := s.topicFile(p)
	if err != nil {
		return Change{}, err
	}
	w := s.newWorkset()
	to, err := w.trashPath(rel, o.Now)
	if err != nil {
		return Change{}, err
	}
	if err := w.toTrash(rel, to); err != nil {
		return Change{}, err
	}
	return s.commit(OpDelete, fmt.Sprintf("delete %s (to %s)", rel, to), w, o)
}

// DeleteAll moves the memory files paths to the trash in one change, one
// journal entry: one undo puts them all back, however many there are
// (one Delete each would take as many of the journal's MaxEntries, and
// past it the first ones could no longer be undone). Nothing is moved
// when any of them cannot be.
func (s *Store) DeleteAll(paths []string, o WriteOptions) (Change, error) {
	if len(paths) == 1 {
		return s.Delete(paths[0], o)
	}
	w := s.newWorkset()
	var names []string
	for _, p := range paths {
		rel, _, err := s.topicFile(p)
		if err != nil {
			return Change{}, err
		}
		to, err := w.trashPath(rel, o.Now)
		if err != nil {
			return Change{}, err
		}
		if err := w.toTrash(rel, to); err != nil {
			return Change{}, fmt.Errorf("%s: %w", rel, err)
		}
		names = append(names, rel)
	}
	list := strings.Join(names[:min(len(names), 5)], ", ")
	if len(names) > 5 {
		list += fmt.Sprintf(" and %d more", len(names)-5)
	}
	return s.commit(OpDelete, fmt.Sprintf("delete %d memory files to the trash: %s", len(names), list), w, o)
}

// toTrash moves rel to the trash path to and drops its index lines,
// noting them beside it for Restore.
func (w *workset) toTrash(rel, to string) error {
	if err := w.move(rel, to); err != nil {
		return err
	}
	ix, err := w.readIndex()
	if err != nil {
		return err
	}
	if err := w.noteIndexLines(ix, rel, to); err != nil {
		return err
	}
	return w.dropIndexLinks(rel)
}

// dropIndexLinks removes the index lines linking rel.
func (w *workset) dropIndexLinks(rel string) error {
	ix, err := w.readIndex()
	if err != nil {
		return err
	}
	if indexLineLinking(ix, rel) == 0 {
		return nil
	}
	keepEnding(ix, func() {
		kept := ix.Lines[:0]
		for _, l := range ix.Lines {
			if t, ok := memindex.EntryTarget(l.Entry); !ok || t != rel {
				kept = append(kept, l)
			}
		}
		ix.Lines = kept
	})
	return w.putIndex(ix)
}

// trashPath picks a free place for rel in the trash.
func (w *workset) trashPath(rel string, now time.Time) (string, error) {
	stamp := now.UTC().Format(trashTimeLayout)
	for n := 1; n < 100; n++ {
		dir := stamp
		if n > 1 {
			dir += "-" + strconv.Itoa(n)
		}
		to := path.Join(TrashDir, dir, rel)
		_, exists, err := w.get(to)
		if err != nil {
			return "", err
		}
		if !exists {
			return to, nil
		}
	}
	return "", fmt.Errorf("no free place in the trash for %s", rel)
}

// Restore puts a trashed memory back where it was, with its mtime and
// mode and, when no index line links it, its index lines as Delete
// removed them, each at its place (see noteIndexLines); a memory trashed
// without that note gets the line the client's backfill writes, after the
// last entry that loads. It refuses when a file is already there. The
// restored file is scanned like any write.
func (s *Store) Restore(trashPath string, o WriteOptions) (Change, error) {
	rel, err := s.Rel(trashPath)
	if err != nil {
		return Change{}, err
	}
	orig, ok := trashOriginal(rel)
	if !ok {
		return Change{}, fmt.Errorf("%s is not a file in %s/<time>/", rel, TrashDir)
	}
	w := s.newWorkset()
	data, exists, err := w.get(rel)
	if err != nil {
		return Change{}, err
	}
	if !exists {
		return Change{}, fmt.Errorf("%s is not in the trash", rel)
	}
	if err := w.move(rel, orig); err != nil {
		return Change{}, fmt.Errorf("restore %s: %w; move that file away first", orig, err)
	}
	if err := w.restoreIndexLines(rel, orig, data); err != nil {
		return Change{}, err
	}
	return s.commit(OpRestore, fmt.Sprintf("restore %s from %s", orig, rel), w, o)
}

// ListTrash lists the memories in the trash, newest deletion first, and
// a problem for every entry of the trash that is not a regular file or a
// folder (a named pipe, a device, a socket, a symbolic link): it is not
// listed, and never opened, but not skipped silently either.
func (s *Store) ListTrash() ([]TrashItem, []model.Problem, error) {
	var items []TrashItem
	var probs []model.Problem
	err := fs.WalkDir(s.fsys, TrashDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == TrashDir {
				return fs.SkipDir
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			probs = append(probs, model.Problem{File: p, Kind: model.ProblemMalformed,
				Reason: "in the trash but " + model.NotRegularReason(d.Type()) + ": not listed, never opened"})
			return nil
		}
		orig, ok := trashOriginal(p)
		if !ok {
			return nil
		}
		it := TrashItem{Path: p, Original: orig}
		stampDir := strings.Split(p, "/")[1]
		if len(stampDir) >= len(trashTimeLayout) {
			if t, err := time.Parse(trashTimeLayout, stampDir[:len(trashTimeLayout)]); err == nil {
				it.Deleted = t
			}
		}
		data, err := model.ReadFileBounded(s.fsys, p, model.MaxDocumentBytes)
		if err != nil {
			probs = append(probs, model.Problem{File: p, Kind: model.ProblemUnreadable, Reason: err.Error()})
		} else {
			f, _ := model.ParseMemoryFile(orig, data)
			it.Size, it.Name, it.Description = int64(len(data)), f.Name, f.Description
		}
		items = append(items, it)
		return nil
	})
	if err != nil {
		return nil, probs, fmt.Errorf("list the trash: %w", err)
	}
	sort.SliceStable(items, func(i, j int) bool {
		if !items[i].Deleted.Equal(items[j].Deleted) {
			return items[i].Deleted.After(items[j].Deleted)
		}
		return items[i].Path < items[j].Path
	})
	return items, probs, nil
}
