//go:build linux

package model

import (
	"errors"

	"golang.org/x/sys/unix"
)

// probeUnnamed creates an unnamed file in the folder dir (O_TMPFILE) and
// closes it, which the system then drops: the kernel checks the create
// as it would a named one's (the folder's write permission, ACLs, a
// read-only mount, an immutable folder, the security modules), but no
// entry is added or removed, so the folder's modification and change
// times stay as they were. A folder whose times move at every start is
// one every stamp-checked listing (TrustedFolders, the leftover walk's
// cache, the write-once folders) must read again at the next.
func probeUnnamed(dir string) error {
	for {
		fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o600)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		return unix.Close(fd)
	}
}
