package model_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/model"
)

// FuzzWriteFileAtomic: whatever the data, the old content, the step that
// fails and the errno, the file afterwards holds exactly the new data
// (success) or exactly the old one (failure, errno in the chain), and
// nothing else is left in the folder.
func FuzzWriteFileAtomic(f *testing.F) {
	f.Add([]byte("new\n"), []byte("old\n"), true, uint8(6), uint8(0), uint8(0))
	f.Add([]byte{}, []byte("old"), true, uint8(4), uint8(1), uint8(1))
	f.Add([]byte("\xff\xfe\r\n"), []byte{}, false, uint8(2), uint8(2), uint8(2))
	f.Fuzz(func(t *testing.T, data, old []byte, exists bool, step, nth, errno uint8) {
		dir := t.TempDir()
		path := filepath.Join(dir, "f.md")
		if exists {
			if err := os.WriteFile(path, old, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		ff := &faultfs.FS{Base: faultfs.NoSync{}, Step: faultfs.Steps[int(step)%len(faultfs.Steps)], Nth: 1 + int(nth)%3,
			Err: faultfs.Errnos[int(errno)%len(faultfs.Errnos)]}
		err := model.WriteFileAtomicWith(ff, path, data, 0o600)
		got, rerr := os.ReadFile(path)
		switch {
		case err == nil:
			if !bytes.Equal(got, data) {
				t.Fatalf("success but the file holds %q, want %q", got, data)
			}
		case !errors.Is(err, ff.Err):
			t.Fatalf("err %v does not carry %v", err, ff.Err)
		case exists && !bytes.Equal(got, old):
			t.Fatalf("failed write changed the file to %q", got)
		case !exists && !errors.Is(rerr, os.ErrNotExist):
			t.Fatalf("failed write created the file: %q", got)
		}
		names := dirNames(t, dir)
		if len(names) > 1 || len(names) == 1 && names[0] != "f.md" {
			t.Fatalf("folder holds %q", names)
		}
	})
}
