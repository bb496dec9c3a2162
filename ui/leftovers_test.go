package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/model"
)

// leftoverModel is the demo home with a staged copy a killed prune left
// in shop-api's memory folder (its writer's pid long gone) and an empty
// deletion folder; it returns the two paths.
func leftoverModel(t *testing.T, w, h int) (Model, string, string) {
	t.Helper()
	l, err := demo.Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	staged, folder := plantLeftovers(t, l)
	return demoModelAt(t, l, false, w, h), staged, folder
}

// plantLeftovers leaves in the demo at l what a killed prune leaves (see
// leftoverModel) and returns the two paths.
func plantLeftovers(t testing.TB, l demo.Layout) (staged, folder string) {
	t.Helper()
	mem := filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), "memory")
	staged = filepath.Join(mem, ".MEMORY.md.memscope-99999999-stage-4")
	folder = filepath.Join(mem, ".trash", "20261120-090000")
	if err := os.WriteFile(staged, []byte("half a prune\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	return staged, folder
}

// On start memscope says interrupted writes left something; the Health
// pane lists each leftover with what it copies, D asks, n keeps them, y
// removes them, and the next load finds none.
func TestLeftoversFoundOnStartAndRemovedFromHealth(t *testing.T) {
	m, staged, folder := leftoverModel(t, 140, 44)
	if s := screen(m); !strings.Contains(s, "3 leftover(s) of interrupted memscope writes found") {
		t.Fatalf("the start does not announce the leftovers:\n%s", s)
	}
	m = press(t, m, "9")
	if s := screen(m); !strings.Contains(s, "3 leftovers of interrupted memscope writes — C removes them") || !strings.Contains(s, "leftover-copy") {
		t.Fatalf("the Health pane does not list the leftovers:\n%s", s)
	}
	m = press(t, m, "C")
	s := screen(m)
	if !strings.Contains(s, "Remove 3 leftovers of interrupted memscope writes? y/n") || !strings.Contains(s, "a copy of") || !strings.Contains(s, "MEMORY.md (13 B)") {
		t.Fatalf("D does not ask, showing what each copies:\n%s", s)
	}
	m = press(t, m, "n")
	if _, err := os.Stat(staged); err != nil {
		t.Fatalf("n removed the copy: %v", err)
	}
	m = press(t, m, "C", "y")
	for _, p := range []string{staged, folder, filepath.Dir(folder)} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is still there after y", p)
		}
	}
	s = screen(m)
	if !strings.Contains(s, "removed 3 leftover(s)") || strings.Contains(s, "leftover-copy") {
		t.Fatalf("after y the pane still lists leftovers or the status does not say what was removed:\n%s", s)
	}
}

// With live reload on, the open project's leftover search keeps the
// home's walk between loads (leftover.WalkCache) until a file event says
// it may differ. Removing the leftovers is memscope's own doing, partly
// where no event reaches (a project tree a restore named): the next load
// walks again and finds none (the e2e script's leftovers step failed on
// the cached walk).
func TestLeftoversRemovedWithTheWalkCached(t *testing.T) {
	l, err := demo.Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	plantLeftovers(t, l)
	// A copy a killed file-history restore left in the home's own
	// .memscope folder: only the walk finds it.
	staged := filepath.Join(l.Home, ".memscope", "file-history", "0badc0de-0000-4000-8000-000000000001", ".journal.jsonl.memscope-99999999-77")
	if err := os.MkdirAll(filepath.Dir(staged), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(staged, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := demoModelAt(t, l, false, 140, 44)
	m.opts.Watch = true
	m = press(t, m, "ctrl+r", "9")
	if s := screen(m); !strings.Contains(s, "C removes them") {
		t.Fatalf("the Health pane does not list the leftovers:\n%s", s)
	}
	m = press(t, m, "C", "y")
	if _, err := os.Lstat(staged); err == nil {
		t.Fatalf("%s is still there after y", staged)
	}
	if s := screen(m); strings.Contains(s, "leftover-copy") || strings.Contains(s, "C removes them") {
		t.Fatalf("after y the pane still lists the removed leftovers:\n%s", s)
	}
}
