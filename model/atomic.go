package model

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"
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
	return writeFileAtomic(w, path, data, perm, true, time.Time{})
}

// WriteFileAtomicAs is WriteFileAtomicWith putting a file back as it was:
// the file gets exactly perm (an existing file's mode is not kept) and,
// unless modTime is zero, that mtime, both set before it takes the name.
// Undo and restores use it, so a file put back keeps its age: the
// client's staleness and cleanup read the mtime.
func WriteFileAtomicAs(w WriteFS, path string, data []byte, perm fs.FileMode, modTime time.Time) error {
	return writeFileAtomic(w, path, data, perm.Perm(), false, modTime)
}

// WriteFileAtomicFrom is WriteFileAtomicWith with the content streamed
// by write, so a file of any size is written without being held in
// memory (a transcript copied with records appended).
func WriteFileAtomicFrom(w WriteFS, path string, perm fs.FileMode, write func(io.Writer) error) error {
	return replaceAtomic(w, path, perm, true, time.Time{}, write)
}

// WriteFileAtomicFromAs is WriteFileAtomicAs with the content streamed
// by write (a scrubbed transcript written from the one copy in memory).
func WriteFileAtomicFromAs(w WriteFS, path string, perm fs.FileMode, modTime time.Time, write func(io.Writer) error) error {
	return replaceAtomic(w, path, perm.Perm(), false, modTime, write)
}

// writeFileAtomic replaces path with data; an existing file keeps its
// mode when keepMode.
func writeFileAtomic(w WriteFS, path string, data []byte, perm fs.FileMode, keepMode bool, modTime time.Time) error {
	return replaceAtomic(w, path, perm, keepMode, modTime, func(t io.Writer) error {
		_, err := t.Write(data)
		return err
	})
}

// replaceAtomic replaces path with what write writes; an existing file
// keeps its mode when keepMode.
func replaceAtomic(w WriteFS, path string, perm fs.FileMode, keepMode bool, modTime time.Time, write func(io.Writer) error) error {
	if st, err := w.Stat(path); err == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		if keepMode {
			perm = st.Mode().Perm()
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return writeThroughTemp(w, path, perm, modTime, write, w.Rename, true)
}

// WriteCacheFileWith replaces path with data through w as
// WriteFileAtomicWith does (a reader sees the old file or the new one,
// never a mix; missing folders are created 0700; the file is 0600), but
// syncs nothing: it is for memscope's own cache, which may be lost in a
// crash (its reader checks what it reads) and must not make a command
// wait for the disk.
func WriteCacheFileWith(w WriteFS, path string, data []byte) error {
	return writeThroughTemp(w, path, 0o600, time.Time{}, func(t io.Writer) error {
		_, err := t.Write(data)
		return err
	}, w.Rename, false)
}

// CreateFileAtomic creates path, which must not exist, with what write
// writes to it: as WriteFileAtomic does (a synced temporary file in the
// same folder, missing folders created, the folder synced), but the
// temporary file takes the name only while path is still absent, so no
// file is ever replaced, not even one that appeared during the write; the
// error then matches fs.ErrExist. The file gets perm and, unless modTime
// is zero, modTime, before it appears. write may stream any amount (an
// archive, a copy). On failure path is absent and the temporary file gone.
func CreateFileAtomic(path string, perm fs.FileMode, modTime time.Time, write func(io.Writer) error) error {
	return CreateFileAtomicWith(OSWriteFS{}, path, perm, modTime, write)
}

// CreateFileAtomicWith is CreateFileAtomic through w.
func CreateFileAtomicWith(w WriteFS, path string, perm fs.FileMode, modTime time.Time, write func(io.Writer) error) error {
	// Checked first so a large write is not done for nothing; the rename
	// checks again.
	if _, err := w.Stat(path); err == nil {
		return &fs.PathError{Op: "create", Path: path, Err: fs.ErrExist}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return writeThroughTemp(w, path, perm, modTime, write, w.RenameNoReplace, true)
}

// writeThroughTemp is the atomic writer's one sequence: the content goes
// to a temporary file beside path (mode perm, mtime modTime unless zero),
// is synced and closed, place moves it to path, and the folder is synced
// (nothing is synced unless sync).
// On failure the temporary file is removed, or the error says it could
// not be.
func writeThroughTemp(w WriteFS, path string, perm fs.FileMode, modTime time.Time, write func(io.Writer) error, place func(from, to string) error, sync bool) error {
	dir := filepath.Dir(path)
	if err := w.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := w.CreateTemp(dir, OwnPrefix(filepath.Base(path))+"*")
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
	if err := write(tmp); err != nil {
		return fail(err)
	}
	if sync {
		if err := tmp.Sync(); err != nil {
			return fail(err)
		}
	}
	closed = true
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if !modTime.IsZero() {
		if err := w.Chtimes(tmpName, modTime, modTime); err != nil {
			return fail(err)
		}
	}
	if err := place(tmpName, path); err != nil {
		return fail(err)
	}
	if sync {
		// Best effort: see WriteFileAtomicWith's doc comment.
		_ = w.SyncDir(dir)
	}
	return nil
}
