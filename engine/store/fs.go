package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/memscope/memscope/model"
)

// FS is all the file access a MemoryStore has: reads through fs.FS
// and four writes. Names are slash paths relative to the memory folder
// ("feedback_x.md", ".trash/…/x.md"), as fs.FS names are.
type FS interface {
	fs.FS
	// WriteFile replaces name with data atomically (a reader sees the old
	// file or the new one), creating parent folders. An existing file
	// keeps its mode; a new one gets perm.
	WriteFile(name string, data []byte, perm fs.FileMode) error
	// Stage writes data, synced, to a new hidden file beside name and
	// returns that file's name; Rename then puts it in place. Writing
	// every file of a change first and renaming them after keeps a
	// multi-file change all or nothing as far as a file system allows.
	Stage(name string, data []byte, perm fs.FileMode) (string, error)
	// Rename moves from to to, replacing to.
	Rename(from, to string) error
	// Remove deletes a file; a missing file is not an error.
	Remove(name string) error
}

// DirFS returns the StoreFS of the folder dir on disk. Single-file writes
// go through model.WriteFileAtomic, and so do staged files (under a
// temporary name).
func DirFS(dir string) FS {
	return DirFSWith(dir, nil)
}

// DirFSWith is DirFS making its writes through w (the real OS when nil);
// tests pass a faultfs.FS to make any step of any write fail.
func DirFSWith(dir string, w model.WriteFS) FS {
	return DirFSIn("", dir, w)
}

// DirFSIn is DirFSWith for a memory folder of the home folder home: it
// reads through model.MemoryFS, so a link that leaves the home (a memory
// file, or the folder itself) is refused and named, as every reader of
// the home refuses it; with home "" the folder is its own boundary.
func DirFSIn(home, dir string, w model.WriteFS) FS {
	if w == nil {
		w = model.OSWriteFS{}
	}
	return dirFS{FS: model.MemoryFS(home, dir), dir: dir, w: w}
}

type dirFS struct {
	fs.FS
	dir string
	w   model.WriteFS
}

// OpenRegular opens a regular file of the folder with the folder's own
// OpenRegular: one open, not the stat and the open model.OpenRegular
// makes on a file system without one (each memory file of a store's read
// was opened twice).
func (d dirFS) OpenRegular(name string) (fs.File, error) { return model.OpenRegular(d.FS, name) }

// Stat is the folder's own Stat (no file opened to answer it).
func (d dirFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(d.FS, name) }

// stageSeq makes staged names unique within the process; the atomic
// writer's own temporary name makes them unique across processes.
var stageSeq atomic.Int64

func (d dirFS) abs(name string) (string, error) {
	if !fs.ValidPath(name) || name == "." {
		return "", fmt.Errorf("invalid file name %q", name)
	}
	// abs names every file a write touches: no write follows a link.
	if err := refuseSymlinks(d.dir, name); err != nil {
		return "", err
	}
	return filepath.Join(d.dir, filepath.FromSlash(name)), nil
}

func (d dirFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	p, err := d.abs(name)
	if err != nil {
		return err
	}
	return model.WriteFileAtomicWith(d.w, p, data, perm)
}

func (d dirFS) Stage(name string, data []byte, perm fs.FileMode) (string, error) {
	p, err := d.abs(name)
	if err != nil {
		return "", err
	}
	// The staged file must end up with the mode the target keeps.
	if st, err := d.w.Stat(p); err == nil {
		perm = st.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("stage %s: %w", name, err)
	}
	staged := hiddenBeside(name, "stage")
	sp, _ := d.abs(staged)
	if err := model.WriteFileAtomicWith(d.w, sp, data, perm); err != nil {
		return "", fmt.Errorf("stage %s: %w", name, err)
	}
	return staged, nil
}

// stageAs is Stage for a file put back as it was: the staged file gets
// exactly perm and, unless zero, modTime, which the rename into place
// keeps (see metaStager).
func (d dirFS) stageAs(name string, data []byte, perm fs.FileMode, modTime time.Time) (string, error) {
	return d.stageFrom(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, perm, modTime)
}

// stageFrom is stageAs with the content streamed by write.
func (d dirFS) stageFrom(name string, write func(io.Writer) error, perm fs.FileMode, modTime time.Time) (string, error) {
	if _, err := d.abs(name); err != nil {
		return "", err
	}
	staged := hiddenBeside(name, "stage")
	sp, _ := d.abs(staged)
	if err := model.WriteFileAtomicFromAs(d.w, sp, perm, modTime, write); err != nil {
		return "", fmt.Errorf("stage %s: %w", name, err)
	}
	return staged, nil
}

func (d dirFS) Rename(from, to string) error {
	f, err := d.abs(from)
	if err != nil {
		return err
	}
	t, err := d.abs(to)
	if err != nil {
		return err
	}
	if err := d.w.MkdirAll(filepath.Dir(t), 0o700); err != nil {
		return fmt.Errorf("rename %s: %w", from, err)
	}
	if err := d.w.Rename(f, t); err != nil {
		return fmt.Errorf("rename %s: %w", from, err)
	}
	// Best effort, as in model.WriteFileAtomicWith: the rename is done.
	_ = d.w.SyncDir(filepath.Dir(t))
	return nil
}

func (d dirFS) Remove(name string) error {
	p, err := d.abs(name)
	if err != nil {
		return err
	}
	if err := d.w.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", name, err)
	}
	// Best effort: some file systems refuse to sync a folder, and the
	// removal is done.
	_ = d.w.SyncDir(filepath.Dir(p))
	return nil
}
