package ui

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/scripts/chaos"
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/replay"
)

const chaosProject = "/tmp/chaos-incremental"

// chaosHome writes a home with the chaos writer (steps steps) and opens
// the app on it, loaded. The writer goes on writing to the same home.
func chaosHome(t *testing.T, steps int, cfg chaos.Config) (Model, *chaos.Writer, string) {
	t.Helper()
	home := t.TempDir()
	cfg.Home, cfg.Project = home, chaosProject
	if cfg.Seed == 0 {
		cfg.Seed = 9
	}
	if cfg.Topics == 0 {
		cfg.Topics = 4
	}
	w, err := chaos.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.RunN(steps); err != nil {
		t.Fatal(err)
	}
	return openHome(t, home), w, home
}

// openHome opens the app on the home at dir and loads it.
func openHome(t *testing.T, dir string) Model {
	t.Helper()
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Home: h, Project: chaosProject, Now: func() time.Time { return testNow }, Root: testroot.New(t),
		Getenv: func(k string) string {
			if k == "NO_COLOR" {
				return "1"
			}
			return ""
		}})
	m = drain(t, m, m.Init())
	next, cmd := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return drain(t, next.(Model), cmd)
}

// appendLine appends one line to the file p.
func appendLine(t *testing.T, p, line string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// reloadSeen reloads what the events about paths change and returns the
// messages the reload produced, by type name.
func reloadSeen(t *testing.T, m Model, paths ...string) (Model, map[string][]tea.Msg) {
	t.Helper()
	var c change
	for _, p := range paths {
		c.merge(classify(m.opts.Home.Dir, p))
	}
	seen := map[string][]tea.Msg{}
	cmd := m.reload(c)
	m = drainWith(t, m, cmd, func(msg tea.Msg) {
		name := strings.TrimPrefix(reflect.TypeOf(msg).String(), "ui.")
		seen[name] = append(seen[name], msg)
	})
	return m, seen
}

// An appended history line and an appended transcript line are read and
// nothing else: the history read covers the new line (and the head
// check), only the changed session is summarized again, the project
// memory is not reloaded, and no paste file is hashed again.
func TestIncrementalReloadReadsOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	m, _, home := chaosHome(t, 60, chaos.Config{})
	// The Pastes pane shown: the paste inventory is checked (at first
	// show, not at start).
	m = press(t, m, "6")
	slug := model.Slug(chaosProject)
	hashed := m.feeds.history.Hashed()
	if hashed == 0 || len(m.feeds.sessions.List()) == 0 || m.feeds.history.History() == nil {
		t.Fatalf("the chaos home has no pastes, sessions or history: %d hashed, %d sessions", hashed, len(m.feeds.sessions.List()))
	}
	// A second session, so there is one that must not be read.
	other := filepath.Join(home, "projects", slug, "00000000-0000-4000-8000-000000000099.jsonl")
	os.WriteFile(other, []byte(`{"type":"user","timestamp":"2026-11-22T10:00:00.000Z","sessionId":"00000000-0000-4000-8000-000000000099","cwd":"/tmp/chaos-incremental","message":{"role":"user","content":"hello"}}`+"\n"), 0o600)
	m, _ = reloadSeen(t, m, other)
	if len(m.feeds.sessions.List()) != 2 {
		t.Fatalf("a new transcript did not add a session: %d", len(m.feeds.sessions.List()))
	}
	otherRead := m.feeds.sessions.Follower(rel(home, other)).Read()

	histPath := filepath.Join(home, "history.jsonl")
	prompt := `{"display":"the newest prompt, appended","pastedContents":{},"timestamp":1795400000000,"project":"/tmp/chaos-incremental","sessionId":"s"}`
	appendLine(t, histPath, prompt)
	var transcript string
	for _, s := range m.feeds.sessions.List() {
		if s.File.Path != rel(home, other) {
			transcript = filepath.Join(home, filepath.FromSlash(s.File.Path))
		}
	}
	records := sessionRecords(m, rel(home, transcript))
	appendLine(t, transcript, `{"type":"user","timestamp":"2026-11-22T11:00:00.000Z","sessionId":"x","message":{"role":"user","content":"one more"}}`)

	entries := len(m.feeds.history.History().Entries)
	m, seen := reloadSeen(t, m, histPath, transcript)
	for _, name := range []string{"feed.HomeListed", "feed.ProjectLoaded", "feed.PastesChecked"} {
		if len(seen[name]) != 0 {
			t.Errorf("an appended line made %d %s", len(seen[name]), name)
		}
	}
	hs := seen["feed.HistoryRead"]
	if len(hs) != 1 {
		t.Fatalf("%d history reads", len(hs))
	}
	r := hs[0].(feed.HistoryRead).Read()
	if r.Full || len(r.Entries) != 1 || r.Tail.Read > int64(len(prompt)+1)+model.TailHeadMax {
		t.Fatalf("the history read was full %v, %d entries, %d bytes read for a %d-byte line", r.Full, len(r.Entries), r.Tail.Read, len(prompt)+1)
	}
	if len(m.feeds.history.History().Entries) != entries+1 {
		t.Fatalf("history has %d entries, want %d", len(m.feeds.history.History().Entries), entries+1)
	}
	if got := sessionRecords(m, rel(home, transcript)); got != records+1 {
		t.Fatalf("the appended session shows %d records, want %d", got, records+1)
	}
	if got := m.feeds.sessions.Follower(rel(home, other)).Read(); got != otherRead {
		t.Fatalf("the unchanged session was read again: %+v, before %+v", got, otherRead)
	}
	if n := m.feeds.history.Hashed(); n != hashed {
		t.Fatalf("%d paste files hashed again", n-hashed)
	}
	m = press(t, m, "5")
	if !strings.Contains(screen(m), "the newest prompt, appended") {
		t.Fatalf("the History pane does not show the appended prompt:\n%s", screen(m))
	}

	// A memory file changes: the project's memory is read again (once),
	// and nothing else.
	mem := filepath.Join(home, "projects", slug, "memory", "fresh_note.md")
	os.WriteFile(mem, []byte("---\nname: fresh\ndescription: d\ntype: project\n---\nbody\n"), 0o600)
	m, seen = reloadSeen(t, m, mem)
	if len(seen["feed.ProjectLoaded"]) != 1 || len(seen["feed.HistoryRead"])+len(seen["feed.SessionsLoaded"])+len(seen["feed.HomeListed"]) != 0 {
		t.Fatalf("a memory file reloaded %v", keys(seen))
	}
}

func rel(home, p string) string {
	r, _ := filepath.Rel(home, p)
	return filepath.ToSlash(r)
}

func sessionRecords(m Model, path string) int {
	for _, s := range m.feeds.sessions.List() {
		if s.File.Path == path {
			return s.Records
		}
	}
	return -1
}

func keys(seen map[string][]tea.Msg) []string {
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	return out
}

// snapshot is every file's size and mtime under a home.
func snapshot(t *testing.T, home string) map[string][2]int64 {
	out := map[string][2]int64{}
	filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if info, err := d.Info(); err == nil {
			out[p] = [2]int64{info.Size(), info.ModTime().UnixNano()}
		}
		return nil
	})
	return out
}

// changedPaths are the paths whose size or mtime differ between two
// snapshots, or that are in only one: what the watcher would report.
func changedPaths(a, b map[string][2]int64) []string {
	var out []string
	for p, v := range b {
		if a[p] != v {
			out = append(out, p)
		}
	}
	for p := range a {
		if _, ok := b[p]; !ok {
			out = append(out, p)
		}
	}
	return out
}

// The app following a home change by change, with reloads while lines
// are half written, ends with what a fresh start on the final home
// shows: the same project rows, history, paste inventory, Replay list
// and memory, and the same screens.
func TestIncrementalReloadsEqualAFreshLoad(t *testing.T) {
	t.Parallel()
	var m Model
	var home string
	var before map[string][2]int64
	halves := 0
	follow := func() {
		after := snapshot(t, home)
		m, _ = reloadSeen(t, m, changedPaths(before, after)...)
		before = after
	}
	cfg := chaos.Config{SplitEvery: 2, BetweenHalves: func(string, []byte) {
		if before == nil {
			return // still writing the first home
		}
		if halves++; halves%3 == 0 {
			follow()
		}
	}}
	var w *chaos.Writer
	m, w, home = chaosHome(t, 20, cfg)
	before = snapshot(t, home)
	for i := 0; i < 80; i++ {
		if err := w.Step(); err != nil {
			t.Fatal(err)
		}
		if i%4 == 3 {
			follow()
		}
	}
	follow()
	if halves == 0 {
		t.Fatal("the writer never split a line")
	}
	fresh := openHome(t, home)
	if !reflect.DeepEqual(m.feeds.home.Rows(), fresh.feeds.home.Rows()) {
		t.Errorf("project rows differ:\n%+v\nfresh\n%+v", m.feeds.home.Rows(), fresh.feeds.home.Rows())
	}
	if !reflect.DeepEqual(m.feeds.history.History().Entries, fresh.feeds.history.History().Entries) || !reflect.DeepEqual(m.feeds.history.History().Problems, fresh.feeds.history.History().Problems) {
		t.Errorf("history differs: %d entries %d problems, fresh %d and %d", len(m.feeds.history.History().Entries), len(m.feeds.history.History().Problems), len(fresh.feeds.history.History().Entries), len(fresh.feeds.history.History().Problems))
	}
	if !reflect.DeepEqual(m.feeds.history.Inventory(), fresh.feeds.history.Inventory()) {
		t.Errorf("paste inventory differs:\n%+v\nfresh\n%+v", m.feeds.history.Inventory().Summary, fresh.feeds.history.Inventory().Summary)
	}
	if !reflect.DeepEqual(m.feeds.sessions.List(), fresh.feeds.sessions.List()) {
		t.Errorf("Replay list differs:\n%+v\nfresh\n%+v", m.feeds.sessions.List(), fresh.feeds.sessions.List())
	}
	if !reflect.DeepEqual(m.feeds.project.Cur().Rows, fresh.feeds.project.Cur().Rows) {
		t.Errorf("memory rows differ: %d, fresh %d", len(m.feeds.project.Cur().Rows), len(fresh.feeds.project.Cur().Rows))
	}
	for _, k := range []string{"2", "3", "4", "5", "6", "7"} {
		m, fresh = press(t, m, k), press(t, fresh, k)
		if a, b := screen(m), screen(fresh); a != b {
			t.Errorf("pane %s differs:\n%s\nfresh:\n%s", k, a, b)
		}
	}
}

// openLog is a home's file system that logs the files opened.
type openLog struct {
	fs.FS
	mu     sync.Mutex
	opened map[string]int
}

func (o *openLog) Open(name string) (fs.File, error) {
	o.mu.Lock()
	o.opened[name]++
	o.mu.Unlock()
	return o.FS.Open(name)
}

// A line appended to a session's main transcript reads that transcript
// only: the session's subagent transcripts, which did not change, are
// neither summarized again nor read for their last activity, in the
// Replay list's load or the project row's.
func TestIncrementalReloadSkipsUnchangedSubagents(t *testing.T) {
	t.Parallel()
	m, _, home := chaosHome(t, 40, chaos.Config{})
	if len(m.feeds.sessions.List()) == 0 {
		t.Fatal("the chaos home has no session")
	}
	main := filepath.Join(home, filepath.FromSlash(m.feeds.sessions.List()[0].File.Path))
	id := m.feeds.sessions.List()[0].File.SessionID
	subDir := filepath.Join(filepath.Dir(main), id, "subagents")
	if err := os.MkdirAll(subDir, 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(subDir, "agent-a1.jsonl")
	os.WriteFile(sub, []byte(`{"type":"user","timestamp":"2026-11-22T10:00:00.000Z","sessionId":"`+id+`","isSidechain":true,"agentId":"a1","message":{"role":"user","content":"look"}}`+"\n"), 0o600)
	m, _ = reloadSeen(t, m, sub)
	subRel := rel(home, sub)
	if m.feeds.sessions.Follower(subRel) == nil {
		t.Fatalf("the subagent transcript is not in the Replay list: %+v", m.feeds.sessions.List())
	}
	subSession := func(m Model) replay.Session {
		for _, s := range m.feeds.sessions.List() {
			if s.File.Path == subRel {
				return s
			}
		}
		t.Fatalf("no session for %s", subRel)
		return replay.Session{}
	}
	before := subSession(m)
	// Off the Overview (focused at start): after an append it counts its
	// running-sessions line again, with a tracker of its own, and that
	// reader is not the one this test measures.
	m = press(t, m, "2")

	log := &openLog{FS: m.opts.Home.FS, opened: map[string]int{}}
	m.opts.Home.FS = log
	records := sessionRecords(m, rel(home, main))
	appendLine(t, main, `{"type":"user","timestamp":"2026-11-22T11:00:00.000Z","sessionId":"`+id+`","message":{"role":"user","content":"one more"}}`)
	m, seen := reloadSeen(t, m, main)
	if len(seen["feed.HomeDelta"]) != 1 || len(seen["feed.SessionsLoaded"]) != 1 {
		t.Fatalf("the append made %v", keys(seen))
	}
	if got := sessionRecords(m, rel(home, main)); got != records+1 {
		t.Fatalf("the appended transcript shows %d records, want %d", got, records+1)
	}
	if log.opened[rel(home, main)] == 0 {
		t.Fatalf("the appended transcript was not read: %v", log.opened)
	}
	if n := log.opened[subRel]; n != 0 {
		t.Errorf("the unchanged subagent transcript was opened %d times: %v", n, log.opened)
	}
	if after := subSession(m); !reflect.DeepEqual(after, before) {
		t.Errorf("the unchanged subagent's row changed:\n%+v\nbefore\n%+v", after, before)
	}
}
