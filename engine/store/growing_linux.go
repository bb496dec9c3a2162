//go:build linux

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// leaseSupported says the OS has file leases (fcntl F_SETLEASE).
const leaseSupported = true

const syscallNoFollow = syscall.O_NOFOLLOW

// takeLease takes a write lease on f, which succeeds only while no other
// descriptor of the file is open, trying until wait has passed. A file
// system or an owner that allows no lease gives errNoLease.
func takeLease(f *os.File, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	pause := 50 * time.Microsecond
	for {
		_, err := unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_WRLCK)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINVAL), errors.Is(err, syscall.EACCES), errors.Is(err, syscall.ENOSYS), errors.Is(err, syscall.EPERM):
			return errNoLease
		case !errors.Is(err, syscall.EAGAIN) && !errors.Is(err, syscall.EBUSY):
			return fmt.Errorf("lease %s: %w", f.Name(), err)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %w", f.Name(), ErrHeldOpen)
		}
		time.Sleep(pause)
		pause = min(2*pause, 5*time.Millisecond)
	}
}

// releaseLease gives f's lease up: a waiting open goes on.
func releaseLease(f *os.File) { unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_UNLCK) }

// settled reports whether f's lease is still whole after a moment: no
// open of the file is waiting on it (a waiting open breaks it, and the
// lease then reads as being given up).
func settled(f *os.File) bool {
	for range 2 {
		time.Sleep(500 * time.Microsecond)
		if t, err := unix.FcntlInt(f.Fd(), unix.F_GETLEASE, 0); err != nil || t != unix.F_WRLCK {
			return false
		}
	}
	return true
}
