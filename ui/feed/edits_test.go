package feed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/views/msgs"
)

// openStoreEdits is the Edits feed of a test home whose project -w-a
// has a memory folder on disk, loaded (its store open), and that folder.
func openStoreEdits(t *testing.T) (*Edits, *Project, string) {
	t.Helper()
	dir := homeWithProjects(t)
	home := testHome(t, dir)
	h := NewHome(home, nil)
	h.Listed(h.Init()().(HomeListed), "", "", testNow)
	now := func() time.Time { return testNow }
	p := NewProject(ProjectEnv{Home: home, Machine: testroot.New(t), Writes: testroot.Writer(t), Getenv: func(string) string { return "" }, Now: now}, h)
	reload(t, p)
	if p.Cur().Store == nil {
		t.Fatal("the project's store is not open: its memory folder is on disk")
	}
	e := NewEdits(EditsEnv{Home: home, Machine: testroot.New(t), Writes: testroot.Writer(t), Now: now, Getenv: func(string) string { return "" }}, p)
	return e, p, filepath.Join(dir, "projects", "-w-a", "memory")
}

// reload loads the open project -w-a again, as the shell does on
// ReloadProject.
func reload(t *testing.T, p *Project) {
	t.Helper()
	if kept, _ := p.Loaded(p.Request("-w-a")().(ProjectLoaded), "-w-a"); !kept {
		t.Fatal("the project's load was not kept")
	}
}

var openCtx = EditCtx{Open: "-w-a", PromptFiles: func() []string { return nil }}

// change hands the feed a request and its result, and returns what the
// result means to the shell.
func change(t *testing.T, e *Edits, req tea.Msg) EditOut {
	t.Helper()
	out, ok := e.Update(req, openCtx)
	if !ok || out.Cmd == nil {
		t.Fatalf("%T: owned %v, command %v", req, ok, out.Cmd != nil)
	}
	msg := out.Cmd()
	if _, ok := msg.(EditDone); !ok {
		t.Fatalf("%T ended in %#v", req, msg)
	}
	out, _ = e.Update(msg, openCtx)
	return out
}

// The Edits feed changes the open project's store, one change at a
// time: a create is written, named by Last (the footer's u) and the
// project read again; a second request while one is written is refused;
// a write the scan blocks becomes a y/n question whose yes forces it; u
// undoes the newest change; a read-only home writes nothing.
func TestEditsFeedChangesTheOpenStore(t *testing.T) {
	e, p, mem := openStoreEdits(t)
	out, _ := e.Update(msgs.CreateMemory{Name: "scratch", Type: "project", Description: "a scratch note"}, openCtx)
	if busy, _ := e.Update(msgs.DeleteMemory{Path: "note.md"}, openCtx); busy.Cmd == nil || !strings.Contains(busy.Cmd().(msgs.Status).Text, "still being written") {
		t.Fatal("a second change started while the first was written")
	}
	done, _ := e.Update(out.Cmd(), openCtx)
	created := filepath.Join(mem, "project_scratch.md")
	if _, err := os.Stat(created); err != nil || done.Status == nil || done.Status.Error || done.Reload != ReloadProject {
		t.Fatalf("create: %v, out %+v", err, done)
	}
	if !strings.Contains(done.Status.Text, "u undoes it") || e.Last() == "" || e.Busy() {
		t.Errorf("after the create: status %q, last %q, busy %v", done.Status.Text, e.Last(), e.Busy())
	}
	// The new memory's body is written in the editor next.
	if pm, ok := done.Cmd().(EditorPrepared); !ok || pm.S.Path != created {
		t.Errorf("after the create the editor opens on %#v, want %s", done.Cmd, created)
	} else {
		os.RemoveAll(filepath.Dir(pm.S.Copy))
	}
	reload(t, p)

	// A memory with a secret asks first; yes writes it.
	secret := msgs.CreateMemory{Name: "keys", Type: "reference", Description: "aws", Body: "aws key AKIAQZ4XB7WJ2RTLMN5K\n"}
	ask := change(t, e, secret)
	if ask.Ask == nil || !strings.HasPrefix(ask.Ask.Text, "write anyway? y/n") {
		t.Fatalf("a secret's write: %+v, want a question", ask)
	}
	if _, err := os.Stat(filepath.Join(mem, "reference_keys.md")); err == nil {
		t.Fatal("the secret was written before the answer")
	}
	forced := change(t, e, ask.Ask.Yes)
	if _, err := os.Stat(filepath.Join(mem, "reference_keys.md")); err != nil || forced.Status == nil || !strings.Contains(forced.Status.Text, "security finding") {
		t.Fatalf("yes: %v, out %+v", err, forced)
	}
	reload(t, p)

	// u undoes the newest change, then the one before it.
	undone := change(t, e, msgs.Undo{})
	if _, err := os.Stat(filepath.Join(mem, "reference_keys.md")); err == nil || undone.Status == nil || !strings.Contains(undone.Status.Text, "u undoes the change before it") || e.Last() != "" {
		t.Fatalf("u: out %+v, last %q", undone, e.Last())
	}
	reload(t, p)
	// The journal names the change u undoes now (the create).
	e.Update(e.JournalCmd(openCtx)(), openCtx)
	if e.Last() == "" {
		t.Error("the journal's newest change is not noted after an undo")
	}

	ro := openCtx
	ro.ReadOnly = true
	out, _ = e.Update(msgs.DeleteMemory{Path: "note.md"}, ro)
	if st, ok := out.Cmd().(msgs.Status); !ok || !st.Error || !strings.Contains(st.Text, "read-only") {
		t.Fatalf("read-only: %#v", st)
	}
	if _, err := os.Stat(filepath.Join(mem, "note.md")); err != nil {
		t.Fatalf("read-only: note.md: %v", err)
	}
}
