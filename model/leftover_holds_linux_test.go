//go:build linux

package model_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/leftover"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// The leftover search (leftover.Find) holds the home's folder for all
// of it: its search of the memory folders, beside restored files and
// its walk of the whole home resolve every name from one descriptor, and
// open the home by its path no more (the memory folders' search opened it
// again for each name it looked at).
func TestLeftoverFindOpensTheHomeOnce(t *testing.T) {
	home := t.TempDir()
	for _, rel := range []string{"projects/-a/memory/MEMORY.md", "projects/-a/memory/n.md", "projects/-b/memory/MEMORY.md",
		"projects/-a/memory/.n.md.memscope-99-remove-1", "paste-cache/x.txt"} {
		p := filepath.Join(home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	root := model.MountFS(testroot.New(t), home, model.HomeFS(home))
	in := leftover.Input{Root: root, HomeDir: home, Now: time.Now(), Alive: func(int) bool { return false }, Busy: func(string) bool { return false }}
	before := model.RootOpens()
	rep := leftover.Find(in)
	if n := model.RootOpens() - before; n != 0 {
		t.Errorf("the search opened the home %d times beside its hold", n)
	}
	if len(rep.Items) != 1 {
		t.Errorf("found %+v, want the one copy", rep.Items)
	}
}
