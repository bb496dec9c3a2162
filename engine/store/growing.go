package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/memscope/memscope/model"
)

// ErrHeldOpen says a file that is appended to stayed open in another
// process for as long as a replacement waited: a writer holding its
// descriptor would go on writing into the version replaced, so nothing
// was written.
var ErrHeldOpen = errors.New("another process holds it open (it may be writing it)")

// maxGrowing bounds a file ReplaceGrowing reads whole.
const maxGrowing = 1 << 30

// ReplaceGrowing replaces the file at path, which held base when the
// caller read it and which another process may be appending to (a
// transcript, history.jsonl), with data followed by every byte appended
// after base, at whatever moment it was appended: before the
// replacement, during it, or by a writer that had opened the old version
// just before it. The file keeps perm and modTime (zero: now), or its
// own mtime when something was appended.
//
// When the file no longer starts with base nothing is written and the
// error is a *ConflictError; when another process keeps it open beyond a
// short wait, nothing is written and the error matches ErrHeldOpen.
//
// On Linux the old version is held under a write lease (fcntl
// F_SETLEASE) from the moment it is read to the moment the new one takes
// its name by an atomic exchange: no other descriptor on it exists, and
// an open of it waits, so every appender either wrote before the read
// (its bytes are carried into the new version before it appears) or
// opens after the exchange (the new version). An open that was already
// on its way to the old version shows as a broken lease: its bytes are
// carried over once it closes. Elsewhere, and on file systems without
// leases, the file is read again and the check is at the exchange or
// rename (replaceChecked).
func ReplaceGrowing(w model.WriteFS, path string, base, data []byte, perm fs.FileMode, modTime time.Time) error {
	d, ok := DirFSWith(filepath.Dir(path), w).(dirFS)
	if !ok {
		return fmt.Errorf("write %s: no folder file system", path)
	}
	name := filepath.Base(path)
	if x := d.exchanger(); x != nil && leaseSupported {
		err := d.replaceLeased(x, name, base, data, perm, modTime)
		if !errors.Is(err, errNoLease) {
			return named(err, path)
		}
	}
	cur, err := model.ReadRegularFile(path, maxGrowing)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(cur, base) {
		return &ConflictError{Path: path, Read: StampOf(base, true, nil), Now: StampOf(cur, true, nil), During: "scrub"}
	}
	if extra := cur[len(base):]; len(extra) > 0 {
		if st, err := os.Lstat(path); err == nil {
			modTime = st.ModTime()
		}
		data = append(data[:len(data):len(data)], extra...)
	}
	return ReplaceIfUnchangedAs(w, path, cur, data, perm, modTime)
}

// named puts the full path in a conflict error.
func named(err error, path string) error {
	var ce *ConflictError
	if errors.As(err, &ce) {
		ce.Path = path
	}
	return err
}

// errNoLease says the file system (or the file's owner) allows no lease:
// the caller takes the unleased path.
var errNoLease = errors.New("no lease")

// leaseWait bounds how long a replacement waits for the other
// descriptors of a file to close, and carryWait how long it waits for a
// writer that opened the old version to finish.
const (
	leaseWait = 2 * time.Second
	carryWait = 5 * time.Second
)

// leasedHook, set only by tests, runs once the old version is read
// under the lease, before the exchange: a test opens the file there, as
// a writer whose open is under way when the new version takes the name.
var leasedHook func(old *os.File)

// replaceLeased is ReplaceGrowing under a lease (see its comment).
func (d dirFS) replaceLeased(x exchangeFS, name string, base, data []byte, perm fs.FileMode, modTime time.Time) error {
	tp, err := d.abs(name)
	if err != nil {
		return err
	}
	// The new version is staged first, so the lease (which makes the
	// file's other openers wait) is held only while it is read and
	// exchanged, not while a large file is written.
	staged, err := d.stageAs(name, data, perm, modTime)
	if err != nil {
		return fmt.Errorf("write %s: %w", tp, err)
	}
	sp, _ := d.abs(staged)
	keep := false
	defer func() {
		if !keep {
			x.Remove(sp)
		}
	}()
	old, err := model.OpenRegularFile(tp)
	if err != nil {
		return err
	}
	defer old.Close() // releases the lease
	if err := takeLease(old, leaseWait); err != nil {
		return err
	}
	oldInfo, err := old.Stat()
	if err != nil {
		return err
	}
	cur, err := readAllBounded(old, maxGrowing)
	if err != nil {
		return fmt.Errorf("read %s: %w", tp, err)
	}
	if !bytes.HasPrefix(cur, base) {
		return &ConflictError{Path: name, Read: StampOf(base, true, nil), Now: StampOf(cur, true, nil), During: "scrub"}
	}
	if leasedHook != nil {
		leasedHook(old)
	}
	if extra := cur[len(base):]; len(extra) > 0 {
		if err := appendTo(sp, extra, oldInfo.ModTime()); err != nil {
			return fmt.Errorf("write %s: %w", tp, err)
		}
	}
	newInfo, err := os.Lstat(sp)
	if err != nil {
		return err
	}
	if err := x.Exchange(sp, tp); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &ConflictError{Path: name, Read: StampOf(base, true, nil), During: "scrub"}
		}
		if unsupported(err) {
			// Leases but no exchange: a rename, checked just before.
			if st, serr := os.Lstat(tp); serr != nil || !os.SameFile(st, oldInfo) {
				return &ConflictError{Path: name, Read: StampOf(base, true, nil), During: "scrub"}
			}
			if err := x.Rename(sp, tp); err != nil {
				return fmt.Errorf("rename %s: %w", staged, err)
			}
			keep = true // the name is the new version's now
			x.SyncDir(parentDir(tp))
			return carry(old, int64(len(cur)), tp, newInfo, "")
		}
		return fmt.Errorf("replace %s: %w", name, err)
	}
	// What was exchanged out must be the version read under the lease:
	// a rename onto the name in between would have put another there.
	if st, err := os.Lstat(sp); err != nil || !os.SameFile(st, oldInfo) {
		if err := x.Exchange(sp, tp); err != nil {
			keep = true
			return fmt.Errorf("%s was replaced while memscope wrote it; its other version is kept in %s (putting it back failed: %w)", name, staged, err)
		}
		return &ConflictError{Path: name, Read: StampOf(base, true, nil), During: "scrub"}
	}
	x.SyncDir(parentDir(tp))
	if err := carry(old, int64(len(cur)), tp, newInfo, sp); err != nil {
		keep = true
		return err
	}
	return nil
}

// carry waits for any open of the old version that was under way when
// the new one took the name (it broke the lease), then appends to the
// new version (the file at tp, newInfo) what such a writer added to the
// old one past size. kept names where the old version lies meanwhile
// ("" when nameless).
func carry(old *os.File, size int64, tp string, newInfo fs.FileInfo, kept string) error {
	if !settled(old) {
		deadline := time.Now().Add(carryWait)
		for {
			releaseLease(old)
			time.Sleep(time.Millisecond)
			if err := takeLease(old, time.Until(deadline)); err != nil {
				if kept != "" {
					return fmt.Errorf("%s: a process opened its old version during the write and holds it still; what it writes there is kept in %s", tp, kept)
				}
				return fmt.Errorf("%s: a process opened its old version during the write and holds it still: %w", tp, err)
			}
			if settled(old) {
				break
			}
		}
	}
	st, err := old.Stat()
	if err != nil {
		return err
	}
	if st.Size() <= size {
		return nil
	}
	extra := make([]byte, st.Size()-size)
	if _, err := old.ReadAt(extra, size); err != nil {
		return fmt.Errorf("read what was appended to %s: %w", tp, err)
	}
	f, err := os.OpenFile(tp, os.O_RDWR|os.O_APPEND|syscallNoFollow, 0)
	if err != nil {
		return fmt.Errorf("carry what was appended to %s: %w", tp, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !os.SameFile(st, newInfo) {
		return fmt.Errorf("carry what was appended to %s: the file was replaced meanwhile", tp)
	}
	// No writer of the new version is between two parts of a line.
	if err := takeLease(f, carryWait); err != nil {
		return fmt.Errorf("carry what was appended to %s: %w", tp, err)
	}
	if _, err := f.Write(extra); err != nil {
		return fmt.Errorf("carry what was appended to %s: %w", tp, err)
	}
	return f.Sync()
}

// appendTo appends extra to the staged file at p and gives it mtime.
func appendTo(p string, extra []byte, mtime time.Time) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|syscallNoFollow, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(extra); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Chtimes(p, mtime, mtime)
}

// readAllBounded reads f from its start, at most max bytes.
func readAllBounded(f *os.File, max int64) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > max {
		return nil, fmt.Errorf("%s is %d bytes, more than memscope reads (%d)", f.Name(), st.Size(), max)
	}
	buf := bytes.NewBuffer(make([]byte, 0, st.Size()+512))
	if _, err := io.Copy(buf, io.NewSectionReader(f, 0, max+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > max {
		return nil, fmt.Errorf("%s is more than memscope reads (%d bytes)", f.Name(), max)
	}
	return buf.Bytes(), nil
}

// WithOSExchange is w with the OS's atomic exchange and link, so a write
// through a wrapped WriteFS (a test's faultfs, or one without fsync)
// takes the checked path production takes on the real OS.
func WithOSExchange(w model.WriteFS) model.WriteFS { return osExchangeOver{w} }

type osExchangeOver struct{ model.WriteFS }

func (osExchangeOver) Exchange(a, b string) error { return osExchange(a, b) }

func (osExchangeOver) Link(oldname, newname string) error { return os.Link(oldname, newname) }
