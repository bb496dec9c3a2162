package overview_test

import (
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/model"
)

// dirCountFS counts the listings of each folder of a home (the seam
// beneath the lines).
type dirCountFS struct {
	fs.FS
	mu   sync.Mutex
	dirs map[string]int
}

func (c *dirCountFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	c.dirs[name]++
	c.mu.Unlock()
	return fs.ReadDir(c.FS, name)
}

func (c *dirCountFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

func (c *dirCountFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(c.FS, name) }

func (c *dirCountFS) ReadLink(name string) (string, error) { return fs.ReadLink(c.FS, name) }

func (c *dirCountFS) OpenRegular(name string) (fs.File, error) { return model.OpenRegular(c.FS, name) }

// TestAllListsEachProjectsFolderOnce: `memscope overview` (All) on
// testdata/home and the demo, cold and warm, lists projects/ and each
// projects/<slug> folder once for every line (secrets, stat, the
// forecast, the pass, the .replaced copies and the running sessions each
// walked them by their own rule), and counts the lines it counts from
// a home listed by each line alone.
func TestAllListsEachProjectsFolderOnce(t *testing.T) {
	for _, h := range passHomes(t) {
		t.Run(h.name, func(t *testing.T) {
			cache := newCache(t)
			want := overview.All(passSource(t, h, nil, nil))
			for _, start := range []string{"cold", "warm"} {
				home, err := model.OpenHome(h.dir, model.HomeFromFlag)
				if err != nil {
					t.Fatal(err)
				}
				c := &dirCountFS{FS: home.FS, dirs: map[string]int{}}
				got := overview.All(passSource(t, h, c, cache))
				for i := range want {
					if g, w := lineJSON(t, got[i]), lineJSON(t, want[i]); g != w {
						t.Errorf("%s: %s from one listing:\n%s\nfrom each line's own:\n%s", start, want[i].ID, g, w)
					}
				}
				folders := 0
				for d, n := range c.dirs {
					if d != "projects" && (!strings.HasPrefix(d, "projects/") || strings.Count(d, "/") != 1) {
						continue
					}
					folders++
					if n != 1 {
						t.Errorf("%s: %s listed %d times, want once", start, d, n)
					}
				}
				if folders < 2 {
					t.Errorf("%s: %d projects folders listed: %v", start, folders, c.dirs)
				}
			}
		})
	}
}
