package store

import (
	"crypto/sha256"
	"encoding/hex"
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

// maxGrowing bounds a file ReplaceGrowing reads.
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
	return ReplaceGrowingFrom(w, path, StampOf(base, true, nil), func(out io.Writer) error {
		_, err := out.Write(data)
		return err
	}, perm, modTime)
}

// ReplaceGrowingFrom is ReplaceGrowing with the file as the caller read
// it named by its stamp (its size and hash: the file must start with
// those bytes) and the new content streamed by write: neither version
// is held in memory (a scrub of a transcript of hundreds of megabytes
// holds the one copy it edits). write may be called more than once
// (each call writes it all again).
func ReplaceGrowingFrom(w model.WriteFS, path string, base FileStamp, write func(io.Writer) error, perm fs.FileMode, modTime time.Time) error {
	d, ok := DirFSWith(filepath.Dir(path), w).(dirFS)
	if !ok {
		return fmt.Errorf("write %s: no folder file system", path)
	}
	base.ModTime = time.Time{}
	name := filepath.Base(path)
	if x := d.exchanger(); x != nil && leaseSupported {
		err := d.replaceLeased(x, name, base, write, perm, modTime)
		if !errors.Is(err, errNoLease) {
			return named(err, path)
		}
	}
	f, err := model.OpenRegularFile(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	extra, cur, err := readPast(f, st.Size(), base, path)
	if err != nil {
		return err
	}
	if len(extra) > 0 {
		if st, err := os.Lstat(path); err == nil {
			modTime = st.ModTime()
		}
	}
	return replaceIfUnchangedFrom(w, path, cur, func(out io.Writer) error {
		if err := write(out); err != nil {
			return err
		}
		_, err := out.Write(extra)
		return err
	}, perm, modTime)
}

// readPast checks that f, size bytes long, starts with the bytes base
// stamps, and returns what follows them and f's stamp, reading f once
// and holding only what follows. When f does not start with them the
// error is a *ConflictError (Path name).
func readPast(f io.ReaderAt, size int64, base FileStamp, name string) ([]byte, FileStamp, error) {
	if size > maxGrowing {
		return nil, FileStamp{}, fmt.Errorf("%s is %d bytes, more than memscope reads (%d)", name, size, maxGrowing)
	}
	h := sha256.New()
	if size >= base.Size {
		if _, err := io.Copy(h, io.NewSectionReader(f, 0, base.Size)); err != nil {
			return nil, FileStamp{}, fmt.Errorf("read %s: %w", name, err)
		}
		if hex.EncodeToString(h.Sum(nil)) == base.SHA256 {
			extra := make([]byte, size-base.Size)
			if _, err := io.ReadFull(io.NewSectionReader(f, base.Size, int64(len(extra))), extra); err != nil {
				return nil, FileStamp{}, fmt.Errorf("read %s: %w", name, err)
			}
			h.Write(extra)
			return extra, FileStamp{Exists: true, Size: size, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
		}
		h.Reset()
	}
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, size)); err != nil {
		return nil, FileStamp{}, fmt.Errorf("read %s: %w", name, err)
	}
	now := FileStamp{Exists: true, Size: size, SHA256: hex.EncodeToString(h.Sum(nil))}
	return nil, now, &ConflictError{Path: name, Read: base, Now: now, During: "scrub"}
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
func (d dirFS) replaceLeased(x exchangeFS, name string, base FileStamp, write func(io.Writer) error, perm fs.FileMode, modTime time.Time) error {
	tp, err := d.abs(name)
	if err != nil {
		return err
	}
	// The new version is staged first, so the lease (which makes the
	// file's other openers wait) is held only while it is read and
	// exchanged, not while a large file is written.
	staged, err := d.stageFrom(name, write, perm, modTime)
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
	// Under the lease nothing appends: the old version is read once, to
	// check it starts with base and to take what follows.
	extra, _, err := readPast(old, oldInfo.Size(), base, name)
	if err != nil {
		return err
	}
	size := base.Size + int64(len(extra))
	if leasedHook != nil {
		leasedHook(old)
	}
	if len(extra) > 0 {
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
			return &ConflictError{Path: name, Read: base, During: "scrub"}
		}
		if unsupported(err) {
			// Leases but no exchange: a rename, checked just before.
			if st, serr := os.Lstat(tp); serr != nil || !os.SameFile(st, oldInfo) {
				return &ConflictError{Path: name, Read: base, During: "scrub"}
			}
			if err := x.Rename(sp, tp); err != nil {
				return fmt.Errorf("rename %s: %w", staged, err)
			}
			keep = true // the name is the new version's now
			x.SyncDir(parentDir(tp))
			return carry(old, size, tp, newInfo, "")
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
		return &ConflictError{Path: name, Read: base, During: "scrub"}
	}
	x.SyncDir(parentDir(tp))
	if err := carry(old, size, tp, newInfo, sp); err != nil {
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

// WithOSExchange is w with the OS's atomic exchange and link, so a write
// through a wrapped WriteFS (a test's faultfs, or one without fsync)
// takes the checked path production takes on the real OS.
func WithOSExchange(w model.WriteFS) model.WriteFS { return osExchangeOver{w} }

type osExchangeOver struct{ model.WriteFS }

func (osExchangeOver) Exchange(a, b string) error { return osExchange(a, b) }

func (osExchangeOver) Link(oldname, newname string) error { return os.Link(oldname, newname) }
