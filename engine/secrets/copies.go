package secrets

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// Copy is a scrub's copy of what it replaced: until it is forgotten, the
// secrets it removed still exist on disk, in it.
type Copy struct {
	ID      string    `json:"id"`
	Time    time.Time `json:"time"`
	Dir     string    `json:"dir"`
	Files   []string  `json:"files"`
	Secrets int       `json:"secrets"`
}

// listCopies lists the copies kept in the home, oldest first.
func listCopies(h *model.Home, probs []model.Problem) ([]Copy, []model.Problem) {
	out := []Copy{}
	ents, err := fs.ReadDir(h.FS, CopyDir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			probs = append(probs, model.Problem{File: CopyDir, Kind: model.ProblemUnreadable, Reason: err.Error()})
		}
		return out, probs
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		m, err := readManifest(h, e.Name(), false)
		if errors.Is(err, ErrNoCopy) {
			// No manifest: a scrub killed before it wrote one left the
			// folder (a leftover, memscope lint --remove-leftovers).
			continue
		}
		if err != nil {
			probs = append(probs, model.Problem{File: path.Join(CopyDir, e.Name()), Kind: model.ProblemMalformed, Reason: err.Error()})
			continue
		}
		out = append(out, m.copyIn(h.Abs(path.Join(CopyDir, e.Name()))))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, probs
}

// copyIn says what the copy in dir, of manifest m, holds.
func (m manifest) copyIn(dir string) Copy {
	c := Copy{ID: m.ID, Time: m.Time, Dir: dir}
	for _, f := range m.Files {
		c.Files = append(c.Files, f.File)
		c.Secrets += len(f.Edits) + f.listed
	}
	return c
}

// Copies lists the scrub copies kept in the home, oldest first.
func Copies(h *model.Home) ([]Copy, []model.Problem) { return listCopies(h, nil) }

// ErrNoCopy says a scrub id names no copy.
var ErrNoCopy = errors.New("no such scrub")

// checkID refuses an id that is not one plain name (it becomes a path).
func checkID(id string) error {
	if id == "" || id == "." || id == ".." || strings.ContainsAny(id, `/\`+"\x00") {
		return fmt.Errorf("%w: %q is not a scrub id (memscope secrets lists them)", ErrNoCopy, id)
	}
	return nil
}

// Restore puts back what scrub id replaced, byte for byte, with each
// file's mode and mtime. A file Claude Code appended to since keeps what
// was appended (and its new mtime); a file already as it was is left
// alone. It refuses, writing nothing, when a file is neither scrubbed,
// scrubbed and appended to, nor as it was. Once every file is back the
// copy is deleted: the secrets are in the files again.
func Restore(o ApplyOptions, id string) (Result, error) {
	wfs := o.writer()
	defer lock(o.Home)()
	m, err := readManifest(o.Home, id, true)
	if err != nil {
		return Result{}, err
	}
	// Check every file first, keeping only its stamp: one file's bytes
	// are in memory at a time.
	var todo []restoreFile
	res := Result{ID: id}
	for _, f := range m.Files {
		r, err := planRestore(o.Home, f, id)
		if err != nil {
			return res, err
		}
		if r.done {
			continue // already back
		}
		todo = append(todo, r)
	}
	for k, r := range todo {
		if err := r.write(wfs, o.Home); err != nil {
			for _, d := range todo[:k] {
				if rerr := d.undo(wfs, o.Home); rerr != nil {
					return res, fmt.Errorf("restore %s: %w; putting %s back as scrubbed failed too (%v): run the restore again", r.abs, err, d.abs, rerr)
				}
			}
			return res, fmt.Errorf("restore %s: %w (nothing was restored; the copy is kept)", r.abs, err)
		}
		res.Files = append(res.Files, r.f.File)
		res.Secrets += len(r.f.Edits)
		if r.appended > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: %d bytes appended since the scrub are kept (and its mtime)", r.f.File, r.appended))
		}
	}
	dir := o.Home.Abs(path.Join(CopyDir, id))
	if err := removeCopy(wfs, dir); err != nil {
		res.Copy = dir
		res.Notes = append(res.Notes, fmt.Sprintf("the copy %s could not be deleted (%v): memscope secrets --forget %s", dir, err, id))
	}
	return res, nil
}

// restoreFile is one file of a restore, checked: its stamp now, and how
// to rebuild it.
type restoreFile struct {
	f       manifestFile
	abs, id string
	// now is the file as checked; done says it is already as it was.
	now  store.FileStamp
	done bool
	// appended counts the bytes Claude Code appended since the scrub,
	// kept with the file's mtime now (curMtime).
	appended int64
	curMtime time.Time
}

// planRestore checks that a file is as the scrub left it (or that and
// more lines) and that the saved bytes rebuild it as it was.
func planRestore(h *model.Home, f manifestFile, id string) (restoreFile, error) {
	abs := h.Abs(f.File)
	r := restoreFile{f: f, abs: abs, id: id}
	st, err := os.Lstat(abs)
	if err != nil {
		return r, fmt.Errorf("restore refused, nothing was written: %s: %w", abs, err)
	}
	if !st.Mode().IsRegular() {
		return r, fmt.Errorf("restore refused, nothing was written: %s: %s", abs, model.NotRegularReason(st.Mode()))
	}
	cur, err := model.ReadRegularFile(abs, maxScrubBytes)
	if err != nil {
		return r, fmt.Errorf("restore refused, nothing was written: %w", err)
	}
	r.now, r.curMtime = store.StampOf(cur, true, nil), st.ModTime()
	if r.now.SameContent(f.Before) {
		r.done = true
		return r, nil
	}
	if _, err := r.rebuild(cur); err != nil {
		return r, err
	}
	return r, nil
}

// rebuild returns the file as it was from cur, the file as checked.
func (r *restoreFile) rebuild(cur []byte) ([]byte, error) {
	f := r.f
	head := cur
	if !store.StampOf(cur, true, nil).SameContent(f.After) {
		// Appended to since the scrub: the head must be the scrub's.
		if int64(len(cur)) <= f.After.Size || !store.StampOf(cur[:f.After.Size], true, nil).SameContent(f.After) {
			return nil, &store.ConflictError{Path: r.abs, Read: f.After, Now: store.StampOf(cur, true, nil), During: "restore of scrub " + r.id}
		}
		head = cur[:f.After.Size]
		r.appended = int64(len(cur)) - f.After.Size
	}
	data, err := unscrub(head, f.Edits)
	if err != nil || !store.StampOf(data, true, nil).SameContent(f.Before) {
		return nil, fmt.Errorf("restore refused, nothing was written: %s: the saved bytes do not rebuild the file as it was", r.abs)
	}
	return append(data, cur[len(head):]...), nil
}

// write reads the file again (it must be as checked, or that and more
// appended) and puts it back as it was: its mtime too, unless lines were
// appended since the scrub.
func (r restoreFile) write(wfs model.WriteFS, h *model.Home) error {
	cur, err := model.ReadRegularFile(r.abs, maxScrubBytes)
	if err != nil {
		return err
	}
	// Lines appended since the check are carried over by ReplaceGrowing.
	if int64(len(cur)) > r.now.Size {
		cur = cur[:r.now.Size]
	}
	if now := store.StampOf(cur, true, nil); !now.SameContent(r.now) {
		return &store.ConflictError{Path: r.abs, Read: r.now, Now: now, During: "restore"}
	}
	data, err := r.rebuild(cur)
	if err != nil {
		return err
	}
	mtime := r.f.ModTime
	if r.appended > 0 {
		mtime = r.curMtime
	}
	return store.ReplaceGrowing(wfs, r.abs, cur, data, r.f.Mode, mtime)
}

// undo puts a restored file back as the scrub left it (a later file of
// the restore failed).
func (r restoreFile) undo(wfs model.WriteFS, h *model.Home) error {
	cur, err := model.ReadRegularFile(r.abs, maxScrubBytes)
	if err != nil {
		return err
	}
	var edits []Edit
	for _, e := range r.f.Edits {
		edits = append(edits, Edit{Offset: e.Offset, Length: len(e.Bytes), Marker: e.Marker})
	}
	return store.ReplaceGrowing(wfs, r.abs, cur, applyEdits(cur, editList(edits)), r.f.Mode, r.curMtime)
}

// unscrub puts the saved bytes back where the markers are.
func unscrub(after []byte, edits []savedEdit) ([]byte, error) {
	var b bytes.Buffer
	at := int64(0)
	for _, e := range edits {
		end := e.AfterOffset + int64(len(e.Marker))
		if e.AfterOffset < at || end > int64(len(after)) || string(after[e.AfterOffset:end]) != e.Marker {
			return nil, fmt.Errorf("marker %s not at offset %d", e.Marker, e.AfterOffset)
		}
		b.Write(after[at:e.AfterOffset])
		b.Write(e.Bytes)
		at = end
	}
	b.Write(after[at:])
	return b.Bytes(), nil
}

// Forget deletes scrub id's copy: the secrets it removed exist nowhere
// memscope put them any more, and the scrub can no longer be restored.
func Forget(o ApplyOptions, id string) (Copy, error) {
	wfs := o.writer()
	defer lock(o.Home)()
	m, err := readManifest(o.Home, id, false)
	if err != nil {
		return Copy{}, err
	}
	dir := o.Home.Abs(path.Join(CopyDir, id))
	c := m.copyIn(dir)
	if err := removeCopy(wfs, dir); err != nil {
		return c, fmt.Errorf("forget %s: %w", id, err)
	}
	return c, nil
}
