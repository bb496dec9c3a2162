package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrSymlinkWrite is the error of a write that would go through a
// symbolic link. A link in a memory folder may point anywhere (outside
// the home, at /etc/passwd): memscope reads and shows it, marked, but
// writes, renames and removals there are refused so the target can never
// change.
var ErrSymlinkWrite = errors.New("memscope does not write through symbolic links")

// refuseSymlinks returns an error wrapping ErrSymlinkWrite when the folder
// dir, or any existing element of the slash path name below it, is a
// symbolic link. Elements that do not exist yet end the check: a write
// creates them as real files and folders.
func refuseSymlinks(dir, name string) error {
	p := dir
	if err := notALink(p, "the memory folder"); err != nil {
		return err
	}
	for _, seg := range strings.Split(name, "/") {
		p = filepath.Join(p, seg)
		if err := notALink(p, name); err != nil {
			return err
		}
	}
	return nil
}

// notALink fails when p is a symbolic link; what names p in the message.
func notALink(p, what string) error {
	st, err := os.Lstat(p)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		// A missing or unreadable element is left to the write itself,
		// which reports it with its own context.
		return nil
	}
	target, _ := os.Readlink(p)
	return fmt.Errorf("%s (%s) is a symbolic link to %s: %w", what, p, target, ErrSymlinkWrite)
}
