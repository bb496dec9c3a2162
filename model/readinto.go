package model

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
)

// ReadRegularInto reads the regular file name of fsys, at most max bytes,
// into *buf, which it grows when it is short and which the caller keeps
// for the next file: the bytes returned are valid until the next call
// with buf. It refuses what OpenRegular refuses, and a file larger than
// max (a *TooLargeError).
//
// It is for reading thousands of small files (a search of the paste
// cache, the memory folders, file history): on a folder of the disk it
// asks the system four times per file (stat, open, read, close: the
// type is checked before the open, as DirFS does, and a file that grew
// since the stat is read on to its end) where OpenRegular and a read
// loop ask seven, which was most of the time such a search took.
func ReadRegularInto(fsys fs.FS, name string, max int64, buf *[]byte) ([]byte, error) {
	return readRegularInto(fsys, name, -1, max, buf)
}

// ReadListedInto is ReadRegularInto for a file a listing found a moment
// ago to be a regular file of size bytes (a folder's entries, read with
// their type and size to sort them): the type is not asked again, which
// leaves three calls per file. What the listing cannot promise still
// holds: a file that grew is read to its end, and one that became a pipe
// since is not waited on (it was opened without blocking).
func ReadListedInto(fsys fs.FS, name string, size, max int64, buf *[]byte) ([]byte, error) {
	return readRegularInto(fsys, name, size, max, buf)
}

// readRegularInto is ReadRegularInto; listed is the size a listing gave
// (-1: none).
func readRegularInto(fsys fs.FS, name string, listed, max int64, buf *[]byte) ([]byte, error) {
	switch f := fsys.(type) {
	case dirFS:
		if fastRead {
			full, err := f.join("open", name)
			if err != nil {
				return nil, err
			}
			return readPathInto(full, name, listed, max, buf)
		}
	case mountFS:
		if !fs.ValidPath(name) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
		}
		if rel, ok := f.rel(name); ok {
			return readRegularInto(f.sub, rel, listed, max, buf)
		}
		return readRegularInto(orEmpty(f.root), name, listed, max, buf)
	case *listedFS:
		return readRegularInto(f.fsys, name, listed, max, buf)
	}
	file, err := OpenRegular(fsys, name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	size := int64(-1)
	if st, err := file.Stat(); err == nil {
		size = st.Size()
	}
	return readInto(file.Read, name, size, max, buf)
}

// readInto reads with read (size bytes expected; -1 when not known) into
// *buf, at most max bytes.
func readInto(read func([]byte) (int, error), name string, size, max int64, buf *[]byte) ([]byte, error) {
	if size > max {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Size: size, Max: max}}
	}
	// One byte more than the size, so that a file that grew since its
	// stat is seen to (and read on, up to max).
	want := 64 << 10
	if size >= 0 {
		want = int(size) + 1
	}
	if cap(*buf) < want {
		*buf = make([]byte, 0, want)
	}
	data := (*buf)[:0]
	defer func() { *buf = data[:0] }()
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := read(data[len(data):cap(data)])
		if n > 0 {
			data = data[:len(data)+n]
		}
		if int64(len(data)) > max {
			return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Max: max}}
		}
		switch {
		case err == io.EOF || err == nil && n == 0:
			return data, nil
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		case int64(len(data)) == size:
			return data, nil // all the stat said: no need to ask again for the end
		}
	}
}

// errAgain is what a read of a named pipe put where a file was gives.
var errAgain = errors.New("the file is a pipe or a device with nothing to read")

// binaryProbe is how much of a file LooksBinary looks at.
const binaryProbe = 8 << 10

// LooksBinary reports a file that is not text: a NUL byte in its first
// 8 KiB, as grep decides (an image kept as a file-history backup, a
// compiled file in a project). Search, the secrets scan and lint's drift
// check skip such files by this one rule.
func LooksBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binaryProbe)], 0) >= 0
}
