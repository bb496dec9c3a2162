package inventory

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/genhome"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// pasteLooksFS counts what is asked of each paste file of a home: its
// opens (Open, OpenRegular), stats and its folder entry's Info (an
// lstat).
type pasteLooksFS struct {
	fs.FS
	n atomic.Int64
}

func (p *pasteLooksFS) count(name string) {
	if strings.HasPrefix(name, model.PasteCacheDir+"/") || strings.HasPrefix(name, model.PasteStoreDir+"/") {
		p.n.Add(1)
	}
}

func (p *pasteLooksFS) Open(name string) (fs.File, error) {
	p.count(name)
	return p.FS.Open(name)
}

func (p *pasteLooksFS) OpenRegular(name string) (fs.File, error) {
	p.count(name)
	return model.OpenRegular(p.FS, name)
}

func (p *pasteLooksFS) Stat(name string) (fs.FileInfo, error) {
	p.count(name)
	return fs.Stat(p.FS, name)
}

func (p *pasteLooksFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(p.FS, name)
	for i, e := range ents {
		ents[i] = testenv.InfoLooked(e, func() { p.count(name + "/" + e.Name()) })
	}
	return ents, err
}

// A warm stat on a home whose paste-cache is as the last run listed it
// looks at none of its pastes (the old code lstat'ed every one, and
// opened paste-cache and paste-store for each hash with no file), and
// answers as a run without a cache; a paste the client adds is seen by
// the next run.
func TestWarmStatLooksAtNoPaste(t *testing.T) {
	gen := filepath.Join(t.TempDir(), "gen")
	if err := genhome.Run(gen, "2M", "7"); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(gen, model.PasteCacheDir), old, old); err != nil {
		t.Fatal(err)
	}
	h := openHome(t, gen)
	c := newCache(t)
	look := &pasteLooksFS{FS: h.FS}
	home := &model.Home{Dir: h.Dir, FS: look, Source: h.Source}
	want := statJSON(t, h, nil)
	if got := statJSON(t, home, c); got != want {
		t.Fatalf("cold run with a cache:\n%s\nwant\n%s", got, want)
	}
	if look.n.Load() == 0 {
		t.Fatal("the cold run looked at no paste: the home has none, the test proves nothing")
	}
	look.n.Store(0)
	if got := statJSON(t, home, c); got != want {
		t.Fatalf("warm run:\n%s\nwant\n%s", got, want)
	}
	if n := look.n.Load(); n != 0 {
		t.Errorf("a warm run on an unchanged paste-cache looked at pastes %d times, want 0", n)
	}
	// The client pastes: a new file named by its content.
	paste := "a paste the client just wrote\n"
	sum := sha256.Sum256([]byte(paste))
	if err := os.WriteFile(filepath.Join(gen, model.PasteCacheDir, hex.EncodeToString(sum[:8])+".txt"), []byte(paste), 0o600); err != nil {
		t.Fatal(err)
	}
	before := want
	want = statJSON(t, h, nil)
	if want == before {
		t.Fatal("the new paste changes nothing in the report: the test proves nothing")
	}
	if got := statJSON(t, home, c); got != want {
		t.Errorf("after a new paste:\n%s\nwant\n%s", got, want)
	}
}
