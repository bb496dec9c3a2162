package model

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// linkNoReplace is RenameNoReplace by a hard link: link fails when to
// exists, so nothing is replaced. A file system without hard links
// (FAT, some network and FUSE mounts) falls back to a check, then a
// rename, which leaves only the instant between the two open.
func linkNoReplace(from, to string) error {
	err := os.Link(from, to)
	switch {
	case err == nil:
		if rerr := os.Remove(from); rerr != nil {
			// Two names for the new file: take the new one back, so an
			// error still means to did not change.
			if uerr := os.Remove(to); uerr != nil {
				return fmt.Errorf("rename %s: %w (and %s, linked in its place, could not be removed: %w)", from, rerr, to, uerr)
			}
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: rerr}
		}
		return nil
	case errors.Is(err, fs.ErrExist) || !linkUnsupported(err):
		return err
	}
	if _, err := os.Lstat(to); err == nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EEXIST}
	}
	return os.Rename(from, to)
}

// linkUnsupported reports whether err says the file system has no hard
// links.
func linkUnsupported(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EOPNOTSUPP)
}
