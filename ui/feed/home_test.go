package feed

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/projects"
)

// homeWithProjects writes a home with projects a (older, with a memory
// file) and b (newer), each with one session, and returns its folder.
func homeWithProjects(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	session := func(slug, id, cwd string, at time.Time) {
		t.Helper()
		p := filepath.Join(dir, "projects", slug, id+".jsonl")
		os.MkdirAll(filepath.Dir(p), 0o700)
		line := `{"type":"user","uuid":"u1","sessionId":"` + id + `","timestamp":"` + at.Format(time.RFC3339) + `","cwd":"` + cwd + `","message":{"role":"user","content":"hi"}}` + "\n"
		if err := os.WriteFile(p, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, at, at)
	}
	session("-w-a", "aaaaaaaa-0000-4000-8000-000000000001", "/w/a", testNow.Add(-48*time.Hour))
	session("-w-b", "bbbbbbbb-0000-4000-8000-000000000002", "/w/b", testNow.Add(-time.Hour))
	os.MkdirAll(filepath.Join(dir, "projects", "-w-a", "memory"), 0o700)
	os.WriteFile(filepath.Join(dir, "projects", "-w-a", "memory", "note.md"), []byte("---\nname: n\ndescription: d\ntype: project\n---\nbody\n"), 0o600)
	return dir
}

// The Home feed lists the projects and opens the newest, or the one of
// the folder memscope started in (or a folder below it), or keeps the
// one open; a session or memory change reads that row only, and a
// session of a project the list does not have reads the whole list.
func TestHomeFeedListsAndUpdatesRows(t *testing.T) {
	dir := homeWithProjects(t)
	h := NewHome(testHome(t, dir), nil)
	if !h.ReadingAll() {
		t.Fatal("a new feed does not count its start-up read")
	}
	listed, ok := h.Init()().(HomeListed)
	if !ok {
		t.Fatal("Init did not list the projects")
	}
	out := h.Listed(listed, "", "", testNow)
	if out.Open != "-w-b" || !out.OpenAll || len(out.Rows.Rows) != 2 || out.Cmd != nil || h.ReadingAll() {
		t.Fatalf("the start: open %q (all %v), %d rows, next %v", out.Open, out.OpenAll, len(out.Rows.Rows), out.Cmd != nil)
	}
	if h.Path("-w-a") != "/w/a" {
		t.Errorf("project a's folder: %q", h.Path("-w-a"))
	}
	if out := h.Listed(listed, "", "/w/a/sub", testNow); out.Open != "-w-a" {
		t.Errorf("started below /w/a, opened %q", out.Open)
	}
	if out := h.Listed(listed, "-w-a", "", testNow); out.Open != "-w-a" {
		t.Errorf("with a open, the list opened %q", out.Open)
	}

	// A memory file added to b: its row counts it, a's is as it was.
	before := rowNamed(t, h, "-w-a")
	os.MkdirAll(filepath.Join(dir, "projects", "-w-b", "memory"), 0o700)
	os.WriteFile(filepath.Join(dir, "projects", "-w-b", "memory", "x.md"), []byte("x\n"), 0o600)
	cmd := h.Request(HomeReq{Memory: map[string]bool{"-w-b": true}})
	if h.ReadingAll() {
		t.Error("a row's read counts as a whole read")
	}
	delta, ok := cmd().(HomeDelta)
	if !ok {
		t.Fatal("a memory change did not read a delta")
	}
	out = h.Delta(delta, testNow)
	if b := rowNamed(t, h, "-w-b"); !b.Project.HasMemory || b.Memory.Files == 0 || out.Cmd != nil {
		t.Errorf("b after its memory change: %+v (next %v)", b, out.Cmd != nil)
	}
	if a := rowNamed(t, h, "-w-a"); a.Memory != before.Memory {
		t.Errorf("a's row changed: %+v, before %+v", a.Memory, before.Memory)
	}

	// A session of a project not listed: the whole list is read.
	cmd = h.Request(HomeReq{Sessions: map[SessionKey]bool{{Slug: "-w-new", ID: "x"}: true}})
	out = h.Delta(cmd().(HomeDelta), testNow)
	if out.Cmd == nil || !h.ReadingAll() {
		t.Fatal("a session of an unknown project did not list the projects again")
	}
	if _, ok := out.Cmd().(HomeListed); !ok {
		t.Error("the read after an unknown project is not a list")
	}
}

// rowNamed is the row of project slug.
func rowNamed(t *testing.T, h *Home, slug string) projects.Row {
	t.Helper()
	for _, r := range h.Rows() {
		if r.Project.Slug == slug {
			return r
		}
	}
	t.Fatalf("no row %s", slug)
	return projects.Row{}
}

// Requests made while a read runs are merged: a whole read wins, and
// the sessions and memory folders of both are read.
func TestMergeHome(t *testing.T) {
	a := HomeReq{Sessions: map[SessionKey]bool{{Slug: "p", ID: "1"}: true}}
	got := MergeHome(a, HomeReq{OpenAll: true, Memory: map[string]bool{"q": true}, Sessions: map[SessionKey]bool{{Slug: "p", ID: "2"}: true}})
	if got.Full || !got.OpenAll || len(got.Sessions) != 2 || !got.Memory["q"] || len(a.Sessions) != 1 {
		t.Fatalf("merged %+v (a now %+v)", got, a)
	}
	if got := MergeHome(got, HomeReq{Full: true}); !got.Full || len(got.Sessions) != 2 {
		t.Fatalf("with a whole read: %+v", got)
	}
}

// TestAllTranscriptsAllocatesOnce: the projects' transcripts are put in
// one list allocated once at its size, in the projects' order.
func TestAllTranscriptsAllocatesOnce(t *testing.T) {
	var ps []model.Project
	files := map[string][]model.TranscriptFile{}
	for p := range 40 {
		slug := fmt.Sprintf("-w-p%d", p)
		ps = append(ps, model.Project{Slug: slug})
		for s := range p % 7 {
			files[slug] = append(files[slug], model.TranscriptFile{Path: fmt.Sprintf("projects/%s/%d.jsonl", slug, s)})
		}
	}
	all := allTranscripts(ps, files)
	i := 0
	for _, p := range ps {
		for _, f := range files[p.Slug] {
			if all[i] != f {
				t.Fatalf("transcript %d is %s, want %s", i, all[i].Path, f.Path)
			}
			i++
		}
	}
	if i != len(all) {
		t.Fatalf("%d transcripts, want %d", len(all), i)
	}
	if a := testing.AllocsPerRun(5, func() { allTranscripts(ps, files) }); a != 1 {
		t.Errorf("%.0f allocations, want 1", a)
	}
}
