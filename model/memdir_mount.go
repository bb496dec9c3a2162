package model

import (
	"io/fs"
	"strings"
)

// MountFS returns an fs.FS rooted at "/" (names as RootName gives them)
// that reads root, except that the folder at (absolute) and everything
// under it are read from sub. It lets the embedded demo home, or a home
// given as its own fs.FS, sit at its path in the one tree that memory and
// CLAUDE.md lookups walk. A nil root has no files outside the mount.
func MountFS(root fs.FS, at string, sub fs.FS) fs.FS {
	return mountFS{root: root, at: RootName(at), sub: sub}
}

type mountFS struct {
	root fs.FS
	at   string
	sub  fs.FS
}

func (m mountFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if rel, ok := m.rel(name); ok {
		return m.sub.Open(rel)
	}
	return orEmpty(m.root).Open(name)
}

func (m mountFS) rel(name string) (string, bool) {
	switch {
	case m.at == ".":
		return name, true
	case name == m.at:
		return ".", true
	case strings.HasPrefix(name, m.at+"/"):
		return name[len(m.at)+1:], true
	}
	return "", false
}

// emptyFS has no files; it stands in for a missing fs.FS so lookups report
// "not found" instead of failing on a nil interface.
type emptyFS struct{}

func (emptyFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// orEmpty returns fsys, or an empty file system when fsys is nil.
func orEmpty(fsys fs.FS) fs.FS {
	if fsys == nil {
		return emptyFS{}
	}
	return fsys
}

// HoldWalk holds the home's folder (HoldHome) for one walk, when fsys is
// a home's own file system (HomeFS, TrustingFS) or a machine's with one
// mounted (MountFS): each folder listed and each file looked at under
// the home is then resolved from that one descriptor instead of the home
// opened by its path again (W's cold start opened the home's root some
// 3 300 times: the walk of its session files, the leftover walk, the
// memory stores' checks). A walk is one moment, as a command's run is: a
// home renamed away during it is read as it was when the walk began, and
// the next walk opens it anew. Other file systems hold nothing.
func HoldWalk(fsys fs.FS) (release func()) {
	switch f := fsys.(type) {
	case dirFS:
		if f.inside {
			return HoldHome(f.dir)
		}
	case mountFS:
		return HoldWalk(f.sub)
	}
	return func() {}
}
