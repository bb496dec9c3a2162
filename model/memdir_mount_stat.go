package model

import "io/fs"

// Stat makes a mounted tree an fs.StatFS: fs.Stat would otherwise open
// the file to stat it, and opening a FIFO blocks until a writer comes
// (a hostile home, or a transcript path a status line is handed).
func (m mountFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	if rel, ok := m.rel(name); ok {
		return fs.Stat(m.sub, rel)
	}
	return fs.Stat(orEmpty(m.root), name)
}

// Lstat is fs.Lstat: a link is not followed, in the mounted file system
// as in the root.
func (m mountFS) Lstat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrInvalid}
	}
	if rel, ok := m.rel(name); ok {
		return fs.Lstat(m.sub, rel)
	}
	return fs.Lstat(orEmpty(m.root), name)
}

// ReadLink is fs.ReadLink.
func (m mountFS) ReadLink(name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	if rel, ok := m.rel(name); ok {
		return fs.ReadLink(m.sub, rel)
	}
	return fs.ReadLink(orEmpty(m.root), name)
}
