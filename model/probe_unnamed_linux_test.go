//go:build linux

package model

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestProbeWritableLeavesTheFolderAsItWas: the write probe of a folder
// (the app's of the home at every start, the store's of the open
// project's memory folder) leaves its modification and change times as
// they were, so the next start's stamp-checked listings of it (the
// trusted folders, the leftover walk's cache) still hold. On the code
// before, the probe created and removed a named file in it: the home's
// folder changed at every start. A folder the probe may not write in is
// still refused.
func TestProbeWritableLeavesTheFolderAsItWas(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := probeUnnamed(dir); errors.Is(err, syscall.EOPNOTSUPP) {
		t.Skipf("no unnamed files on this file system: %v", err)
	}
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(dir, old, old); err != nil {
		t.Fatal(err)
	}
	var before syscall.Stat_t
	if err := syscall.Stat(dir, &before); err != nil {
		t.Fatal(err)
	}
	if err := ProbeWritable(OSWriteFS{}, dir); err != nil {
		t.Fatalf("probe of a writable folder: %v", err)
	}
	var after syscall.Stat_t
	if err := syscall.Stat(dir, &after); err != nil {
		t.Fatal(err)
	}
	if after.Mtim != before.Mtim || after.Ctim != before.Ctim {
		t.Errorf("the probe moved the folder's times: modified %v -> %v, changed %v -> %v",
			time.Unix(before.Mtim.Unix()), time.Unix(after.Mtim.Unix()), time.Unix(before.Ctim.Unix()), time.Unix(after.Ctim.Unix()))
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
		t.Errorf("the probe left %v (%v)", ents, err)
	}

	// A writer wrapping the system's (a test's injected refusal) is
	// asked through its CreateTemp, as before.
	var ro *ReadOnlyError
	if err := ProbeWritable(refuseCreate{}, dir); !errors.As(err, &ro) || !errors.Is(err, syscall.EROFS) {
		t.Errorf("probe through a writer refusing creates: %v, want its read-only error", err)
	}

	// A folder that refuses writes (its permission bits, for a user they
	// bind) is still read-only, named as before.
	if os.Geteuid() == 0 {
		return
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	if err := ProbeWritable(OSWriteFS{}, dir); !errors.As(err, &ro) || ro.Dir != dir {
		t.Errorf("probe of a folder without write permission: %v, want a read-only error naming it", err)
	}
}

// refuseCreate is the system's writer with every create refused as a
// read-only mount refuses it.
type refuseCreate struct{ OSWriteFS }

func (refuseCreate) CreateTemp(dir, pattern string) (TempFile, error) {
	return nil, &os.PathError{Op: "open", Path: dir + "/" + pattern, Err: syscall.EROFS}
}
