package secrets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
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
		m, err := readManifest(h, e.Name())
		if err != nil {
			probs = append(probs, model.Problem{File: path.Join(CopyDir, e.Name()), Kind: model.ProblemMalformed, Reason: err.Error()})
			continue
		}
		c := Copy{ID: m.ID, Time: m.Time, Dir: h.Abs(path.Join(CopyDir, e.Name()))}
		for _, f := range m.Files {
			c.Files = append(c.Files, f.File)
			c.Secrets += len(f.Edits)
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, probs
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

func readManifest(h *model.Home, id string) (manifest, error) {
	var m manifest
	if err := checkID(id); err != nil {
		return m, err
	}
	data, err := model.ReadFileBounded(h.FS, path.Join(CopyDir, id, manifestName), model.MaxJournalBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return m, fmt.Errorf("%w: no scrub %s in %s (memscope secrets lists them)", ErrNoCopy, id, h.Abs(CopyDir))
		}
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("read scrub %s: %w", id, err)
	}
	if m.ID != id {
		return m, fmt.Errorf("scrub copy %s names itself %q", id, m.ID)
	}
	return m, nil
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
	m, err := readManifest(o.Home, id)
	if err != nil {
		return Result{}, err
	}
	type put struct {
		abs         string
		now, data   []byte
		mode        fs.FileMode
		mtime       time.Time
		appended    int64
		curMtime    time.Time
		secrets     int
		relativeFor string
	}
	var todo []put
	res := Result{ID: id}
	for _, f := range m.Files {
		abs := o.Home.Abs(f.File)
		st, err := os.Lstat(abs)
		if err != nil {
			return res, fmt.Errorf("restore refused, nothing was written: %s: %w", abs, err)
		}
		if !st.Mode().IsRegular() {
			return res, fmt.Errorf("restore refused, nothing was written: %s: %s", abs, model.NotRegularReason(st.Mode()))
		}
		cur, err := model.ReadRegularFile(abs, maxScrubBytes)
		if err != nil {
			return res, fmt.Errorf("restore refused, nothing was written: %w", err)
		}
		now := store.StampOf(cur, true, nil)
		if now.SameContent(f.Before) {
			continue // already back
		}
		p := put{abs: abs, now: cur, mode: f.Mode, mtime: f.ModTime, curMtime: st.ModTime(), secrets: len(f.Edits), relativeFor: f.File}
		head := cur
		if !now.SameContent(f.After) {
			// Appended to since the scrub: the head must be the scrub's.
			if int64(len(cur)) <= f.After.Size || !store.StampOf(cur[:f.After.Size], true, nil).SameContent(f.After) {
				return res, &store.ConflictError{Path: abs, Read: f.After, Now: now, During: "restore of scrub " + id}
			}
			head = cur[:f.After.Size]
			p.appended = int64(len(cur)) - f.After.Size
			p.mtime = st.ModTime()
		}
		data, err := unscrub(head, f.Edits)
		if err != nil || !store.StampOf(data, true, nil).SameContent(f.Before) {
			return res, fmt.Errorf("restore refused, nothing was written: %s: the saved bytes do not rebuild the file as it was", abs)
		}
		p.data = append(data, cur[len(head):]...)
		todo = append(todo, p)
	}
	var done []put
	for _, p := range todo {
		if err := store.ReplaceIfUnchangedAs(wfs, p.abs, p.now, p.data, p.mode, p.mtime); err != nil {
			for _, d := range done {
				if rerr := store.ReplaceIfUnchangedAs(wfs, d.abs, d.data, d.now, d.mode, d.curMtime); rerr != nil {
					return res, fmt.Errorf("restore %s: %w; putting %s back as scrubbed failed too (%v): run the restore again", p.abs, err, d.abs, rerr)
				}
			}
			return res, fmt.Errorf("restore %s: %w (nothing was restored; the copy is kept)", p.abs, err)
		}
		done = append(done, p)
		res.Files = append(res.Files, p.relativeFor)
		res.Secrets += p.secrets
		if p.appended > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: %d bytes appended since the scrub are kept (and its mtime)", p.relativeFor, p.appended))
		}
	}
	dir := filepath.Join(o.Home.Dir, filepath.FromSlash(CopyDir), id)
	if err := removeCopy(wfs, dir); err != nil {
		res.Copy = dir
		res.Notes = append(res.Notes, fmt.Sprintf("the copy %s could not be deleted (%v): memscope secrets --forget %s", dir, err, id))
	}
	return res, nil
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
	m, err := readManifest(o.Home, id)
	if err != nil {
		return Copy{}, err
	}
	dir := filepath.Join(o.Home.Dir, filepath.FromSlash(CopyDir), id)
	c := Copy{ID: m.ID, Time: m.Time, Dir: dir}
	for _, f := range m.Files {
		c.Files = append(c.Files, f.File)
		c.Secrets += len(f.Edits)
	}
	if err := removeCopy(wfs, dir); err != nil {
		return c, fmt.Errorf("forget %s: %w", id, err)
	}
	return c, nil
}
