package feed

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// projectFeed is the Project feed of the home at dir, its project list
// read.
func projectFeed(t *testing.T, dir string) *Project {
	t.Helper()
	home := testHome(t, dir)
	h := NewHome(home, nil)
	h.Listed(h.Init()().(HomeListed), "", "", testNow)
	return NewProject(ProjectEnv{Home: home, Getenv: func(string) string { return "" }, Now: func() time.Time { return testNow }}, h)
}

// The Project feed reads the open project's memory folder, one load at a
// time with the newest request waiting; a load of a project or store the
// user moved away from is not kept; the loads read after it change
// nothing when the transcripts say what the load already had.
func TestProjectFeedLoadsTheOpenProject(t *testing.T) {
	dir := homeWithProjects(t)
	p := projectFeed(t, dir)
	if p.Request("") != nil {
		t.Error("a request for no project loaded something")
	}
	cmd := p.Request("-w-a")
	if cmd == nil || !p.Loading() {
		t.Fatal("the first request did not start a load")
	}
	if p.Request("-w-b") != nil || p.Request("-w-a") != nil {
		t.Fatal("a request started while a load ran")
	}
	msg, ok := cmd().(ProjectLoaded)
	if !ok {
		t.Fatal("the load did not return ProjectLoaded")
	}
	kept, next := p.Loaded(msg, "-w-a")
	if !kept || next == nil || !p.Loading() {
		t.Fatalf("the open project's load: kept %v, the waiting request started %v", kept, next != nil)
	}
	cur := p.Cur()
	if cur.Slug != "-w-a" || len(cur.Rows) != 1 || cur.Rows[0].File.Path != "note.md" || len(cur.Stores) == 0 {
		t.Fatalf("the project read: %q, %d rows, plan %v, %d stores", cur.Slug, len(cur.Rows), cur.Plan != nil, len(cur.Stores))
	}
	// The waiting request (the newest, -w-a) ends; a load for a store
	// no longer asked for is not kept.
	again := next().(ProjectLoaded)
	p.SetStore("/elsewhere")
	if kept, next := p.Loaded(again, "-w-a"); kept || next != nil || p.Loading() {
		t.Fatalf("a load of a store not asked for: kept %v, next %v, loading %v", kept, next != nil, p.Loading())
	}
	p.SetStore("")
	if kept, _ := p.Loaded(again, "-w-b"); kept {
		t.Error("a load of another project than the open one was kept")
	}
	if p.Cur().Slug != "-w-a" {
		t.Errorf("the loads not kept replaced the project: %q", p.Cur().Slug)
	}

	// A memory file more: the next load has it.
	os.WriteFile(filepath.Join(dir, "projects", "-w-a", "memory", "second.md"), []byte("---\nname: s\ndescription: d\ntype: user\n---\nbody\n"), 0o600)
	if kept, _ := p.Loaded(p.Request("-w-a")().(ProjectLoaded), "-w-a"); !kept || len(p.Cur().Rows) != 2 {
		t.Fatalf("after a file was added: kept %v, %d rows", kept, len(p.Cur().Rows))
	}
	// The transcripts say nothing new: no load again; for a project
	// not open, none either.
	read := p.LoadsCmd("-w-a")().(LoadsRead)
	if cmd := p.LoadsDone(read, "-w-a"); cmd != nil {
		t.Error("loads that match the project's made it load again")
	}
	if cmd := p.LoadsDone(read, "-w-b"); cmd != nil {
		t.Error("loads of a project not open made a load")
	}
}
