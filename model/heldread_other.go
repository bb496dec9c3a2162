//go:build !linux

package model

import (
	"io"
	"io/fs"
)

// HeldRead: no file is opened from a held folder here (Open says
// false: the caller opens it the usual way).
type HeldRead struct{}

func (*HeldRead) Open(fs.FS, string) bool      { return false }
func (*HeldRead) Size() int64                  { return 0 }
func (*HeldRead) Stamp() FileStamp             { return FileStamp{} }
func (*HeldRead) Stat() (fs.FileInfo, error)   { return nil, fs.ErrInvalid }
func (*HeldRead) StampNow() (FileStamp, error) { return FileStamp{}, fs.ErrInvalid }
func (*HeldRead) Read([]byte) (int, error)     { return 0, io.EOF }
func (*HeldRead) Close() error                 { return nil }
