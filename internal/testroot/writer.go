package testroot

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// Writer returns the writer (model.WriteFS) for a test: the real file
// system, refusing every write outside t's temporary folders and dirs.
// A refused write fails the test (it names the path) and returns an
// error matching fs.ErrPermission, so a test that would write to a fake
// home's path on the machine, as a journal under /nonexistent/… did,
// fails instead.
func Writer(t testing.TB, dirs ...string) model.WriteFS {
	t.Helper()
	allowed := []string{testDir(t)}
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		allowed = append(allowed, abs)
	}
	return guardedFS{WriteFS: model.OSWriteFS{}, t: t, why: "a test writes only in its temporary folders",
		refused: func(abs string) bool { return !Inside(abs, allowed...) }}
}

// ReadOnly returns w refusing, as Writer does, every write in dirs
// (absolute): folders the tests of a binary share, that each only reads.
func ReadOnly(t testing.TB, w model.WriteFS, dirs ...string) model.WriteFS {
	return guardedFS{WriteFS: w, t: t, why: "tests share this folder and only read it",
		refused: func(abs string) bool { return Inside(abs, dirs...) }}
}

// guardedFS is Writer's and ReadOnly's model.WriteFS: w, refusing the
// names refused says, for the reason why.
type guardedFS struct {
	model.WriteFS
	t       testing.TB
	refused func(abs string) bool
	why     string
}

// check refuses a name outside the allowed folders.
func (g guardedFS) check(op string, names ...string) error {
	for _, name := range names {
		abs, err := filepath.Abs(name)
		if err != nil {
			return err
		}
		if g.refused(abs) {
			err := fmt.Errorf("testroot: %s %s: %s: %w", op, name, g.why, fs.ErrPermission)
			g.t.Error(err)
			return err
		}
	}
	return nil
}

// Inside reports whether abs is one of dirs or under one of them.
func Inside(abs string, dirs ...string) bool {
	for _, d := range dirs {
		if abs == d || strings.HasPrefix(abs, strings.TrimSuffix(d, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func (g guardedFS) MkdirAll(dir string, perm fs.FileMode) error {
	if err := g.check("mkdir", dir); err != nil {
		return err
	}
	return g.WriteFS.MkdirAll(dir, perm)
}

func (g guardedFS) CreateTemp(dir, pattern string) (model.TempFile, error) {
	if err := g.check("create", dir); err != nil {
		return nil, err
	}
	return g.WriteFS.CreateTemp(dir, pattern)
}

func (g guardedFS) Rename(from, to string) error {
	if err := g.check("rename", from, to); err != nil {
		return err
	}
	return g.WriteFS.Rename(from, to)
}

func (g guardedFS) RenameNoReplace(from, to string) error {
	if err := g.check("rename", from, to); err != nil {
		return err
	}
	return g.WriteFS.RenameNoReplace(from, to)
}

func (g guardedFS) Remove(name string) error {
	if err := g.check("remove", name); err != nil {
		return err
	}
	return g.WriteFS.Remove(name)
}

func (g guardedFS) Chtimes(name string, atime, mtime time.Time) error {
	if err := g.check("chtimes", name); err != nil {
		return err
	}
	return g.WriteFS.Chtimes(name, atime, mtime)
}
