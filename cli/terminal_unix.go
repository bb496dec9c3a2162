//go:build unix

package cli

import "golang.org/x/sys/unix"

// isTerminalFd reports whether fd is a terminal: only a terminal answers
// the window-size request (golang.org/x/sys, which the model's file
// reading uses already, so the hook binary links no terminal library).
func isTerminalFd(fd uintptr) bool {
	_, err := unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ)
	return err == nil
}
