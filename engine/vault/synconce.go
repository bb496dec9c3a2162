package vault

import (
	"io/fs"

	"github.com/memscope/memscope/model"
)

// syncedOnce is the one writer w for the writes that sync their
// temporary file early and then wait (syncThenWait: a pack's index, the
// state): the writer syncs the temporary file again
// before its rename, and that second fsync, with nothing written since,
// still asked the disk to flush its cache (ext4 sends a flush when the
// file's last transaction is already committed). It was one of the
// serial steps at a sync's end, 0.1-15 ms each under load
// (docs/VAULT.md, "i31v5"). A temporary file's Sync is skipped when the
// file was synced and nothing written or changed since; every other call
// goes to w (the fault seam included).
type syncedOnce struct{ model.WriteFS }

// syncOnce wraps w (see syncedOnce).
func syncOnce(w model.WriteFS) model.WriteFS { return syncedOnce{w} }

func (s syncedOnce) CreateTemp(dir, pattern string) (model.TempFile, error) {
	f, err := s.WriteFS.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &onceSyncedFile{TempFile: f}, nil
}

// onceSyncedFile is a temporary file that knows whether it is synced.
type onceSyncedFile struct {
	model.TempFile
	synced bool
}

func (f *onceSyncedFile) Write(p []byte) (int, error) {
	f.synced = false
	return f.TempFile.Write(p)
}

func (f *onceSyncedFile) Chmod(mode fs.FileMode) error {
	f.synced = false
	return f.TempFile.Chmod(mode)
}

// Sync syncs the file unless it is synced already (a failed sync leaves
// it unsynced: the next one tries again).
func (f *onceSyncedFile) Sync() error {
	if f.synced {
		return nil
	}
	err := f.TempFile.Sync()
	f.synced = err == nil
	return err
}
