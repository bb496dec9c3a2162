package diskcache

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// Through a ListOnce whose listing has the files, a settled entry is
// answered from the listing's information (model.ListedInfo, the one
// stat the moment's readers share), not a stat of its own: a warm start
// stat'ed each of W's transcripts again for each cache (stat's, the
// sessions report's, the ledger's, doctor's). A file the listing does
// not have is still asked of the system, and a file whose information
// changed is still a miss. Not parallel: it sets the package's clock.
func TestPerFileSettledEntryAnsweredFromTheListing(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a", "b", "sub/c"}
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("text of "+n), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fsys := &opensFS{FS: model.DirFS(dir)}
	compute := func(miss []int) []string { return make([]string, len(miss)) }
	whole := func(string, int64) bool { return true }
	clock = func() time.Time { return time.Now().Add(time.Minute) }
	defer func() { clock = time.Now }()
	kept := map[string]Entry[string]{}
	PerFile(fsys, names, nil, kept, compute, whole)
	for _, n := range names {
		if !kept[n].Settled {
			t.Fatalf("%s: entry not settled", n)
		}
	}

	l := model.ListOnce(fsys)
	ents, err := fs.ReadDir(l, ".") // the walk's listing (not of sub/)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if _, err := e.Info(); err != nil {
			t.Fatal(err)
		}
	}
	fsys.stats.Store(0)
	fsys.opens.Store(0)
	_, hits := PerFile(l, names, kept, map[string]Entry[string]{}, compute, whole)
	if hits != 3 {
		t.Errorf("%d hits, want 3", hits)
	}
	if n := fsys.stats.Load(); n != 1 {
		t.Errorf("%d stats, want 1 (sub/c, whose folder was not listed): a and b are in the listing", n)
	}
	if n := fsys.opens.Load(); n != 0 {
		t.Errorf("%d opens, want none", n)
	}

	// A file written since its entry: its listing says so.
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("longer text of a"), 0o600); err != nil {
		t.Fatal(err)
	}
	l = model.ListOnce(fsys)
	if _, err := fs.ReadDir(l, "."); err != nil {
		t.Fatal(err)
	}
	if _, hits := PerFile(l, names, kept, map[string]Entry[string]{}, compute, whole); hits != 2 {
		t.Errorf("after a write: %d hits, want 2", hits)
	}
}
