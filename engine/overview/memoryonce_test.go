package overview_test

import (
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/model"
)

// memoryOpens counts the opens of each topic file and MEMORY.md of the
// home's project memory folders (projects/<slug>/memory/<rel>).
type memoryOpens struct {
	fs.FS
	mu     sync.Mutex
	opened map[string]int
}

func (m *memoryOpens) Open(name string) (fs.File, error) {
	if parts := strings.SplitN(name, "/", 4); len(parts) == 4 && parts[0] == "projects" && parts[2] == "memory" && (model.IsMemoryTopicPath(parts[3]) || parts[3] == model.MemoryIndexName) {
		m.mu.Lock()
		m.opened[name]++
		m.mu.Unlock()
	}
	return m.FS.Open(name)
}

func (m *memoryOpens) Stat(name string) (fs.FileInfo, error) { return fs.Stat(m.FS, name) }

func (m *memoryOpens) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(m.FS, name) }

// TestColdStartOpensEachMemoryFileOnce: on a cold cache, the secrets
// count (which reads every memory file for secrets) and the Problems
// line's stat after it (which parses every memory file for its
// frontmatter) open each memory file once between them, whichever line
// is asked first, and the lines are those each gives reading on its
// own. Before, twice: the stat read every file the count had read.
func TestColdStartOpensEachMemoryFileOnce(t *testing.T) {
	orders := map[string][]overview.ID{
		"secrets first":  {overview.Secrets, overview.Problems},
		"problems first": {overview.Problems, overview.Secrets},
		"together":       nil,
	}
	for _, h := range passHomes(t) {
		for name, order := range orders {
			t.Run(h.name+"/"+name, func(t *testing.T) {
				home, err := model.OpenHome(h.dir, model.HomeFromFlag)
				if err != nil {
					t.Fatal(err)
				}
				mo := &memoryOpens{FS: home.FS, opened: map[string]int{}}
				s := passSource(t, h, mo, newCache(t))
				own := passSource(t, h, nil, nil)
				ids := order
				if ids == nil {
					ids = []overview.ID{overview.Secrets, overview.Problems}
				}
				got := make([]overview.Line, len(ids))
				var wg sync.WaitGroup
				for i, id := range ids {
					if order != nil {
						got[i] = overview.Compute(s, id)
						continue
					}
					wg.Go(func() { got[i] = overview.Compute(s, id) })
				}
				wg.Wait()
				for i, id := range ids {
					if g, w := lineJSON(t, got[i]), lineJSON(t, overview.Compute(own, id)); g != w {
						t.Errorf("%s:\n%s\nreading on its own:\n%s", id, g, w)
					}
				}
				if len(mo.opened) == 0 {
					t.Fatalf("no memory file opened on %s", h.name)
				}
				for n, k := range mo.opened {
					if k != 1 {
						t.Errorf("%s opened %d times, want once", n, k)
					}
				}
			})
		}
	}
}
