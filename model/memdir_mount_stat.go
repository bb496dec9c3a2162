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

// ReadLink makes a mounted tree an fs.ReadLinkFS, so a link in it (a
// process's /proc/<pid>/fd entries) reads as it does in the tree mounted.
func (m mountFS) ReadLink(name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	if rel, ok := m.rel(name); ok {
		return fs.ReadLink(m.sub, rel)
	}
	return fs.ReadLink(orEmpty(m.root), name)
}

// Lstat is ReadLinkFS's other half: the link itself, not its target.
func (m mountFS) Lstat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrInvalid}
	}
	if rel, ok := m.rel(name); ok {
		return fs.Lstat(m.sub, rel)
	}
	return fs.Lstat(orEmpty(m.root), name)
}
