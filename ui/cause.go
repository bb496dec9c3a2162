package ui

import (
	"strings"
	"syscall"
)

// causes are the errno texts a write or read fails with, most telling
// first: found in an error's text, the first one is moved to its front.
var causes = func() []string {
	var out []string
	for _, e := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT, syscall.EROFS, syscall.EACCES, syscall.EPERM,
		syscall.EIO, syscall.EMFILE, syscall.ENFILE, syscall.ENAMETOOLONG, syscall.ELOOP, syscall.ENOTDIR, syscall.EISDIR,
		syscall.EEXIST, syscall.ENOENT} {
		out = append(out, e.Error())
	}
	return out
}()

// causeFirst moves the cause of an error text to its front: "write the
// undo journal: write /…/journal.jsonl: sync /…: no space left on device"
// becomes "no space left on device: write the undo journal: write …".
// Text that names no known cause, or starts with it, is returned as is.
func causeFirst(s string) string {
	for _, c := range causes {
		i := strings.Index(s, c)
		if i <= 0 {
			if i == 0 {
				return s
			}
			continue
		}
		// The text before the cause, without the ": " it sat behind, then
		// what followed it (a note in parentheses, often).
		before := strings.TrimSuffix(strings.TrimRight(s[:i], " "), ":")
		return c + ": " + before + s[i+len(c):]
	}
	return s
}
