//go:build linux

package model

import (
	"testing"

	"golang.org/x/sys/unix"
)

// kernelOpenat2 says whether this kernel answers openat2 (Linux 5.6 and
// later), asked of a temporary folder: a test states what each kind of
// kernel does, instead of skipping on the other.
func kernelOpenat2(t *testing.T) bool {
	t.Helper()
	if fd, ok, err := openPathBeneath("probe", t.TempDir(), "."); ok && err == nil {
		unix.Close(fd)
	}
	return !noOpenat2.Load()
}

// eachKernel runs f as this kernel does (byName: openat2 answers, so a
// held folder's files are opened by name) and as a kernel without
// openat2 does (byName false: every name goes ResolveInside's way).
func eachKernel(t *testing.T, f func(t *testing.T, byName bool)) {
	t.Run("this kernel", func(t *testing.T) { f(t, kernelOpenat2(t)) })
	t.Run("without openat2", func(t *testing.T) {
		was := noOpenat2.Load()
		noOpenat2.Store(true)
		defer noOpenat2.Store(was)
		f(t, false)
	})
}
