package model

import (
	"io/fs"
	"path"
	"strings"
)

// Sub is fs.Sub(fsys, dir) that keeps fsys's RegularOpener: fs.Sub's view
// offers only Open, ReadDir, ReadFile and a few more, so OpenRegular on it
// stats each file on its own before opening it (twice the system calls
// for every memory file the gate reads on a write). Names and errors are
// fs.Sub's.
func Sub(fsys fs.FS, dir string) (fs.FS, error) {
	s, err := fs.Sub(fsys, dir)
	if err != nil || dir == "." {
		return s, err
	}
	ro, ok := fsys.(RegularOpener)
	if !ok {
		return s, nil
	}
	sub, ok := s.(subView)
	if !ok {
		return s, nil
	}
	return regularSub{subView: sub, parent: ro, dir: dir}, nil
}

// subView is what fs.Sub's view implements.
type subView interface {
	fs.ReadDirFS
	fs.ReadFileFS
	fs.SubFS
}

// regularSub is fs.Sub's view with the parent's OpenRegular.
type regularSub struct {
	subView
	parent RegularOpener
	dir    string
}

// OpenRegular opens name through the parent's OpenRegular.
func (s regularSub) OpenRegular(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := s.parent.OpenRegular(path.Join(s.dir, name))
	if pe, ok := err.(*fs.PathError); ok {
		if rest, ok := strings.CutPrefix(pe.Path, s.dir+"/"); ok {
			pe.Path = rest
		} else if pe.Path == s.dir {
			pe.Path = "."
		}
	}
	return f, err
}
