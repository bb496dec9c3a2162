package secrets

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

// statsFS counts the stats asked of it.
type statsFS struct {
	fs.FS
	stats atomic.Int64
}

func (s *statsFS) Stat(name string) (fs.FileInfo, error) {
	s.stats.Add(1)
	return fs.Stat(s.FS, name)
}

func (s *statsFS) Lstat(name string) (fs.FileInfo, error) {
	s.stats.Add(1)
	return fs.Lstat(s.FS, name)
}

// Through a ListOnce whose listing has the files, settledHits answers a
// settled entry from the listing's information (model.ListedInfo), not
// a stat of its own: a warm start stat'ed W's transcripts and memory
// files again here (some 780). A file the listing does not have is still
// asked of the system, and a file whose information changed since its
// entry is not answered. On the old code each file was a stat.
func TestSettledHitsFromTheListing(t *testing.T) {
	dir := t.TempDir()
	names := []string{"projects/p/a.jsonl", "projects/p/memory/b.md", "projects/q/c.jsonl"}
	files := map[string]string{}
	for _, n := range names {
		files[n] = "text of " + n
	}
	enginetest.WriteTree(t, dir, files)
	fsys := &statsFS{FS: model.DirFS(dir)}
	kept := map[string]diskcache.Entry[counted]{}
	for _, n := range names {
		info, err := fs.Stat(fsys, n)
		if err != nil {
			t.Fatal(err)
		}
		kept[n] = diskcache.Entry[counted]{Stamp: model.StampOf(info), Value: counted{Settled: true}}
	}
	l := model.ListOnce(fsys)
	for _, d := range []string{"projects/p", "projects/p/memory"} { // the walk's listings (not of projects/q)
		ents, err := fs.ReadDir(l, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if _, err := e.Info(); err != nil {
				t.Fatal(err)
			}
		}
	}
	units := []unit{{name: names[0]}, {name: names[1], ent: trustedEnt}, {name: names[2]}}
	home := []int{0, 1, 2}
	fsys.stats.Store(0)
	answered, n := settledHits(l, units, home, kept)
	if n != 3 {
		t.Errorf("%d answered (%v), want 3", n, answered)
	}
	if s := fsys.stats.Load(); s != 1 {
		t.Errorf("%d stats, want 1 (projects/q/c.jsonl, whose folder was not listed)", s)
	}

	// A file written since its entry: its listing says so.
	if err := os.WriteFile(filepath.Join(dir, "projects/p/a.jsonl"), []byte("a longer text"), 0o600); err != nil {
		t.Fatal(err)
	}
	l = model.ListOnce(fsys)
	if _, err := fs.ReadDir(l, "projects/p"); err != nil {
		t.Fatal(err)
	}
	if answered, n := settledHits(l, units, home, kept); n != 2 || answered[0] {
		t.Errorf("after a write: %v answered, want all but the first", answered)
	}
}
