package model

import (
	"io/fs"
	"os"
	"time"
)

// WriteFS is every file-system call a write makes: the atomic writer's
// steps and the renames and removals of multi-file changes. OSWriteFS
// makes them on the real OS; tests wrap it (internal/faultfs) to make any
// one step fail, so every write path can be tested against a full disk, a
// denied permission or a read-only mount.
type WriteFS interface {
	// Stat is os.Stat.
	Stat(name string) (fs.FileInfo, error)
	// MkdirAll is os.MkdirAll.
	MkdirAll(dir string, perm fs.FileMode) error
	// CreateTemp is os.CreateTemp.
	CreateTemp(dir, pattern string) (TempFile, error)
	// Rename is os.Rename.
	Rename(from, to string) error
	// RenameNoReplace is Rename that fails, with an error matching
	// fs.ErrExist, when to exists: a file that appeared meanwhile is
	// never replaced.
	RenameNoReplace(from, to string) error
	// Remove is os.Remove.
	Remove(name string) error
	// Chtimes is os.Chtimes.
	Chtimes(name string, atime, mtime time.Time) error
	// SyncDir fsyncs the folder dir, which makes renames and removals in
	// it durable.
	SyncDir(dir string) error
}

// TempFile is the part of *os.File a write uses.
type TempFile interface {
	Name() string
	Chmod(mode fs.FileMode) error
	Write(p []byte) (int, error)
	Sync() error
	Close() error
}

// OSWriteFS is the WriteFS of the real OS.
type OSWriteFS struct{}

// Stat is os.Stat.
func (OSWriteFS) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }

// MkdirAll is os.MkdirAll.
func (OSWriteFS) MkdirAll(dir string, perm fs.FileMode) error { return os.MkdirAll(dir, perm) }

// CreateTemp is os.CreateTemp.
func (OSWriteFS) CreateTemp(dir, pattern string) (TempFile, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		// A nil *os.File in a TempFile would not compare equal to nil.
		return nil, err
	}
	return f, nil
}

// Rename is os.Rename.
func (OSWriteFS) Rename(from, to string) error { return os.Rename(from, to) }

// RenameNoReplace renames in one call where the OS can refuse an
// existing target (renameat2 RENAME_NOREPLACE on Linux); elsewhere it
// links to (which fails on an existing to) and removes from, and where
// the file system has no hard links it checks, then renames.
func (OSWriteFS) RenameNoReplace(from, to string) error { return renameNoReplace(from, to) }

// Remove is os.Remove.
func (OSWriteFS) Remove(name string) error { return os.Remove(name) }

// Chtimes is os.Chtimes.
func (OSWriteFS) Chtimes(name string, atime, mtime time.Time) error {
	return os.Chtimes(name, atime, mtime)
}

// SyncDir opens dir and fsyncs it.
func (OSWriteFS) SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
