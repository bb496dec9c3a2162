package feed

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/homepass"
	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// transcriptOpens counts the transcripts opened through it.
type transcriptOpens struct {
	fs.FS
	mu sync.Mutex
	n  int
}

func (c *transcriptOpens) count(name string) {
	if strings.HasSuffix(name, ".jsonl") {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	}
}

func (c *transcriptOpens) Open(name string) (fs.File, error) {
	c.count(name)
	return c.FS.Open(name)
}

func (c *transcriptOpens) OpenRegular(name string) (fs.File, error) {
	c.count(name)
	return model.OpenRegular(c.FS, name)
}

func (c *transcriptOpens) opened() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// homeActiveOf is the HomeActive cmd's message (a batch searched).
func homeActiveOf(t *testing.T, cmd tea.Cmd) HomeActive {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command after the list")
	}
	switch msg := cmd().(type) {
	case HomeActive:
		return msg
	case tea.BatchMsg:
		for _, c := range msg {
			if c == nil {
				continue
			}
			if m, ok := c().(HomeActive); ok {
				return m
			}
		}
	}
	t.Fatal("the list's command brings no HomeActive")
	return HomeActive{}
}

// At a cold start with memscope started in a project's folder, the
// Projects list reads no transcript: it shows their modification times,
// and the last activities the Overview's shared pass found once it
// ended, the same rows a list that read the transcripts' ends shows. On
// the old code the list read every transcript's end before the pass read
// it whole (2 opens here). Started elsewhere, the project to open is the
// most recently active, so the list reads them first, as before.
func TestHomeTakesLastActivityFromThePass(t *testing.T) {
	dir := homeWithProjects(t)
	want := func() []string {
		h := NewHome(testHome(t, dir), nil)
		out := h.Listed(h.Init()().(HomeListed), "", "/w/a", testNow)
		var rows []string
		for _, r := range out.Rows.Rows {
			rows = append(rows, r.Project.Slug+" "+r.LastActive.Time.String()+" "+string(r.LastActive.Clock))
		}
		return rows
	}()
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	home := testHome(t, dir)
	c := &transcriptOpens{FS: home.FS}
	home.FS = c
	// The listing itself opens a transcript of each project for its
	// folder (ProbeProjectPath): those opens are the listing's.
	model.ListProjectsFiles(c)
	probe := c.opened()
	c.n = 0
	h := NewHome(home, cache)
	handoff := enginesessions.NewActiveHandoff()
	h.TakeActiveFrom(handoff, "/w/a")
	listed := h.Init()().(HomeListed)
	out := h.Listed(listed, "", "/w/a", testNow)
	if out.Open != "-w-a" || c.opened() != probe {
		t.Fatalf("the start opened %q and %d transcripts, the listing alone %d", out.Open, c.opened(), probe)
	}
	for _, r := range out.Rows.Rows {
		if r.LastActive.Clock != enginesessions.ClockMTime {
			t.Errorf("%s before the pass: %+v", r.Project.Slug, r.LastActive)
		}
	}
	if cmd := h.FillActive(true); cmd != nil {
		t.Fatal("the list fills in while the pass runs")
	}
	files, _ := model.FindTranscripts(testHome(t, dir).FS)
	if _, err := homepass.Run(testHome(t, dir).FS, files, 0, readAll{}, handoff.Feed(cache, dir)); err != nil {
		t.Fatal(err)
	}
	filled := h.Active(homeActiveOf(t, h.FillActive(true)), "-w-a", testNow)
	var got []string
	for _, r := range filled.Rows.Rows {
		got = append(got, r.Project.Slug+" "+r.LastActive.Time.String()+" "+string(r.LastActive.Clock))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows after the pass\n%s\nthe list that reads the ends\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := c.opened(); n != probe {
		t.Errorf("the list opened %d transcripts, the listing alone %d", n, probe)
	}

	if filled.Open != "" {
		t.Errorf("started in a project, the fill opens %q", filled.Open)
	}

	// The pass first: it ended before the list came; the list takes
	// its answers at once, reading nothing.
	c.n = 0
	handoff = enginesessions.NewActiveHandoff()
	cache2 := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	if _, err := homepass.Run(testHome(t, dir).FS, files, 0, readAll{}, handoff.Feed(nil, dir)); err != nil {
		t.Fatal(err)
	}
	h = NewHome(home, cache2)
	h.TakeActiveFrom(handoff, "/w/a")
	out = h.Listed(h.Init()().(HomeListed), "", "/w/a", testNow)
	filled = h.Active(homeActiveOf(t, h.FillActive(true)), out.Open, testNow)
	got = got[:0]
	for _, r := range filled.Rows.Rows {
		got = append(got, r.Project.Slug+" "+r.LastActive.Time.String()+" "+string(r.LastActive.Clock))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || c.opened() != probe {
		t.Errorf("the pass first: %d opens (the listing %d), rows\n%s\nwant\n%s", c.opened(), probe, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Started outside every project: the newest project is opened, so
	// the list reads the ends that can be the newest first (project b's,
	// modified last; a's mtime is older than b's record) and takes a's
	// from the pass.
	c.n = 0
	handoff = enginesessions.NewActiveHandoff()
	h = NewHome(home, diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{}))
	h.TakeActiveFrom(handoff, "/elsewhere")
	out = h.Listed(h.Init()().(HomeListed), "", "/elsewhere", testNow)
	// b's end: its read and the check that it was not written
	// meanwhile (model.Unchanged), two opens; a is not opened.
	if out.Open != "-w-b" || c.opened() != probe+2 || h.FillActive(true) != nil {
		t.Errorf("started elsewhere: opened %q, %d transcripts read (the listing %d)", out.Open, c.opened(), probe)
	}
	if _, err := homepass.Run(testHome(t, dir).FS, files, 0, readAll{}, handoff.Feed(nil, dir)); err != nil {
		t.Fatal(err)
	}
	filled = h.Active(homeActiveOf(t, h.FillActive(true)), out.Open, testNow)
	got = got[:0]
	for _, r := range filled.Rows.Rows {
		got = append(got, r.Project.Slug+" "+r.LastActive.Time.String()+" "+string(r.LastActive.Clock))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || filled.Open != "" || c.opened() != probe+2 {
		t.Errorf("started elsewhere, after the pass: open %q, %d opens (the listing %d), rows\n%s\nwant\n%s", filled.Open, c.opened(), probe, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A transcript touched into the past (its mtime older than its newest
// record) is not read before the list when another's record is newer
// than that mtime: the list opens the project that seems the newest, and
// once the pass hands the transcript's activity over, the fill names the
// project the list that reads every end opens (Open), unless the user
// opened another meanwhile.
func TestHomeNewestChecksItsPickAfterThePass(t *testing.T) {
	dir := homeWithProjects(t)
	// a's record is the newest (30 min ago), its mtime 2 days old; b's
	// record and mtime 1 h ago.
	p := filepath.Join(dir, "projects", "-w-a", "aaaaaaaa-0000-4000-8000-000000000001.jsonl")
	at := testNow.Add(-30 * time.Minute)
	line := `{"type":"user","uuid":"u2","sessionId":"aaaaaaaa-0000-4000-8000-000000000001","timestamp":"` + at.Format(time.RFC3339) + `","cwd":"/w/a","message":{"role":"user","content":"later"}}` + "\n"
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
	f.Close()
	old := testNow.Add(-48 * time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	full := NewHome(testHome(t, dir), nil)
	if out := full.Listed(full.Init()().(HomeListed), "", "", testNow); out.Open != "-w-a" {
		t.Fatalf("the list that reads every end opens %q", out.Open)
	}
	files, _ := model.FindTranscripts(testHome(t, dir).FS)
	for _, open := range []string{"", "-w-c"} {
		handoff := enginesessions.NewActiveHandoff()
		h := NewHome(testHome(t, dir), diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{}))
		h.TakeActiveFrom(handoff, "")
		out := h.Listed(h.Init()().(HomeListed), "", "", testNow)
		if out.Open != "-w-b" {
			t.Fatalf("before the pass the list opens %q", out.Open)
		}
		if _, err := homepass.Run(testHome(t, dir).FS, files, 0, readAll{}, handoff.Feed(nil, dir)); err != nil {
			t.Fatal(err)
		}
		now := out.Open
		if open != "" {
			now = open // the user opened another project
		}
		filled := h.Active(homeActiveOf(t, h.FillActive(true)), now, testNow)
		want := "-w-a"
		if open != "" {
			want = ""
		}
		if filled.Open != want {
			t.Errorf("open now %q: the fill opens %q, want %q", now, filled.Open, want)
		}
	}
}
