package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/scripts/chaos"
	"github.com/memscope/memscope/ui/feed"
)

// liveLoop runs a Model the way tea.Program does, minus the terminal:
// commands run on goroutines (so the fsnotify watcher blocks for real)
// and their messages come back to one goroutine that calls Update.
type liveLoop struct {
	t    *testing.T
	m    Model
	msgs chan tea.Msg
	// seen is called with every message before Update.
	seen func(tea.Msg)
}

func (l *liveLoop) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				l.exec(c)
			}
			return
		}
		if msg != nil {
			l.msgs <- msg
		}
	}()
}

// until handles messages until done is true after one, or fails after
// limit (a limit on waiting, not an assertion about speed).
func (l *liveLoop) until(limit time.Duration, what string, done func() bool) {
	l.t.Helper()
	deadline := time.After(limit)
	for !done() {
		select {
		case msg := <-l.msgs:
			if l.seen != nil {
				l.seen(msg)
			}
			next, cmd := l.m.Update(msg)
			l.m = next.(Model)
			l.exec(cmd)
		case <-deadline:
			l.t.Fatalf("waited %v for %s", limit, what)
		}
	}
}

// TestLiveReloadWhileClaudeCodeWrites runs the TUI model with live reload
// (fsnotify) on a real home while the chaos writer appends and replaces
// memory files. The model never shows a partial line as corruption and
// keeps its screen; once the writer stops, what it shows equals what the
// writer wrote.
func TestLiveReloadWhileClaudeCodeWrites(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	const project = "/tmp/chaos-ui"
	w, err := chaos.New(chaos.Config{Home: home, Project: project, Seed: 5, SplitEvery: 3, SplitPause: time.Millisecond, Topics: 5, MaxSteps: testenv.Size(t, 300, 100), Pause: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.RunN(5); err != nil {
		t.Fatal(err)
	}
	h, err := model.OpenHome(home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Home: h, Project: project, Watch: true, Now: func() time.Time { return testNow }, Root: testroot.New(t),
		Getenv: func(k string) string {
			if k == "NO_COLOR" {
				return "1"
			}
			return ""
		}})
	var homeLoads, historyLoads int
	var lastSessions []int
	var lastProject *feed.ProjectLoaded
	check := func(where string, probs []model.Problem) {
		for _, p := range probs {
			if p.Kind != model.ProblemIncompleteTail && p.Kind != model.ProblemMalformed || p.Kind == model.ProblemMalformed && !strings.HasSuffix(p.File, ".jsonl") {
				continue // only line problems of the appended files are in question
			}
			if p.Kind != model.ProblemIncompleteTail {
				t.Errorf("%s: %s [%s] while the writer appends: a partial line is not corruption", where, p.Error(), p.Kind)
			}
		}
	}
	l := &liveLoop{t: t, m: m, msgs: make(chan tea.Msg, 256), seen: func(msg tea.Msg) {
		switch msg := msg.(type) {
		case feed.HomeListed:
			homeLoads++
			check("home", msg.Problems())
		case feed.HistoryRead:
			historyLoads++
			check("history", msg.Read().Problems)
		case feed.SessionsLoaded:
			lastSessions = lastSessions[:0]
			for _, s := range msg.Sessions {
				lastSessions = append(lastSessions, s.Records)
			}
		case feed.ProjectLoaded:
			lastProject = &msg
			for _, p := range msg.Problems {
				t.Errorf("memory folder: %s [%s] (files are replaced by rename, never half written)", p.Error(), p.Kind)
			}
		}
	}}
	next, _ := l.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	l.m = next.(Model)
	l.exec(l.m.Init())
	l.until(time.Minute, "the first load and the watcher", func() bool { return l.m.watch != nil && len(l.m.loading) == 0 && lastProject != nil })
	defer func() { l.m.watch.Close() }()

	var writing atomic.Bool
	writing.Store(true)
	var wg sync.WaitGroup
	var werr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer writing.Store(false)
		_, werr = w.Run(nil)
	}()
	keys := []string{"tab", "down", "tab", "down", "down", "tab", "up", "tab", "tab", "tab", "tab"}
	k := 0
	l.until(2*time.Minute, "the writer", func() bool {
		// Keys go in while files change, as a person would press them.
		next, cmd := l.m.Update(keypress.Msg(keys[k%len(keys)]))
		l.m = next.(Model)
		l.exec(cmd)
		k++
		if labels, _, _ := l.m.tabs(); !strings.Contains(screen(l.m), labels[0].text) {
			s := screen(l.m)
			t.Fatalf("the tab bar is gone:\n%s", s)
		}
		return !writing.Load()
	})
	wg.Wait()
	if werr != nil {
		t.Fatal(werr)
	}
	want := w.Counts()
	l.until(time.Minute, "the reload after the last write", func() bool {
		return len(l.m.loading) == 0 && l.m.feeds.history.History() != nil && len(l.m.feeds.history.History().Entries) == want.HistoryLines &&
			len(lastSessions) == 1 && lastSessions[0] == want.TranscriptRecords &&
			lastProject != nil && lastProject.Dir != nil && len(lastProject.Dir.Files) == want.MemoryFiles
	})
	if n := len(l.m.feeds.history.History().Entries); n != want.HistoryLines {
		t.Errorf("the model holds %d history entries, the writer wrote %d", n, want.HistoryLines)
	}
	if len(l.m.feeds.history.History().Problems) != 0 {
		t.Errorf("after the writer stopped, history still has problems: %v", l.m.feeds.history.History().Problems)
	}
	ix := 0
	if lastProject.Dir.Index != nil {
		ix = len(lastProject.Dir.Index.Entries())
	}
	if ix != want.IndexEntries {
		t.Errorf("the model's MEMORY.md has %d entries, the writer wrote %d", ix, want.IndexEntries)
	}
	s := screen(l.m)
	labels, _, _ := l.m.tabs()
	for _, part := range labels[:4] {
		if !strings.Contains(s, part.text) {
			t.Errorf("the screen lost %q:\n%s", part.text, s)
		}
	}
	t.Logf("writer: %d steps, %d split lines; model: %d home loads, %d history loads, %d keys", want.Steps, want.SplitLines, homeLoads, historyLoads, k)
}

// TestSteadyEventsStillReload: a writer that never pauses for the
// debounce (a busy session appends every few milliseconds) must not put
// the reload off forever. The first event of a burst schedules a deadline;
// when it fires and the burst has not been reloaded, the model reloads.
func TestSteadyEventsStillReload(t *testing.T) {
	m := newTestModel(t, 100, 30)
	event := fileChangedMsg{paths: []string{filepath.Join(m.opts.Home.Dir, "history.jsonl")}}
	for i := 0; i < 100; i++ {
		next, _, ok := m.handleWatch(event)
		if !ok {
			t.Fatal("fileChangedMsg not handled")
		}
		m = next
	}
	burst := m.burst
	steps := []struct {
		name       string
		msg        tea.Msg
		wantReload bool
	}{
		{"a debounce tick of an older event does nothing", reloadTickMsg{tag: m.reloadTag - 1}, false},
		{"the deadline of an older burst does nothing", reloadDeadlineMsg{burst: burst - 1}, false},
		{"the burst's deadline reloads although events keep coming", reloadDeadlineMsg{burst: burst}, true},
		{"the same deadline again does nothing", reloadDeadlineMsg{burst: burst}, false},
		{"the newest event's debounce tick reloads (the final state)", reloadTickMsg{tag: m.reloadTag}, true},
	}
	for _, s := range steps {
		m.fl = flights{}
		// A History feed with no read running.
		m.feeds.history = feed.NewHistory(m.opts.Home, nil)
		m.feeds.history.Loaded(m.feeds.history.Init()().(feed.HistoryRead), feed.Open{}, m.opts.Now())
		if s.wantReload {
			// Each reload reads what the events since the last one
			// changed: here, history.jsonl again.
			m.pending.merge(classify(m.opts.Home.Dir, filepath.Join(m.opts.Home.Dir, "history.jsonl")))
		}
		next, _, _ := m.handleWatch(s.msg)
		m = next
		if got := m.feeds.history.Reading(); got != s.wantReload {
			t.Errorf("%s: reload = %v, want %v", s.name, got, s.wantReload)
		}
	}
	next, _, _ := m.handleWatch(event)
	if next.burst != burst+1 || !next.burstOpen {
		t.Errorf("an event after a reload opens burst %d (open %v), want %d", next.burst, next.burstOpen, burst+1)
	}
}

// TestWatchSeesProjectsCreatedLater: Claude Code's first run in a project
// creates its folder and memory folder after memscope started; live
// reload must see files written there too.
func TestWatchSeesProjectsCreatedLater(t *testing.T) {
	home := t.TempDir()
	w := startedWatch(t, home, filepath.Join(home, "projects"))
	mem := filepath.Join(home, "projects", "-tmp-later", "memory")
	if err := os.MkdirAll(mem, 0o700); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(mem, "MEMORY.md")
	waitEvent(t, w, want, func(i int) {
		os.WriteFile(want, []byte(fmt.Sprintf("- [x](x.md) — %d\n", i)), 0o600)
	})
}

// startedWatch makes the folder dir and starts watching home, until the
// test ends.
func startedWatch(t *testing.T, home, dir string) *watcher {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	started := startWatchCmd(home)().(watchStartedMsg)
	if started.err != nil {
		t.Fatal(started.err)
	}
	t.Cleanup(started.w.Close)
	return started.w
}

// waitEvent writes the file want (through write, with the attempt's
// number) until the watcher w reports it: a folder is watched once its
// own Create event has been handled. The limit is on waiting, not an
// assertion about speed.
func waitEvent(t *testing.T, w *watcher, want string, write func(i int)) {
	t.Helper()
	got := make(chan struct{})
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			msg, ok := w.next()().(fileChangedMsg)
			if !ok {
				return
			}
			if slices.Contains(msg.paths, want) {
				close(got)
				return
			}
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	deadline := time.After(30 * time.Second)
	for i := 0; ; i++ {
		write(i)
		select {
		case <-got:
			return
		case <-deadline:
			t.Fatalf("no event for %s", want)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Subagent transcripts are watched: in a session folder that existed at
// the start, and in a subagents/ folder made later, in a session folder
// made later.
func TestWatchSeesSubagents(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "projects", "-tmp-app")
	old := filepath.Join(proj, "s-old", "subagents")
	w := startedWatch(t, home, old)
	appendLine := func(p string) func(int) {
		return func(i int) {
			f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(f, "{\"n\":%d}\n", i)
			f.Close()
		}
	}
	first := filepath.Join(old, "agent-a1.jsonl")
	waitEvent(t, w, first, appendLine(first))
	later := filepath.Join(proj, "s-new", "subagents")
	if err := os.MkdirAll(later, 0o700); err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(later, "agent-b2.jsonl")
	waitEvent(t, w, second, appendLine(second))
}
