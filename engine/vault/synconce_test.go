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

// Every file a sync writes (packs, their indexes, the state, the
// folders' stamps) is synced once before it takes its name: not left
// unsynced, and not synced twice (the index's, the state's and the
// stamps' were synced early, beside the packs, then again by the
// writer before their rename: a second fsync that still flushed the
// disk's cache, at the sync's end).
func TestEachWrittenFileSyncedOnce(t *testing.T) {
	home := testHome(t, 100)
	c := &syncCounter{WriteFS: model.OSWriteFS{}, syncs: map[string]int{}}
	v := openVault(t, c)
	syncHome(t, v, home, t0)
	grow(t, home)
	syncHome(t, v, home, t0.Add(time.Hour))
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
		if got := c.syncs[n]; got != 1 {
			t.Errorf("%s synced %d times, want once", strings.TrimPrefix(n, v.Dir), got)
		}
	}
	for _, k := range []string{"pack", "index", "state", "folders"} {
		if !kinds[k] {
			t.Errorf("no %s file written (files: %v)", k, names)
		}
	}
}
