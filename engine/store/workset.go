package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"time"

	"github.com/memscope/memscope/engine/internal/udiff"
	memjournal "github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/model"
)

// defaultFilePerm is the mode of a new memory file, as the client's
// Write tool creates them.
const defaultFilePerm fs.FileMode = 0o644

// workset collects the new content of the files one change touches. Each
// file is read once, checked against the store's stamp, and kept with its
// bytes before the change, so the change can be diffed, scanned, journaled
// and applied as one.
type workset struct {
	s     *Store
	files map[string]*wfile
	order []string
	// read loads a file the first time it is touched: from disk, checked
	// against the store's stamps, or (for planning) from a snapshot.
	read func(rel string) (data []byte, exists bool, info fs.FileInfo, err error)
}

// wfile is one file of a workset: before and after the change.
type wfile struct {
	base       []byte
	baseExists bool
	baseStamp  FileStamp
	perm       fs.FileMode
	data       []byte
	exists     bool
	// modTime is the mtime the new content keeps: a file moved unchanged
	// (to the trash, back, to the archive) keeps its age. Zero: the
	// content is new and gets the time of the write.
	modTime time.Time
}

// keptTime is the mtime the file's content carries when it moves: its
// own when it was moved before, the one it was read with when it is
// unchanged, else none (new content).
func (f *wfile) keptTime() time.Time {
	switch {
	case !f.modTime.IsZero():
		return f.modTime
	case f.baseExists && f.exists && bytes.Equal(f.data, f.base):
		return f.baseStamp.ModTime
	}
	return time.Time{}
}

// snapshotWorkset reads MEMORY.md and the topic files from md (as read
// earlier); any other file reads as absent. index is md.Index.Bytes(),
// made once by the caller for every snapshot of md (a workset never
// writes into the bytes it read: put keeps a copy). It plans, it never
// writes.
func snapshotWorkset(md *model.MemoryDir, index []byte) *workset {
	return &workset{files: map[string]*wfile{}, read: func(rel string) ([]byte, bool, fs.FileInfo, error) {
		if rel == model.MemoryIndexName && md.Index != nil {
			return index, true, nil, nil
		}
		if f := md.File(rel); f != nil {
			return f.Raw(), true, nil, nil
		}
		return nil, false, nil, nil
	}}
}

// readStoreFile reads a file of fsys; a missing file is not an error.
// The journal may be larger than a memory file (see model.MaxJournalBytes).
func readStoreFile(fsys fs.FS, rel string) (data []byte, exists bool, info fs.FileInfo, err error) {
	limit := int64(model.MaxDocumentBytes)
	if rel == memjournal.Path {
		limit = model.MaxJournalBytes
	}
	info, err = fs.Stat(fsys, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil, nil
	}
	if err == nil && !info.Mode().IsRegular() {
		err = errors.New(model.NotRegularReason(info.Mode()))
	}
	if err == nil {
		data, err = model.ReadFileBounded(fsys, rel, limit)
	}
	if err != nil {
		return nil, false, nil, fmt.Errorf("read %s: %w", rel, err)
	}
	return data, true, info, nil
}

// newWorkset reads from disk, refusing any file that no longer matches
// what the store read.
func (s *Store) newWorkset() *workset {
	return &workset{s: s, files: map[string]*wfile{}, read: func(rel string) ([]byte, bool, fs.FileInfo, error) {
		data, exists, info, err := readStoreFile(s.fsys, rel)
		if err != nil {
			return nil, false, nil, err
		}
		now := StampOf(data, exists, info)
		if want, ok := s.expected(rel); ok && !want.SameContent(now) {
			return nil, false, nil, &ConflictError{Path: rel, Read: want, Now: now}
		}
		return data, exists, info, nil
	}}
}

// load reads rel once.
func (w *workset) load(rel string) (*wfile, error) {
	if f, ok := w.files[rel]; ok {
		return f, nil
	}
	data, exists, info, err := w.read(rel)
	if err != nil {
		return nil, err
	}
	now := StampOf(data, exists, info)
	f := &wfile{base: data, baseExists: exists, baseStamp: now, perm: defaultFilePerm, data: data, exists: exists}
	if info != nil {
		f.perm = info.Mode().Perm()
	}
	w.files[rel] = f
	w.order = append(w.order, rel)
	return f, nil
}

// get returns the current content of rel in the workset.
func (w *workset) get(rel string) ([]byte, bool, error) {
	f, err := w.load(rel)
	if err != nil {
		return nil, false, err
	}
	return f.data, f.exists, nil
}

// put sets the new content of rel.
func (w *workset) put(rel string, data []byte) error {
	f, err := w.load(rel)
	if err != nil {
		return err
	}
	f.data, f.exists, f.modTime = bytes.Clone(data), true, time.Time{}
	return nil
}

// create is put for a file that must not exist yet.
func (w *workset) create(rel string, data []byte) error {
	f, err := w.load(rel)
	if err != nil {
		return err
	}
	if f.exists {
		return fmt.Errorf("%s already exists", rel)
	}
	return w.put(rel, data)
}

// remove deletes rel.
func (w *workset) remove(rel string) error {
	f, err := w.load(rel)
	if err != nil {
		return err
	}
	if !f.exists {
		return fmt.Errorf("%s does not exist", rel)
	}
	f.data, f.exists, f.modTime = nil, false, time.Time{}
	return nil
}

// move moves from to to (which must not exist), keeping the mode and,
// when the content is unchanged, the mtime.
func (w *workset) move(from, to string) error {
	data, ok, err := w.get(from)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s does not exist", from)
	}
	if err := w.create(to, data); err != nil {
		return err
	}
	src, dst := w.files[from], w.files[to]
	dst.perm, dst.modTime = src.perm, src.keptTime()
	return w.remove(from)
}

// changed lists the files whose content the change alters, in the order
// they were first touched.
func (w *workset) changed() []string {
	var out []string
	for _, rel := range w.order {
		f := w.files[rel]
		if f.exists != f.baseExists || f.exists && !bytes.Equal(f.data, f.base) {
			out = append(out, rel)
		}
	}
	return out
}

// changedFiles describes the changed files for a Change, sorted by path.
func (w *workset) changedFiles(rels []string) []ChangedFile {
	out := make([]ChangedFile, 0, len(rels))
	for _, rel := range rels {
		f := w.files[rel]
		a := FileModified
		switch {
		case !f.baseExists:
			a = FileCreated
		case !f.exists:
			a = FileDeleted
		}
		out = append(out, ChangedFile{Path: rel, Action: a})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// diff is the unified diff of the changed files. A file removed and one
// created with the same or mostly the same content read as a move: a
// "rename" line, then the diff between the two if any. The notes kept
// beside trashed memories are bookkeeping, listed in a change's files but
// left out of the diff people read.
func (w *workset) diff(rels []string) string {
	var b bytes.Buffer
	var sorted []string
	for _, rel := range rels {
		if !isTrashNote(rel) {
			sorted = append(sorted, rel)
		}
	}
	sort.Strings(sorted)
	movedTo, movedFrom := map[string]string{}, map[string]string{}
	for _, exact := range []bool{true, false} {
		for _, del := range sorted {
			d := w.files[del]
			if d.exists || !d.baseExists || movedTo[del] != "" {
				continue
			}
			for _, add := range sorted {
				a := w.files[add]
				if a.baseExists || !a.exists || movedFrom[add] != "" {
					continue
				}
				if exact && bytes.Equal(a.data, d.base) || !exact && udiff.MostlySame(d.base, a.data) {
					movedTo[del], movedFrom[add] = add, del
					break
				}
			}
		}
	}
	for _, rel := range sorted {
		f := w.files[rel]
		switch {
		case movedTo[rel] != "":
		case movedFrom[rel] != "":
			from := movedFrom[rel]
			fmt.Fprintf(&b, "rename %s → %s\n", from, rel)
			b.WriteString(udiff.Named(from, rel, w.files[from].base, true, f.data, true))
		default:
			b.WriteString(udiff.Unified(rel, f.base, f.baseExists, f.data, f.exists))
		}
	}
	return b.String()
}
