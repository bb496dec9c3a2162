//go:build unix

package model

import (
	"io/fs"
	"syscall"
)

const fastRead = true

// readPathInto is readRegularInto for the file full of the disk (name is
// the name errors give; listed the size a listing gave, -1 for none).
func readPathInto(full, name string, listed, max int64, buf *[]byte) ([]byte, error) {
	size := listed
	if size < 0 {
		var st syscall.Stat_t
		if err := retry(func() error { return syscall.Stat(full, &st) }); err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		if m := fileMode(uint32(st.Mode)); !m.IsRegular() {
			return nil, notRegular("open", name, m)
		}
		size = int64(st.Size)
	}
	var fd int
	err := retry(func() (err error) {
		fd, err = syscall.Open(full, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	data, err := readInto(func(b []byte) (int, error) {
		var n int
		err := retry(func() (err error) {
			n, err = syscall.Read(fd, b)
			return err
		})
		if err == syscall.EAGAIN {
			err = errAgain // a pipe put there since the stat: not waited on
		}
		return n, err
	}, name, size, max, buf)
	if listed >= 0 && (err != nil || int64(len(data)) < listed) {
		// Less than the listing said, or an error: a file that shrank,
		// or something else now in its place (a pipe without a writer
		// reads as empty). Its type says which.
		var st syscall.Stat_t
		if ferr := syscall.Fstat(fd, &st); ferr == nil {
			if m := fileMode(uint32(st.Mode)); !m.IsRegular() {
				return nil, notRegular("open", name, m)
			}
		}
	}
	return data, err
}

// retry calls fn again while it is interrupted by a signal.
func retry(fn func() error) error {
	for {
		if err := fn(); err != syscall.EINTR {
			return err
		}
	}
}

// fileMode is the type bits of a stat's mode as an fs.FileMode.
func fileMode(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFREG:
		return 0
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}
