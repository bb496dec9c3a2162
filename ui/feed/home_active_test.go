package feed

import (
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"

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
	filled := h.Active(homeActiveOf(t, h.FillActive(true)), testNow)
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

	// Started outside every project: the newest project is opened, so
	// the list reads the ends first (and takes nothing afterwards).
	c.n = 0
	h = NewHome(home, diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{}))
	h.TakeActiveFrom(enginesessions.NewActiveHandoff(), "/elsewhere")
	out = h.Listed(h.Init()().(HomeListed), "", "/elsewhere", testNow)
	if out.Open != "-w-b" || h.FillActive(false) != nil || c.opened() < probe+2 {
		t.Errorf("started elsewhere: opened %q, %d transcripts read (the listing %d), next %v", out.Open, c.opened(), probe, out.Cmd != nil)
	}
}
