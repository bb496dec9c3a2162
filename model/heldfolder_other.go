//go:build !linux

package model

import (
	"io"
	"io/fs"
)

// heldFolder: no held folder to open files from here.
type heldFolder struct{}

func openHeldFolder(fs.FS, string) (heldFolder, bool) { return heldFolder{}, false }

func (heldFolder) close() {}

func (heldFolder) open(string) (fdReader, fs.FileInfo, bool) { return fdReader{}, nil, false }

// fdReader: no descriptors read here.
type fdReader struct{}

func (fdReader) Read([]byte) (int, error) { return 0, io.EOF }

func (fdReader) Close() error { return nil }

// heldFile: no file is opened from a held folder here.
type heldFile struct {
	fdReader
	info fs.FileInfo
}

func (*heldFile) Stat() (fs.FileInfo, error) { return nil, fs.ErrInvalid }

// heldDir: no folder is opened from a held folder here.
type heldDir struct {
	*heldFile
}
