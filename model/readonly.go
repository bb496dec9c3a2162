package model

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"
)

// ReadOnlyError says memscope may not write in a folder: a read-only
// mount, a folder without write permission, a denied write. Dir is the
// folder; Err the error of the write that was refused.
type ReadOnlyError struct {
	Dir string
	Err error
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("read-only: memscope cannot write in %s (%v)", e.Dir, e.Err)
}

// Unwrap returns the refused write's error.
func (e *ReadOnlyError) Unwrap() error { return e.Err }

// IsReadOnly reports whether err means writes are refused (EROFS, EACCES,
// EPERM), as opposed to failing for want of space or some other cause.
func IsReadOnly(err error) bool {
	return errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrPermission)
}

// AsReadOnly returns err as a *ReadOnlyError on dir when it means writes
// are refused (one already is stays as it is), and err unchanged
// otherwise.
func AsReadOnly(dir string, err error) error {
	var ro *ReadOnlyError
	if err == nil || !IsReadOnly(err) || errors.As(err, &ro) {
		return err
	}
	return &ReadOnlyError{Dir: dir, Err: err}
}

// ProbeWritable tells whether a file can be created in dir, by creating
// and removing an empty temporary file through w: permission bits alone
// do not tell (root, read-only mounts, ACLs). A missing dir is probed at
// its nearest existing parent, where it would be created. A refusal is a
// *ReadOnlyError naming dir.
func ProbeWritable(w WriteFS, dir string) error {
	at := dir
	for {
		if _, err := w.Stat(at); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return AsReadOnly(dir, fmt.Errorf("probe %s: %w", at, err))
		}
		parent := filepath.Dir(at)
		if parent == at {
			break
		}
		at = parent
	}
	// The system's own writer (OSWriteFS itself, no writer wrapping it:
	// a test's faults go through CreateTemp) first creates an unnamed
	// file, which leaves the folder's times as they were. When it cannot
	// (not supported there, or refused), the named probe gives the answer
	// and its error.
	if _, ok := w.(OSWriteFS); ok && probeUnnamed(at) == nil {
		return nil
	}
	f, err := w.CreateTemp(at, OwnProbePattern())
	if err != nil {
		if !IsReadOnly(err) {
			return fmt.Errorf("probe %s: %w", at, err)
		}
		// The probe file's name means nothing to a reader: the cause is
		// the errno, and where it was refused when not dir itself.
		var cause error = err
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			cause = pe.Err
		}
		if at != dir {
			cause = fmt.Errorf("%s: %w", at, cause)
		}
		return &ReadOnlyError{Dir: dir, Err: cause}
	}
	name := f.Name()
	cerr := f.Close()
	if err := w.Remove(name); err != nil {
		return fmt.Errorf("probe %s: remove %s: %w", at, name, err)
	}
	if cerr != nil {
		return AsReadOnly(dir, fmt.Errorf("probe %s: %w", at, cerr))
	}
	return nil
}
