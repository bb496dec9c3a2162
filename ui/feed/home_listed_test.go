package feed

import (
	"os"
	"path/filepath"
	"testing"

	engov "github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/model"
)

// The start's whole read lists through the listing ListFrom hands it
// (asked once, at Init); a memory file written after it is still
// counted: by the changed folder's row (the watcher's reload), and by a
// later whole read (ctrl+r), which reads the home as it is then, not
// the start's listing.
func TestHomeStartListsFromTheSharedListing(t *testing.T) {
	dir := homeWithProjects(t)
	home := testHome(t, dir)
	h := NewHome(home, nil)
	var asked int
	var listed *model.Home
	h.ListFrom(func(from *model.Home) *model.Home {
		asked++
		if from != home {
			t.Errorf("asked for the listing of %v, not the feed's home", from)
		}
		listed = from.ListedOnce()
		return listed
	})
	h.Listed(h.Init()().(HomeListed), "", "", testNow)
	if asked != 1 {
		t.Fatalf("the start asked for the listing %d times", asked)
	}
	if _, ok := model.ListedInfo(listed.FS, "projects/-w-a/memory/note.md"); !ok {
		t.Fatal("the start's read did not list a's memory through the shared listing")
	}
	if a := rowNamed(t, h, "-w-a"); a.Memory.Files != 1 {
		t.Fatalf("a's memory at the start: %+v", a.Memory)
	}

	// A memory file written after the start: the row's read counts it.
	os.WriteFile(filepath.Join(dir, "projects", "-w-a", "memory", "new.md"), []byte("---\nname: x\n---\nx\n"), 0o600)
	h.Delta(h.Request(HomeReq{Memory: map[string]bool{"-w-a": true}})().(HomeDelta), testNow)
	if a := rowNamed(t, h, "-w-a"); a.Memory.Files != 2 {
		t.Errorf("a's memory after a file came: %+v", a.Memory)
	}
	// And a whole read (ctrl+r) after another one came.
	os.WriteFile(filepath.Join(dir, "projects", "-w-a", "memory", "newer.md"), []byte("---\nname: y\n---\ny\n"), 0o600)
	h.Listed(h.Request(HomeReq{Full: true})().(HomeListed), "-w-a", "", testNow)
	if asked != 1 {
		t.Errorf("a later whole read asked for the start's listing (%d asks)", asked)
	}
	if a := rowNamed(t, h, "-w-a"); a.Memory.Files != 3 {
		t.Errorf("a's memory after a whole read: %+v", a.Memory)
	}
}

// Held is the Overview's listing while a line counts from it: none
// before it is made, none while no line runs (the start's listing is
// kept while the Overview's lines wait unshown), the one Listed made
// while one runs, and none after a change or ctrl+r (a reader then
// reads the home as it is).
func TestOverviewHeldDropsAtAChange(t *testing.T) {
	home := testHome(t, homeWithProjects(t))
	o := NewOverview()
	if o.Held(home) != nil {
		t.Fatal("a listing held before one was made")
	}
	l := o.Listed(home)
	if o.Held(home) != nil {
		t.Fatal("held while no line counts")
	}
	o.running[engov.Specs[0].ID] = true
	if o.Held(home) != l {
		t.Fatal("Held is not the listing Listed made")
	}
	if o.Held(&model.Home{Dir: home.Dir, FS: home.FS}) != nil {
		t.Error("held for another home")
	}
	o.Changed(false, false, true)
	if o.Held(home) != nil {
		t.Error("held after a change")
	}
	o.Listed(home)
	o.Invalidate()
	if o.Held(home) != nil {
		t.Error("held after ctrl+r")
	}
}
