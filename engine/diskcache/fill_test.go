package diskcache

import (
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// A Filling answers for a file only at the stamp its entry was kept at,
// saves what was added over what it loaded (entries of other files kept),
// and writes nothing when nothing was added.
func TestFilling(t *testing.T) {
	s := New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	a, b := model.FileStamp{Size: 1, ModTime: 1}, model.FileStamp{Size: 2, ModTime: 2}
	f := LoadFill[int](s, "k.1", "/h")
	if f.Has("x", a) || f.Merged() != nil {
		t.Fatal("an empty cache answers")
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	if _, ok := Load[map[string]Entry[int]](s, "k.1", Name("k.1", "/h")); ok {
		t.Fatal("a fill with nothing added wrote a file")
	}
	f.Add("x", a, 7)
	f.Add("y", b, 8)
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	g := LoadFill[int](s, "k.1", "/h")
	if !g.Has("x", a) || g.Has("x", b) || !g.Has("y", b) {
		t.Errorf("loaded again: x at a %v, x at b %v, y at b %v", g.Has("x", a), g.Has("x", b), g.Has("y", b))
	}
	g.Add("x", b, 9)
	if err := g.Save(); err != nil {
		t.Fatal(err)
	}
	m, _ := Load[map[string]Entry[int]](s, "k.1", Name("k.1", "/h"))
	if len(m) != 2 || m["x"].Value != 9 || m["x"].Stamp != b || m["y"].Value != 8 {
		t.Errorf("after a second fill: %+v", m)
	}
}
