//go:build !unix

package journal

import (
	"errors"
	"os"
)

// lockFile: no portable file lock here; changes go on unlocked (the
// size+hash checks still refuse to overwrite a file another process
// changed).
func lockFile(*os.File) error { return errors.ErrUnsupported }

func tryLockFile(*os.File) (bool, error) { return false, errors.ErrUnsupported }

func unlockFile(*os.File) {}

func openLockFile(string) (*os.File, error) { return nil, errors.ErrUnsupported }

func openExistingLockFile(p string) (*os.File, error) { return os.Open(p) }
