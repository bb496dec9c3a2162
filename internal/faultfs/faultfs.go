// Package faultfs is a model.WriteFS for tests that makes any one call of
// a write fail, as a full disk, a denied permission or a read-only mount
// does, so every write path (the atomic writer, the store, file-history
// restores, the retention archive, the CLI and the TUI) can be tested
// against each failure. Production code never imports it.
package faultfs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/memscope/memscope/model"
)

// Step names one kind of call a write makes.
type Step string

// The steps of a write, in the order the atomic writer takes them, then
// the calls of multi-file changes.
const (
	StepStat       Step = "stat"
	StepMkdir      Step = "mkdir"
	StepCreateTemp Step = "create-temp"
	StepChmod      Step = "chmod"
	StepWrite      Step = "write"
	StepSync       Step = "fsync"
	StepClose      Step = "close"
	StepChtimes    Step = "chtimes"
	StepRename     Step = "rename"
	StepSyncDir    Step = "fsync-dir"
	StepRemove     Step = "remove"
)

// Steps lists every Step.
var Steps = []Step{StepStat, StepMkdir, StepCreateTemp, StepChmod, StepWrite, StepSync, StepClose, StepChtimes, StepRename, StepSyncDir, StepRemove}

// Errnos are the errnos fault tests make every step fail with: a full
// disk, a denied permission, a read-only mount.
var Errnos = []syscall.Errno{syscall.ENOSPC, syscall.EACCES, syscall.EROFS}

// FS passes every call to Base (the real OS when nil) except the Nth call
// (1-based) of Step, which fails with Err wrapped the way package os wraps
// errnos (*fs.PathError, *os.LinkError for a rename). With Persist every
// later call of Step fails too, as on a read-only mount or a disk that
// stays full. A failed write writes half of the data first, as a full
// disk does. With Step empty nothing fails and FS only counts calls.
// RenameNoReplace is a call of StepRename. Safe for concurrent use.
type FS struct {
	Base    model.WriteFS
	Step    Step
	Nth     int
	Persist bool
	Err     syscall.Errno
	// OnCall, when set, is told of every call before it is made (a kill
	// test ends the process there).
	OnCall func(step Step, path string)

	mu    sync.Mutex
	calls map[Step]int
	hits  []string
}

// Calls returns how many calls of step were made.
func (f *FS) Calls(step Step) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[step]
}

// Hits returns the paths of the calls that were made to fail, in order.
func (f *FS) Hits() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.hits...)
}

// Heal makes every later call succeed, as when space was freed or the
// folder made writable again.
func (f *FS) Heal() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Step = ""
}

// fail counts a call of step on path and returns the error it must fail
// with, nil when it must go through.
func (f *FS) fail(step Step, op, path string) error {
	if f.OnCall != nil {
		f.OnCall(step, path)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[Step]int{}
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

func (f *FS) base() model.WriteFS {
	if f.Base == nil {
		return model.OSWriteFS{}
	}
	return f.Base
}

// Stat is WriteFS.Stat.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	if err := f.fail(StepStat, "stat", name); err != nil {
		return nil, err
	}
	return f.base().Stat(name)
}

// MkdirAll is WriteFS.MkdirAll.
func (f *FS) MkdirAll(dir string, perm fs.FileMode) error {
	if err := f.fail(StepMkdir, "mkdir", dir); err != nil {
		return err
	}
	return f.base().MkdirAll(dir, perm)
}

// CreateTemp is WriteFS.CreateTemp.
func (f *FS) CreateTemp(dir, pattern string) (model.TempFile, error) {
	if err := f.fail(StepCreateTemp, "open", filepath.Join(dir, pattern)); err != nil {
		return nil, err
	}
	t, err := f.base().CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &file{TempFile: t, fs: f}, nil
}

// Rename is WriteFS.Rename.
func (f *FS) Rename(from, to string) error {
	if err := f.fail(StepRename, "rename", from); err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: f.Err}
	}
	return f.base().Rename(from, to)
}

// RenameNoReplace is WriteFS.RenameNoReplace, a call of StepRename.
func (f *FS) RenameNoReplace(from, to string) error {
	if err := f.fail(StepRename, "rename", from); err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: f.Err}
	}
	return f.base().RenameNoReplace(from, to)
}

// Remove is WriteFS.Remove.
func (f *FS) Remove(name string) error {
	if err := f.fail(StepRemove, "remove", name); err != nil {
		return err
	}
	return f.base().Remove(name)
}

// Chtimes is WriteFS.Chtimes.
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	if err := f.fail(StepChtimes, "chtimes", name); err != nil {
		return err
	}
	return f.base().Chtimes(name, atime, mtime)
}

// SyncDir is WriteFS.SyncDir.
func (f *FS) SyncDir(dir string) error {
	if err := f.fail(StepSyncDir, "sync", dir); err != nil {
		return err
	}
	return f.base().SyncDir(dir)
}

// file is a temporary file of an FS.
type file struct {
	model.TempFile
	fs *FS
}

func (t *file) Chmod(mode fs.FileMode) error {
	if err := t.fs.fail(StepChmod, "chmod", t.Name()); err != nil {
		return err
	}
	return t.TempFile.Chmod(mode)
}

func (t *file) Write(p []byte) (int, error) {
	if err := t.fs.fail(StepWrite, "write", t.Name()); err != nil {
		n, _ := t.TempFile.Write(p[:len(p)/2])
		return n, err
	}
	return t.TempFile.Write(p)
}

func (t *file) Sync() error {
	if err := t.fs.fail(StepSync, "sync", t.Name()); err != nil {
		return err
	}
	return t.TempFile.Sync()
}

func (t *file) Close() error {
	if err := t.fs.fail(StepClose, "close", t.Name()); err != nil {
		// The descriptor is released all the same, as with close(2).
		t.TempFile.Close()
		return err
	}
	return t.TempFile.Close()
}

// String returns the step's name.
func (s Step) String() string { return string(s) }

// NoSync is the real OS without fsync, which fault tests do not need and
// which makes many small writes slow.
type NoSync struct{ model.OSWriteFS }

// CreateTemp is os.CreateTemp, its file without fsync.
func (NoSync) CreateTemp(dir, pattern string) (model.TempFile, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return noSyncFile{f}, nil
}

// SyncDir does nothing.
func (NoSync) SyncDir(string) error { return nil }

type noSyncFile struct{ *os.File }

func (noSyncFile) Sync() error { return nil }

// Cell is one case of a two-operation fault matrix: the first operation
// (Second false) or the second, failing at its Nth call of Step with Err.
type Cell struct {
	Second bool
	Step   Step
	Nth    int
	Err    syscall.Errno
	// Name is "<first|second>/<step>/<n>/<errno>", for t.Run.
	Name string
}

// Matrix lists the cells of a first operation and a second one (a
// change and its undo) run in turn through count: firstCalls are
// count's calls per step after the first, count's totals include the
// second's. pick chooses which calls of the n a step made fail (testenv
// Calls: every one in the long tests, the first or the last otherwise);
// errnos rotate over the cells.
func Matrix(first, second string, firstCalls map[Step]int, count *FS, pick func(n, cell int) []int) []Cell {
	var out []Cell
	for cell, isSecond := range []bool{false, true} {
		for si, step := range Steps {
			n, op := firstCalls[step], first
			if isSecond {
				n, op = count.Calls(step)-firstCalls[step], second
			}
			for _, k := range pick(n, si+cell) {
				errno := Errnos[(si+k)%len(Errnos)]
				out = append(out, Cell{Second: isSecond, Step: step, Nth: k, Err: errno, Name: fmt.Sprintf("%s/%s/%d/%s", op, step, k, errno)})
			}
		}
	}
	return out
}

// CallsOf is count's calls per step so far (the first operation's, for
// Matrix).
func CallsOf(count *FS) map[Step]int {
	calls := map[Step]int{}
	for _, st := range Steps {
		calls[st] = count.Calls(st)
	}
	return calls
}
