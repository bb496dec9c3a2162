package model

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// WriteFileAtomic replaces path with data so that a reader sees either the
// old file or the new one, never a mix, and a crash loses neither: the data
// goes to a temporary file in the same folder, is synced, renamed over path,
// and the folder is synced. An existing file keeps its mode (0600 stays
// 0600); a new file gets perm. Missing parent folders are created (0700).
// On failure path is as it was and the temporary file is gone.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	return WriteFileAtomicWith(OSWriteFS{}, path, data, perm)
}

// WriteFileAtomicWith is WriteFileAtomic through w.
//
// Once the rename is done the new content is in place and visible, so a
// failed fsync of the folder is not reported as a failed write: callers
// (the undo journal, rollbacks) must be able to trust that an error means
// path did not change.
func WriteFileAtomicWith(w WriteFS, path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	if st, err := w.Stat(path); err == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		perm = st.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := w.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := w.CreateTemp(dir, "."+filepath.Base(path)+".memscope-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmpName := tmp.Name()
	closed := false
	fail := func(e error) error {
		if !closed {
			tmp.Close()
		}
		if rerr := w.Remove(tmpName); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return fmt.Errorf("write %s: %w (and the temporary file could not be removed: %w)", path, e, rerr)
		}
		return fmt.Errorf("write %s: %w", path, e)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fail(err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	closed = true
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := w.Rename(tmpName, path); err != nil {
		return fail(err)
	}
	// Best effort: see the doc comment.
	_ = w.SyncDir(dir)
	return nil
}
