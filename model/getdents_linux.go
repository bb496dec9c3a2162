//go:build linux

package model

import (
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// readDirFD lists the folder open as fd (named parent, its full path)
// as an *os.File's ReadDir(-1) of it would, in the order the system
// gives, without making that *os.File: its making asks fcntl (F_GETFL)
// once a folder, some 1 000 calls at a cold start on W for the folders
// a listed home lists from its held descriptors. Its entries are os's:
// the type from the listing (an lstat when the file system does not say
// it, an entry gone meanwhile left out), Info an lstat of the entry by
// its full path. fd is not closed.
func readDirFD(fd int, parent string) ([]fs.DirEntry, error) {
	buf := make([]byte, 8192)
	var out []fs.DirEntry
	for {
		n, err := unix.ReadDirent(fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return out, &fs.PathError{Op: "readdirent", Path: parent, Err: err}
		}
		if n <= 0 {
			return out, nil
		}
		for b := buf[:n]; len(b) >= 19; {
			// struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name.
			ino := binary.NativeEndian.Uint64(b[0:8])
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				return out, &fs.PathError{Op: "readdirent", Path: parent, Err: syscall.EIO}
			}
			typ, name := b[18], b[19:reclen]
			b = b[reclen:]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			if ino == 0 || string(name) == "." || string(name) == ".." {
				continue
			}
			e := &fdDirent{parent: parent, name: string(name), typ: dtType(typ)}
			if e.typ == ^fs.FileMode(0) {
				info, err := os.Lstat(parent + "/" + e.name)
				if err != nil {
					if errors.Is(err, fs.ErrNotExist) {
						continue
					}
					return out, err
				}
				e.typ = info.Mode().Type()
			}
			out = append(out, e)
		}
	}
}

// dtType is the type a listing's d_type says (os's dtToType: DT_x is
// S_IFx >> 12); ^0 when it says none.
func dtType(t byte) fs.FileMode {
	if m := fileMode(uint32(t) << 12); m != fs.ModeIrregular {
		return m
	}
	return ^fs.FileMode(0)
}

// fdDirent is an entry readDirFD listed (os's unixDirent).
type fdDirent struct {
	parent string
	name   string
	typ    fs.FileMode
}

func (d *fdDirent) Name() string      { return d.name }
func (d *fdDirent) IsDir() bool       { return d.typ.IsDir() }
func (d *fdDirent) Type() fs.FileMode { return d.typ }
func (d *fdDirent) Info() (fs.FileInfo, error) {
	return os.Lstat(d.parent + "/" + d.name)
}
func (d *fdDirent) String() string { return fs.FormatDirEntry(d) }

// heldDir is a folder a home's file system opened beneath the home
// (reopenPath): listed from its descriptor by readDirFD, no *os.File
// around it (whose making asks fcntl: some 1 700 folders at a cold
// start on W, the leftover walk's and the kept listings'). Its other
// methods are a heldFile's (a read fails as an *os.File's of a folder
// does: is a directory). ReadDir reads the whole listing at its first
// call and hands it out as os's does, n at a time (io.EOF at the end)
// or the rest.
type heldDir struct {
	*heldFile
	listed bool
	ents   []fs.DirEntry
	err    error
}

func (d *heldDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if d.done.Load() {
		return nil, &fs.PathError{Op: "readdirent", Path: d.name, Err: fs.ErrClosed}
	}
	if !d.listed {
		d.listed = true
		d.ents, d.err = readDirFD(d.fd, d.name)
		runtime.KeepAlive(d.heldFile)
	}
	if n <= 0 || n >= len(d.ents) {
		out, err := d.ents, d.err
		d.ents, d.err = nil, nil
		if n > 0 && len(out) == 0 && err == nil {
			return nil, io.EOF
		}
		return out, err
	}
	out := d.ents[:n:n]
	d.ents = d.ents[n:]
	return out, nil
}
