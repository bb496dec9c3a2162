package vault

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// heldReadFS is a home whose last transcript reads nothing until the
// first one's state line is encoded (or the deadlock guard).
type heldReadFS struct {
	fs.FS
	last    string
	encoded chan struct{}
	waited  atomic.Bool
}

func (h *heldReadFS) OpenRegular(name string) (fs.File, error) {
	f, err := model.OpenRegular(h.FS, name)
	if err != nil || name != h.last {
		return f, err
	}
	return &heldFile{File: f, h: h}, nil
}

type heldFile struct {
	fs.File
	h    *heldReadFS
	once sync.Once
}

func (f *heldFile) Read(p []byte) (int, error) {
	f.once.Do(func() {
		select {
		case <-f.h.encoded:
			f.h.waited.Store(true)
		case <-time.After(deadlockGuard):
		}
	})
	return f.File.Read(p)
}

// A file's state line is encoded by the worker that synced it, while
// the sync goes on reading the home (before, every record was encoded
// after the last file was read: tens of ms of a first sync's tail, most
// of it on one core). Here the last transcript's first read waits for
// the first transcript's line. The state file is byte for byte a plain
// sync's, and a sync that finds a file gone encodes its record too.
func TestRecordsEncodedWhileTheHomeIsRead(t *testing.T) {
	home := manySessions(t, 6)
	h := homeOf(t, home)
	first := "projects/" + proj + "/00000000-1111-4111-8111-111111111111.jsonl"
	last := "projects/" + proj + "/00000005-1111-4111-8111-111111111111.jsonl"
	hf := &heldReadFS{FS: h.FS, last: last, encoded: make(chan struct{})}
	h.FS = hf
	var once sync.Once
	recordEncodedHook = func(p string) {
		if p == first {
			once.Do(func() { close(hf.encoded) })
		}
	}
	t.Cleanup(func() { recordEncodedHook = nil })
	v := openVault(t, nil)
	rep, err := v.Sync(SyncOptions{Home: h, Now: t0})
	if err != nil || rep.New != 6 || len(rep.Problems) != 0 {
		t.Fatalf("sync: %+v %v", rep, err)
	}
	if !hf.waited.Load() {
		t.Errorf("the first transcript's record was not encoded before the last transcript was read")
	}
	recordEncodedHook = nil
	plain := openVault(t, nil)
	syncHome(t, plain, home, t0)
	if got, want := stateBytes(t, v), stateBytes(t, plain); got != want || len(got) < 100 {
		t.Errorf("state files differ from a plain sync's (%d and %d bytes)", len(got), len(want))
	}
	// One file gone, one changed: the next state file holds both records,
	// in the order a sync writes them (the files', then the gone ones').
	if err := os.Remove(filepath.Join(home, first)); err != nil {
		t.Fatal(err)
	}
	write(t, home, last, transcript("00000005-1111-4111-8111-111111111111", 50, 60, 350), t0.Add(time.Hour))
	rep2 := syncHome(t, v, home, t0.Add(time.Hour))
	if rep2.Gone != 1 || rep2.Changed != 1 {
		t.Fatalf("second sync: %+v", rep2)
	}
	names, _ := filepath.Glob(filepath.Join(v.Dir, stateDir, "0*.jsonl"))
	b, err := os.ReadFile(names[len(names)-1])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], last) || !strings.Contains(lines[1], first) {
		t.Errorf("second state file: %d lines, want the changed then the gone record:\n%.300s", len(lines), b)
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}

// stateBytes is the vault's state files, names and contents.
func stateBytes(t *testing.T, v *Vault) string {
	names, _ := filepath.Glob(filepath.Join(v.Dir, stateDir, "0*.jsonl"))
	var all []byte
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		all = append(append(all, filepath.Base(n)...), b...)
	}
	return string(all)
}
