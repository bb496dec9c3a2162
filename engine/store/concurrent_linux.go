//go:build linux

package store

import (
	"errors"
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// osExchangeSupported says the OS has an atomic exchange of two names.
const osExchangeSupported = true

var errExchangeUnsupported = errors.New("exchange not supported")

// osExchange swaps two paths atomically (renameat2 RENAME_EXCHANGE).
func osExchange(a, b string) error {
	if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
		return &fs.PathError{Op: "exchange", Path: b, Err: err}
	}
	return nil
}

// isUnsupportedErrno: the kernel or the file system has no exchange, or
// no hard links (some FUSE, network and FAT file systems).
func isUnsupportedErrno(err error) bool {
	return errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.EXDEV)
}
