package main

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureRoot is the file system root ("/") a snapshot run sees once the
// CLI env takes one (issue 13, step 1): the real one, but only below
// base. A project path named by a fixture (testdata/home's /tmp/rc/work/beta,
// scripts/gen's /home/dev/work/...) may exist on the machine, with its
// own CLAUDE.md; through fixtureRoot it never does.
type fixtureRoot struct{ base string }

var (
	_ fs.StatFS     = fixtureRoot{}
	_ fs.ReadDirFS  = fixtureRoot{}
	_ fs.ReadFileFS = fixtureRoot{}
	_ fs.ReadLinkFS = fixtureRoot{}
)

// inner checks that name is base or below it and returns the real root.
func (f fixtureRoot) inner(op, name string) (fs.FS, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	b := strings.TrimPrefix(path.Clean(f.base), "/")
	if name != b && !strings.HasPrefix(name, b+"/") {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return os.DirFS("/"), nil
}

func (f fixtureRoot) Open(name string) (fs.File, error) {
	in, err := f.inner("open", name)
	if err != nil {
		return nil, err
	}
	return in.Open(name)
}

func (f fixtureRoot) Stat(name string) (fs.FileInfo, error) {
	in, err := f.inner("stat", name)
	if err != nil {
		return nil, err
	}
	return fs.Stat(in, name)
}

func (f fixtureRoot) ReadDir(name string) ([]fs.DirEntry, error) {
	in, err := f.inner("readdir", name)
	if err != nil {
		return nil, err
	}
	return fs.ReadDir(in, name)
}

func (f fixtureRoot) ReadFile(name string) ([]byte, error) {
	in, err := f.inner("readfile", name)
	if err != nil {
		return nil, err
	}
	return fs.ReadFile(in, name)
}

func (f fixtureRoot) ReadLink(name string) (string, error) {
	in, err := f.inner("readlink", name)
	if err != nil {
		return "", err
	}
	return fs.ReadLink(in, name)
}

func (f fixtureRoot) Lstat(name string) (fs.FileInfo, error) {
	in, err := f.inner("lstat", name)
	if err != nil {
		return nil, err
	}
	return fs.Lstat(in, name)
}

// fixtureRoot shows what is below its base and nothing else, through
// every way of reading the root the CLI uses.
func TestFixtureRootHidesTheMachine(t *testing.T) {
	base := t.TempDir()
	if err := os.WriteFile(filepath.Join(base, "CLAUDE.md"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := fixtureRoot{base: base}
	in := strings.TrimPrefix(filepath.ToSlash(base), "/") + "/CLAUDE.md"
	if data, err := fs.ReadFile(root, in); err != nil || string(data) != "inside" {
		t.Errorf("ReadFile(%s) = %q, %v; want the file below base", in, data, err)
	}
	if _, err := fs.Stat(root, path.Dir(in)); err != nil {
		t.Errorf("Stat(base) = %v", err)
	}
	// The module's go.mod exists on the machine, outside base.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	out := strings.TrimPrefix(filepath.ToSlash(filepath.Join(wd, "go.mod")), "/")
	for what, err := range map[string]error{
		"Open":     func() error { _, err := root.Open(out); return err }(),
		"Stat":     func() error { _, err := fs.Stat(root, out); return err }(),
		"Lstat":    func() error { _, err := fs.Lstat(root, out); return err }(),
		"ReadFile": func() error { _, err := fs.ReadFile(root, out); return err }(),
		"ReadDir":  func() error { _, err := fs.ReadDir(root, path.Dir(out)); return err }(),
		"ReadLink": func() error { _, err := fs.ReadLink(root, out); return err }(),
		"parent": func() error {
			_, err := fs.Stat(root, path.Dir(strings.TrimPrefix(filepath.ToSlash(base), "/")))
			return err
		}(),
	} {
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s outside base: %v, want not-exist", what, err)
		}
	}
}
