//go:build linux

package feed

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// lockNiceThread wires the calling goroutine to its thread for good (the
// thread ends with it) and raises the thread's nice value by by (to 19
// at most): Linux keeps a nice value per thread.
func lockNiceThread(by int) {
	runtime.LockOSThread()
	if nice, ok := threadNice(); ok && nice < 19 {
		_ = unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), min(nice+by, 19))
	}
}

// threadNice is the calling thread's nice value; ok is false where it
// cannot be read.
func threadNice() (nice int, ok bool) {
	// getpriority(2) returns 20 - nice.
	prio, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
	return 20 - prio, err == nil
}
