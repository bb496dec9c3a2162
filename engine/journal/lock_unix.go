//go:build unix

package journal

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive flock on f, waiting for it; the kernel
// releases it when the process ends, so a crash leaves no stale lock.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

func unlockFile(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// openLockFile opens (creating) the lock file, never through a link.
func openLockFile(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
}
