package overview_test

import (
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// cacheOpens counts the opens of each cache file (*.cache) a Store reads
// through it.
type cacheOpens struct {
	fs.FS
	mu sync.Mutex
	n  map[string]int
}

func (c *cacheOpens) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, ".cache") {
		c.mu.Lock()
		c.n[path.Base(name)]++
		c.mu.Unlock()
	}
	return c.FS.Open(name)
}

func (c *cacheOpens) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

func (c *cacheOpens) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }

// TestWarmStartDecodesEachCacheOnce: at a warm start (the cache a cold
// run filled, a new Store as a new process has), the lines that read
// every transcript open each cache file once: the shared pass's feeds
// decode the secrets, stat, doctor and ledger caches, and the lines that
// count after them take what the feeds decoded (diskcache.LoadShared)
// instead of reading and decoding the same file a second time. The lines
// are the ones a cold run counted.
func TestWarmStartDecodesEachCacheOnce(t *testing.T) {
	for _, h := range passHomes(t) {
		t.Run(h.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cache")
			cold := passSource(t, h, nil, diskcache.New(dir, testroot.New(t), model.OSWriteFS{}))
			want := map[overview.ID]string{}
			for _, id := range passLines {
				want[id] = lineJSON(t, overview.Compute(cold, id))
			}
			opens := &cacheOpens{FS: testroot.New(t), n: map[string]int{}}
			warm := passSource(t, h, nil, diskcache.New(dir, opens, model.OSWriteFS{}))
			for _, id := range passLines {
				if got := lineJSON(t, overview.Compute(warm, id)); got != want[id] {
					t.Errorf("%s warm:\n%s\ncold:\n%s", id, got, want[id])
				}
			}
			if len(opens.n) == 0 {
				t.Fatal("the warm start opened no cache file")
			}
			for _, kind := range []string{"secrets.", "stat.", "doctor.", "ledger-newest."} {
				seen := false
				for name, n := range opens.n {
					if !strings.HasPrefix(name, kind) {
						continue
					}
					seen = true
					if n != 1 {
						t.Errorf("%s opened %d times at a warm start, want once", name, n)
					}
				}
				if !seen {
					t.Errorf("no %s* cache file opened: %v", kind, opens.n)
				}
			}
		})
	}
}
