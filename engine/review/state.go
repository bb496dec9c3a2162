package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// Path is the review state, relative to the memory folder.
const Path = ".memscope/review.json"

// MaxCopy bounds the copy kept of an accepted file: larger files keep
// their hash only, and their diff since the review is not shown. Memory
// files are a few KB (the client's guidance is under 4 KB).
const MaxCopy = 256 << 10

// Entry is one file as last accepted.
type Entry struct {
	SHA256   string    `json:"sha256"`
	Reviewed time.Time `json:"reviewed"`
	// Copy is the bytes accepted (base64 in JSON); nil past MaxCopy.
	Copy []byte `json:"copy,omitempty"`
}

// State is the review state of one memory folder: per file, by its path
// relative to the folder.
type State struct {
	Version int              `json:"version"`
	Files   map[string]Entry `json:"files"`
}

// Reader reads a memory folder (store.FS is one).
type Reader = fs.FS

// Writer is how the state is written: store.FS's WriteFile, the atomic
// writer behind model.WriteFS.
type Writer interface {
	WriteFile(name string, data []byte, perm fs.FileMode) error
}

// Load reads the state of the memory folder fsys; an empty state when
// there is none.
func Load(fsys fs.FS) (State, error) {
	st := State{Version: 1, Files: map[string]Entry{}}
	data, err := model.ReadFileBounded(fsys, Path, model.MaxJournalBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return st, nil
	case err != nil:
		return st, fmt.Errorf("read %s: %w", Path, err)
	}
	var in State
	if err := json.Unmarshal(data, &in); err != nil {
		return st, fmt.Errorf("read %s: %w (delete it to start the review over)", Path, err)
	}
	for p, e := range in.Files {
		st.Files[p] = e
	}
	return st, nil
}

// Bytes is the state as written: indented JSON, files by path.
func (st State) Bytes() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	st.Version = 1
	enc.Encode(st)
	return b.Bytes()
}

// Save writes the state (mode 0600: it holds copies of memory).
func Save(w Writer, st State) error {
	if err := w.WriteFile(Path, st.Bytes(), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", Path, err)
	}
	return nil
}

// Update changes the review state of the memory folder at dir (a path on
// disk; fsys reads it, w writes it) under the folder's journal lock: the
// state is read again, changed and written as one step, so two
// memscopes accepting at once keep both accepts (each wrote the state it
// had read, and the last one won). It returns the state written.
func Update(dir string, fsys Reader, w Writer, change func(*State)) (State, error) {
	defer journal.Acquire(filepath.Join(dir, filepath.FromSlash(journal.Path))).Release(true)
	st, err := Load(fsys)
	if err != nil {
		return st, err
	}
	change(&st)
	return st, Save(w, st)
}

// Accept records rel as reviewed with these bytes.
func (st *State) Accept(rel string, data []byte, now time.Time) {
	e := Entry{SHA256: store.Hash(data), Reviewed: now}
	if len(data) <= MaxCopy {
		e.Copy = bytes.Clone(data)
	}
	if st.Files == nil {
		st.Files = map[string]Entry{}
	}
	st.Files[rel] = e
}

// Forget drops the entries of files not in keep (gone from the folder).
func (st *State) Forget(keep func(rel string) bool) {
	for _, p := range slices.Sorted(maps.Keys(st.Files)) {
		if !keep(p) {
			delete(st.Files, p)
		}
	}
}
