package enginetest

import (
	"os"
	"syscall"

	"github.com/memscope/memscope/model"
)

// faultErrnos are the errnos every write step is made to fail with.
var FaultErrnos = []syscall.Errno{syscall.ENOSPC, syscall.EACCES, syscall.EROFS}

// noSyncFS is the real OS without fsync, which the fault tests do not
// need and which makes a thousand small changes slow.
type NoSyncFS struct{ model.OSWriteFS }

type NoSyncFile struct{ *os.File }

func (NoSyncFS) CreateTemp(dir, pattern string) (model.TempFile, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return NoSyncFile{f}, nil
}

func (NoSyncFS) SyncDir(string) error { return nil }

func (NoSyncFile) Sync() error { return nil }
