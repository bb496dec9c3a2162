package model

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// FaultStep names one kind of call a write makes, for FaultFS.
type FaultStep string

// The steps of a write, in the order the atomic writer takes them, then
// the calls of multi-file changes.
const (
	StepStat       FaultStep = "stat"
	StepMkdir      FaultStep = "mkdir"
	StepCreateTemp FaultStep = "create-temp"
	StepChmod      FaultStep = "chmod"
	StepWrite      FaultStep = "write"
	StepSync       FaultStep = "fsync"
	StepClose      FaultStep = "close"
	StepRename     FaultStep = "rename"
	StepSyncDir    FaultStep = "fsync-dir"
	StepRemove     FaultStep = "remove"
)

// FaultSteps lists every FaultStep.
var FaultSteps = []FaultStep{StepStat, StepMkdir, StepCreateTemp, StepChmod, StepWrite, StepSync, StepClose, StepRename, StepSyncDir, StepRemove}

// FaultFS is a WriteFS for tests: it passes every call to Base (the real
// OS when nil) except the Nth call (1-based) of Step, which fails with
// Err wrapped the way package os wraps errnos (*fs.PathError,
// *os.LinkError for a rename). With Persist every later call of Step
// fails too, as on a read-only mount or a disk that stays full. A failed
// write writes half of the data first, as a full disk does. With Step
// empty nothing fails and FaultFS only counts calls. Safe for
// concurrent use.
type FaultFS struct {
	Base    WriteFS
	Step    FaultStep
	Nth     int
	Persist bool
	Err     syscall.Errno

	mu    sync.Mutex
	calls map[FaultStep]int
	hits  []string
}

// Calls returns how many calls of step were made.
func (f *FaultFS) Calls(step FaultStep) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[step]
}

// Hits returns the paths of the calls that were made to fail, in order.
func (f *FaultFS) Hits() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.hits...)
}

// Heal makes every later call succeed, as when space was freed or the
// folder made writable again.
func (f *FaultFS) Heal() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Step = ""
}

// fail counts a call of step on path and returns the error it must fail
// with, nil when it must go through.
func (f *FaultFS) fail(step FaultStep, op, path string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[FaultStep]int{}
	}
	f.calls[step]++
	n := f.calls[step]
	nth := max(f.Nth, 1)
	if f.Step != step || n < nth || n > nth && !f.Persist {
		return nil
	}
	f.hits = append(f.hits, path)
	return &fs.PathError{Op: op, Path: path, Err: f.Err}
}

func (f *FaultFS) base() WriteFS {
	if f.Base == nil {
		return OSWriteFS{}
	}
	return f.Base
}

// Stat is WriteFS.Stat.
func (f *FaultFS) Stat(name string) (fs.FileInfo, error) {
	if err := f.fail(StepStat, "stat", name); err != nil {
		return nil, err
	}
	return f.base().Stat(name)
}

// MkdirAll is WriteFS.MkdirAll.
func (f *FaultFS) MkdirAll(dir string, perm fs.FileMode) error {
	if err := f.fail(StepMkdir, "mkdir", dir); err != nil {
		return err
	}
	return f.base().MkdirAll(dir, perm)
}

// CreateTemp is WriteFS.CreateTemp.
func (f *FaultFS) CreateTemp(dir, pattern string) (TempFile, error) {
	if err := f.fail(StepCreateTemp, "open", filepath.Join(dir, pattern)); err != nil {
		return nil, err
	}
	t, err := f.base().CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &faultFile{TempFile: t, fs: f}, nil
}

// Rename is WriteFS.Rename.
func (f *FaultFS) Rename(from, to string) error {
	if err := f.fail(StepRename, "rename", from); err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: f.Err}
	}
	return f.base().Rename(from, to)
}

// Remove is WriteFS.Remove.
func (f *FaultFS) Remove(name string) error {
	if err := f.fail(StepRemove, "remove", name); err != nil {
		return err
	}
	return f.base().Remove(name)
}

// SyncDir is WriteFS.SyncDir.
func (f *FaultFS) SyncDir(dir string) error {
	if err := f.fail(StepSyncDir, "sync", dir); err != nil {
		return err
	}
	return f.base().SyncDir(dir)
}

// faultFile is a temporary file of a FaultFS.
type faultFile struct {
	TempFile
	fs *FaultFS
}

func (t *faultFile) Chmod(mode fs.FileMode) error {
	if err := t.fs.fail(StepChmod, "chmod", t.Name()); err != nil {
		return err
	}
	return t.TempFile.Chmod(mode)
}

func (t *faultFile) Write(p []byte) (int, error) {
	if err := t.fs.fail(StepWrite, "write", t.Name()); err != nil {
		n, _ := t.TempFile.Write(p[:len(p)/2])
		return n, err
	}
	return t.TempFile.Write(p)
}

func (t *faultFile) Sync() error {
	if err := t.fs.fail(StepSync, "sync", t.Name()); err != nil {
		return err
	}
	return t.TempFile.Sync()
}

func (t *faultFile) Close() error {
	if err := t.fs.fail(StepClose, "close", t.Name()); err != nil {
		// The descriptor is released all the same, as with close(2).
		t.TempFile.Close()
		return err
	}
	return t.TempFile.Close()
}

// String returns the step's name.
func (s FaultStep) String() string { return string(s) }
