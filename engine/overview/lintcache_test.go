package overview_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// The Lint line with the cache is the line without it: cold, warm (a
// new Store, as a new process has: lint's work taken from the cache
// file) and after a memory file changed (the change is seen).
func TestLintLineSameThroughCache(t *testing.T) {
	h := passHomes(t)[1] // the demo, materialized for this test
	dir := filepath.Join(t.TempDir(), "cache")
	line := func(cache *diskcache.Store) string {
		return lineJSON(t, overview.Compute(passSource(t, h, nil, cache), overview.Lint))
	}
	newCache := func() *diskcache.Store { return diskcache.New(dir, testroot.New(t), model.OSWriteFS{}) }
	plain := line(nil)
	if cold := line(newCache()); cold != plain {
		t.Fatalf("cold with the cache:\n%s\nwithout:\n%s", cold, plain)
	}
	if kept, _ := filepath.Glob(filepath.Join(dir, "lint.*")); len(kept) != 1 {
		t.Fatalf("lint's cache files %v; want one", kept)
	}
	if warm := line(newCache()); warm != plain {
		t.Fatalf("warm:\n%s\nwithout the cache:\n%s", warm, plain)
	}
	mems, _ := filepath.Glob(filepath.Join(h.dir, "projects", "*", "memory", "*.md"))
	var topic string
	for _, m := range mems {
		if filepath.Base(m) != model.MemoryIndexName && strings.Contains(m, "shop-api") {
			topic = m
		}
	}
	if topic == "" {
		t.Fatalf("no topic file of shop-api among %v", mems)
	}
	raw, err := os.ReadFile(topic)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(topic, append(raw, "\nkey "+enginetest.LeakedKey+"\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	edited := line(nil)
	if edited == plain {
		t.Fatalf("the fixture's edit does not change the Lint line: %s", edited)
	}
	if warm := line(newCache()); warm != edited {
		t.Errorf("after an edit, with the cache:\n%s\nwithout:\n%s", warm, edited)
	}
}
