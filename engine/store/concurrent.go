package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"time"

	"github.com/memscope/memscope/model"
)

// exchangeFS is a model.WriteFS that can also swap two names atomically
// and create a name only when it does not exist. model.OSWriteFS gets both
// from osExchange and os.Link; tests wrap them to land writes in between.
type exchangeFS interface {
	model.WriteFS
	// Exchange swaps the files at a and b (both must exist).
	Exchange(a, b string) error
	// Link makes newname a second name of oldname; it fails when
	// newname exists.
	Link(oldname, newname string) error
}

// osExchangeFS adds the OS's exchange and link to model.OSWriteFS.
type osExchangeFS struct{ model.OSWriteFS }

// checkedFS is the StoreFS of a folder whose writes can be checked
// against the expected content at the moment they happen.
type checkedFS interface {
	// replaceChecked puts the staged file at name only if name still has
	// the content expect describes; otherwise it leaves name as it is,
	// removes nothing of anyone else's and returns a *ConflictError.
	// The staged file is gone afterwards, whatever happened.
	replaceChecked(staged, name string, expect FileStamp, during string) error
	// removeChecked removes name only if it still has the content expect
	// describes.
	removeChecked(name string, expect FileStamp, during string) error
	// checksAtRename is false for a WriteFS that is neither the OS nor an
	// exchangeFS (a fault-injecting one): that keeps the plain path.
	checksAtRename() bool
}

// unsupported reports whether err says the file system cannot exchange
// (or link): the caller falls back to check-then-rename.
func unsupported(err error) bool {
	return errors.Is(err, errExchangeUnsupported) || isUnsupportedErrno(err)
}

func parentDir(p string) string { return filepath.Dir(p) }

// hiddenBeside names a new hidden file beside name (readers skip names
// starting with "."; the TUI's watcher ignores ".memscope-").
func hiddenBeside(name, tag string) string {
	return path.Join(path.Dir(name), model.OwnPrefix(path.Base(name))+tag+"-"+strconv.FormatInt(stageSeq.Add(1), 10))
}

// ReplaceIfUnchangedAs writes data over the file at path through w (the
// real OS when nil) only if the file still holds before, checked at the
// rename as the store's writes are (a *ConflictError when it changed),
// keeping its mode and mtime (zero modTime: now): a scrub of a transcript
// changes a few bytes, not the file's age, which the client's cleanup and
// session list go by.
func ReplaceIfUnchangedAs(w model.WriteFS, path string, before, data []byte, perm fs.FileMode, modTime time.Time) error {
	return replaceIfUnchangedFrom(w, path, StampOf(before, true, nil), func(out io.Writer) error {
		_, err := out.Write(data)
		return err
	}, perm, modTime)
}

// replaceIfUnchangedFrom is ReplaceIfUnchangedAs with the file as it was
// named by its stamp and the new content streamed by write.
func replaceIfUnchangedFrom(w model.WriteFS, path string, before FileStamp, write func(io.Writer) error, perm fs.FileMode, modTime time.Time) error {
	d, ok := DirFSWith(filepath.Dir(path), w).(dirFS)
	if !ok {
		return fmt.Errorf("write %s: no folder file system", path)
	}
	name := filepath.Base(path)
	staged, err := d.stageFrom(name, write, perm, modTime)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := d.replaceChecked(staged, name, before, "scrub"); err != nil {
		var ce *ConflictError
		if errors.As(err, &ce) {
			ce.Path = path
			return ce
		}
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func (osExchangeFS) Exchange(a, b string) error { return osExchange(a, b) }

func (osExchangeFS) Link(oldname, newname string) error { return os.Link(oldname, newname) }

func (d dirFS) checksAtRename() bool {
	switch d.w.(type) {
	case exchangeFS, model.OSWriteFS:
		return true
	}
	return false
}

// exchanger returns the folder's exchangeFS, or nil when it has none.
func (d dirFS) exchanger() exchangeFS {
	switch w := d.w.(type) {
	case exchangeFS:
		return w
	case model.OSWriteFS:
		if osExchangeSupported {
			return osExchangeFS{w}
		}
	}
	return nil
}

// stampAt stamps the file at rel as it is now, reading it as a stream
// (a transcript a scrub replaced may be hundreds of megabytes): its
// size and hash, not its mtime.
func (d dirFS) stampAt(rel string) (FileStamp, error) {
	info, err := fs.Stat(d.FS, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return FileStamp{}, nil
	}
	if err == nil && !info.Mode().IsRegular() {
		err = errors.New(model.NotRegularReason(info.Mode()))
	}
	var sum string
	var n int64
	if err == nil {
		sum, n, err = model.HashFile(d.FS, rel)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return FileStamp{}, nil
	}
	if err != nil {
		return FileStamp{}, fmt.Errorf("read %s: %w", rel, err)
	}
	return FileStamp{Exists: true, Size: n, ModTime: info.ModTime(), SHA256: sum}, nil
}

func (d dirFS) replaceChecked(staged, name string, expect FileStamp, during string) error {
	x := d.exchanger()
	sp, err := d.abs(staged)
	if err != nil {
		return err
	}
	tp, err := d.abs(name)
	if err != nil {
		return err
	}
	conflict := func(now FileStamp) error {
		return &ConflictError{Path: name, Read: expect, Now: now, During: during}
	}
	if x != nil {
		err := d.swapIn(x, sp, tp, staged, name, expect, conflict)
		if err == nil || !unsupported(err) {
			return err
		}
	}
	// Fallback: the staged file is already written and synced, so only
	// one read and one rename separate the check from the write.
	now, err := d.stampAt(name)
	if err != nil {
		d.w.Remove(sp)
		return err
	}
	if !now.SameContent(expect) {
		d.w.Remove(sp)
		return conflict(now)
	}
	if err := d.w.Rename(sp, tp); err != nil {
		d.w.Remove(sp)
		return fmt.Errorf("rename %s: %w", staged, err)
	}
	d.w.SyncDir(parentDir(tp))
	return nil
}

// swapFailed handles a failed link or exchange: the error race means
// another writer got there first (a conflict, theirs stays); a file system
// without the call returns err as is, for the caller to fall back; the
// rest fail. The staged file is removed except for the fallback.
func (d dirFS) swapFailed(x exchangeFS, err, race error, sp, name, what string, conflict func(FileStamp) error) error {
	if unsupported(err) {
		return err
	}
	x.Remove(sp)
	if errors.Is(err, race) {
		now, _ := d.stampAt(name)
		return conflict(now)
	}
	return fmt.Errorf("%s %s: %w", what, name, err)
}

// swapIn is replaceChecked with an exchangeFS.
func (d dirFS) swapIn(x exchangeFS, sp, tp, staged, name string, expect FileStamp, conflict func(FileStamp) error) error {
	if !expect.Exists {
		// Create only if still absent: link fails when the name exists.
		if err := x.Link(sp, tp); err != nil {
			return d.swapFailed(x, err, fs.ErrExist, sp, name, "create", conflict)
		}
		x.Remove(sp)
		x.SyncDir(parentDir(tp))
		return nil
	}
	if err := x.Exchange(sp, tp); err != nil {
		// ErrNotExist: someone removed (or is replacing) the file.
		return d.swapFailed(x, err, fs.ErrNotExist, sp, name, "replace", conflict)
	}
	out, err := d.stampAt(staged)
	if err == nil && out.SameContent(expect) {
		x.Remove(sp) // the old content; the journal keeps a copy
		x.SyncDir(parentDir(tp))
		return nil
	}
	// Someone replaced the file after it was read: put theirs back.
	ours, _ := d.stampAt(name)
	if err := x.Exchange(sp, tp); err != nil {
		return fmt.Errorf("%s changed on disk while memscope wrote it; its other version is kept in %s (putting it back failed: %w)", name, staged, err)
	}
	back, err := d.stampAt(staged)
	if err == nil && !back.SameContent(ours) {
		// A third write landed between the two swaps: it is newer than
		// the one just put back, so it goes in place.
		if err := x.Rename(sp, tp); err != nil {
			return fmt.Errorf("%s changed on disk twice while memscope wrote it; the newer version is kept in %s (%w)", name, staged, err)
		}
	} else {
		x.Remove(sp)
	}
	x.SyncDir(parentDir(tp))
	return conflict(out)
}

func (d dirFS) removeChecked(name string, expect FileStamp, during string) error {
	tp, err := d.abs(name)
	if err != nil {
		return err
	}
	conflict := func(now FileStamp) error {
		return &ConflictError{Path: name, Read: expect, Now: now, During: during}
	}
	x := d.exchanger()
	if x == nil {
		now, err := d.stampAt(name)
		if err != nil {
			return err
		}
		if !now.SameContent(expect) {
			return conflict(now)
		}
		return d.Remove(name)
	}
	// Move the file aside (a rename takes whatever is there at that
	// instant), then look at what was moved.
	aside := hiddenBeside(name, "remove")
	ap, err := d.abs(aside)
	if err != nil {
		return err
	}
	if err := x.Rename(tp, ap); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if !expect.Exists {
				return nil
			}
			return conflict(FileStamp{})
		}
		return fmt.Errorf("remove %s: %w", name, err)
	}
	moved, err := d.stampAt(aside)
	if err == nil && moved.SameContent(expect) {
		x.Remove(ap)
		x.SyncDir(parentDir(tp))
		return nil
	}
	// Not what was read: put it back unless a newer file took the name.
	if err := x.Link(ap, tp); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s changed on disk while memscope removed it; that version is kept in %s (putting it back failed: %w)", name, aside, err)
	}
	x.Remove(ap)
	x.SyncDir(parentDir(tp))
	return conflict(moved)
}
