package vault

import (
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// syncCounter is a writer that counts each temporary file's syncs.
type syncCounter struct {
	model.WriteFS
	mu    sync.Mutex
	syncs map[string]int
	dirs  map[string]int
}

func (c *syncCounter) SyncDir(dir string) error {
	c.mu.Lock()
	c.dirs[dir]++
	c.mu.Unlock()
	return c.WriteFS.SyncDir(dir)
}

func (c *syncCounter) CreateTemp(dir, pattern string) (model.TempFile, error) {
	f, err := c.WriteFS.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.syncs[f.Name()] = 0
	c.mu.Unlock()
	return &countedTemp{TempFile: f, c: c}, nil
}

type countedTemp struct {
	model.TempFile
	c *syncCounter
}

func (f *countedTemp) Sync() error {
	f.c.mu.Lock()
	f.c.syncs[f.Name()]++
	f.c.mu.Unlock()
	return f.TempFile.Sync()
}

// Every file a sync keeps (packs, their indexes, the state) is synced
// once before it takes its name: not left unsynced, and not synced
// twice (the index's and the state's were synced early, beside the
// packs, then again by the writer before their rename: a second fsync
// that still flushed the disk's cache, at the sync's end). The folders'
// stamps, a cache checked against the state when read, are not synced,
// nor is their folder after their rename: the state's folder is synced
// once a sync (it was twice, the stamps' the sync's last fsync).
func TestEachWrittenFileSyncedOnce(t *testing.T) {
	home := testHome(t, 100)
	c := &syncCounter{WriteFS: model.OSWriteFS{}, syncs: map[string]int{}, dirs: map[string]int{}}
	v := openVault(t, c)
	syncHome(t, v, home, t0)
	grow(t, home)
	// Not settled at the first sync: the second stamps them.
	syncHome(t, v, home, t0.Add(time.Hour))
	if n := c.dirs[filepath.Join(v.Dir, stateDir)]; n != 2 {
		t.Errorf("the state's folder synced %d times in two syncs, want 2", n)
	}
	var names []string
	for n := range c.syncs {
		names = append(names, n)
	}
	sort.Strings(names)
	kinds := map[string]bool{}
	for _, n := range names {
		base := filepath.Base(n)
		switch {
		case strings.Contains(base, ".idx"):
			kinds["index"] = true
		case strings.Contains(base, ".pack"):
			kinds["pack"] = true
		case strings.Contains(base, "folders"):
			kinds["folders"] = true
		case strings.Contains(base, ".jsonl"):
			kinds["state"] = true
		}
		want := 1
		if strings.Contains(base, "folders") {
			want = 0
		}
		if got := c.syncs[n]; got != want {
			t.Errorf("%s synced %d times, want %d", strings.TrimPrefix(n, v.Dir), got, want)
		}
	}
	for _, k := range []string{"pack", "index", "state", "folders"} {
		if !kinds[k] {
			t.Errorf("no %s file written (files: %v)", k, names)
		}
	}
}
