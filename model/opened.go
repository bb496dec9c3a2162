package model

import (
	"io/fs"
	"os"
)

// openedFile is a file a home's file system opened beneath the home
// (reopenBeneath), with what the kernel said of it at that open: the
// fstat of the path descriptor it was opened from, the very file, taken
// to refuse a pipe or a device before opening it. OpenedInfo hands that
// answer over, so a reader that stamps or sizes the file it just opened
// does not ask the kernel again (one fstat a file: a cold stat opens some
// 12 000). Every method but Stat's shortcut is the *os.File's.
type openedFile struct {
	*os.File
	info fs.FileInfo
}

// OpenedInfo is f.Stat() for a file just opened, before anything was
// read from it: for a file a home's file system opened (OpenRegular,
// Open), the answer its open already had, else f.Stat(). A caller that
// read from f, or waits, asks f.Stat() for the file as it is now.
func OpenedInfo(f fs.File) (fs.FileInfo, error) {
	switch o := f.(type) {
	case *openedFile:
		return o.info, nil
	case *heldFile:
		return o.info, nil
	case *heldDir:
		return o.info, nil
	}
	return f.Stat()
}

// osFile is the *os.File f is, or holds.
func osFile(f fs.File) (*os.File, bool) {
	switch f := f.(type) {
	case *os.File:
		return f, true
	case *openedFile:
		return f.File, true
	}
	return nil, false
}
