package testenv

import (
	"io"
	"io/fs"
	"sync/atomic"
)

// ReadCounter is an fs.FS that counts in N the bytes read (Read and
// ReadAt) from the files Count says, by name: a test's proof that a
// reader read a file once, or only what was appended to it.
type ReadCounter struct {
	fs.FS
	Count func(name string) bool
	N     atomic.Int64
}

func (c *ReadCounter) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil || !c.Count(name) {
		return f, err
	}
	return &countedFile{File: f, n: &c.N}, nil
}

func (c *ReadCounter) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

func (c *ReadCounter) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }

type countedFile struct {
	fs.File
	n *atomic.Int64
}

func (f *countedFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.n.Add(int64(n))
	return n, err
}

func (f *countedFile) ReadAt(p []byte, off int64) (int, error) {
	ra, ok := f.File.(io.ReaderAt)
	if !ok {
		return 0, fs.ErrInvalid
	}
	n, err := ra.ReadAt(p, off)
	f.n.Add(int64(n))
	return n, err
}

func (f *countedFile) Seek(off int64, whence int) (int64, error) {
	s, ok := f.File.(io.Seeker)
	if !ok {
		return 0, fs.ErrInvalid
	}
	return s.Seek(off, whence)
}

// InfoLooked is the folder entry e whose Info calls look first: a test's
// count of the files a reader looked at (lstat'ed) through a listing.
func InfoLooked(e fs.DirEntry, look func()) fs.DirEntry { return &infoLooked{DirEntry: e, look: look} }

type infoLooked struct {
	fs.DirEntry
	look func()
}

func (e *infoLooked) Info() (fs.FileInfo, error) {
	e.look()
	return e.DirEntry.Info()
}
