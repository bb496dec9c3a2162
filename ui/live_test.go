package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/replay"
)

// liveSession is the interactive session the Live tests follow: pid
// 4242, started in the beta project.
const (
	liveSession = "11111111-2222-4333-8444-555555555555"
	printRun    = "22222222-3333-4444-8555-666666666666"
	liveSlug    = "-tmp-rc-work-beta"
	livePID     = 4242
)

// liveLines writes transcript lines as the client does: one record a
// line, chained, each with its timestamp.
type liveLines struct {
	b       strings.Builder
	session string
	cwd     string
	memDir  string
	parent  string
	n       int
}

func (l *liveLines) add(at time.Time, typ, body string) string {
	l.n++
	uuid := fmt.Sprintf("%s-%04d", l.session[:8], l.n)
	parent := "null"
	if l.parent != "" {
		parent = `"` + l.parent + `"`
	}
	fmt.Fprintf(&l.b, `{"parentUuid":%s,"isSidechain":false,"type":%q,"uuid":%q,"timestamp":%q,"sessionId":%q,"cwd":%q%s}`+"\n",
		parent, typ, uuid, at.UTC().Format(model.ISOMillis), l.session, l.cwd, body)
	l.parent = uuid
	return uuid
}

func (l *liveLines) prompt(at time.Time, text string) {
	l.add(at, "user", fmt.Sprintf(`,"message":{"role":"user","content":%q}`, text))
}

// answer is one response whose request held context tokens; write,
// when set, is a memory file (relative to the memory folder) it writes.
func (l *liveLines) answer(at time.Time, id string, context int, write string) {
	content := `{"type":"text","text":"ok"}`
	if write != "" {
		content = fmt.Sprintf(`{"type":"tool_use","id":"toolu_%s","name":"Write","input":{"file_path":%q,"content":"x"}}`, id, l.memDir+"/"+write)
	}
	l.add(at, "assistant", fmt.Sprintf(`,"requestId":"req_%s","message":{"id":"msg_%s","role":"assistant","model":"claude-opus-5-5","content":[%s],"usage":{"input_tokens":3,"cache_read_input_tokens":%d,"cache_creation_input_tokens":0,"output_tokens":200}}`,
		id, id, content, context-3))
}

func (l *liveLines) compact(at time.Time, pre, post int) {
	l.parent = ""
	l.add(at, "system", fmt.Sprintf(`,"subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":%d,"postTokens":%d}`, pre, post))
	l.add(at, "user", `,"isCompactSummary":true,"message":{"role":"user","content":"This session is being continued"}`)
}

// liveFixture is the interactive session's transcript up to a minute
// before testNow: turns growing to a compaction three minutes ago, then
// growing again, with a memory file written.
func liveFixture(homeDir string) *liveLines {
	l := &liveLines{session: liveSession, cwd: betaProject, memDir: homeDir + "/projects/" + liveSlug + "/memory"}
	at := testNow.Add(-40 * time.Minute)
	l.prompt(at, "fix the flaky test")
	for i, ctx := range []int{60000, 95000, 130000, 168000} {
		at = at.Add(2 * time.Minute)
		l.answer(at, fmt.Sprintf("a%d", i), ctx, "")
	}
	l.compact(testNow.Add(-3*time.Minute), 168000, 14000)
	at = testNow.Add(-150 * time.Second)
	l.prompt(at, "now the docs")
	for i, ctx := range []int{30000, 42000, 55000} {
		at = at.Add(30 * time.Second)
		write := ""
		if i == 1 {
			write = "feedback_testing.md"
		}
		l.answer(at, fmt.Sprintf("b%d", i), ctx, write)
	}
	return l
}

// liveFiles are the Live pane's files: the interactive session's process
// file and transcript, a -p run written two minutes ago in another
// project, a process file whose process is gone, and the memory file the
// session wrote.
func liveFiles(homeDir string) map[string]*fstest.MapFile {
	l := liveFixture(homeDir)
	p := &liveLines{session: printRun, cwd: "/home/me/app"}
	p.prompt(testNow.Add(-4*time.Minute), "summarize the changelog")
	p.answer(testNow.Add(-2*time.Minute), "p0", 21000, "")
	file := func(s string, at time.Time) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(s), Mode: 0o644, ModTime: at}
	}
	// Two subagents of the interactive session: one still exploring, one
	// whose meta file says it finished.
	agent := func(id string, at time.Time, context int) string {
		a := &liveLines{session: liveSession, cwd: betaProject}
		a.prompt(at, "look around")
		a.answer(at.Add(10*time.Second), id, context, "")
		return strings.ReplaceAll(a.b.String(), `"isSidechain":false`, `"isSidechain":true`)
	}
	subs := "projects/" + liveSlug + "/" + liveSession + "/subagents/"
	return map[string]*fstest.MapFile{
		subs + "agent-a0e1.jsonl":                              file(agent("x1", testNow.Add(-40*time.Second), 23000), testNow.Add(-30*time.Second)),
		subs + "agent-a0e1.meta.json":                          file(`{"agentType":"Explore","isBuiltIn":true,"description":"Find where the flaky test seeds its clock","model":"claude-haiku-5","finished":false}`, testNow.Add(-40*time.Second)),
		subs + "agent-b7f2.jsonl":                              file(agent("x2", testNow.Add(-20*time.Minute), 41000), testNow.Add(-19*time.Minute)),
		subs + "agent-b7f2.meta.json":                          file(`{"agentType":"general-purpose","description":"Run the suite twice","finished":true}`, testNow.Add(-19*time.Minute)),
		fmt.Sprintf("sessions/%d.json", livePID):               file(fmt.Sprintf(`{"pid":%d,"sessionId":%q,"cwd":%q,"startedAt":"2026-11-22T11:20:00Z","status":"busy"}`, livePID, liveSession, betaProject), testNow.Add(-time.Minute)),
		"sessions/999.json":                                    file(fmt.Sprintf(`{"pid":999,"sessionId":"gone","cwd":%q,"startedAt":"2026-11-21T08:00:00Z","status":"idle"}`, betaProject), testNow.Add(-20*time.Hour)),
		"projects/" + liveSlug + "/" + liveSession + ".jsonl":  file(l.b.String(), testNow.Add(-time.Minute)),
		"projects/-home-me-app/" + printRun + ".jsonl":         file(p.b.String(), testNow.Add(-2*time.Minute)),
		"projects/" + liveSlug + "/memory/feedback_testing.md": file("---\nname: testing\ndescription: run the tests twice\ntype: feedback\n---\nrun them twice\n", testNow.Add(-90*time.Second)),
	}
}

// liveModel is the app on testdata/home plus the live files, with pid
// 4242 alive and every other pid gone.
func liveModel(t testing.TB, w, h int) Model {
	t.Helper()
	home := fixedHome(t)
	mfs := home.FS.(fstest.MapFS)
	for k, v := range liveFiles(home.Dir) {
		mfs[k] = v
	}
	return loadedModel(t, Options{Home: home, Root: fstest.MapFS{}, Alive: func(pid int) bool { return pid == livePID }}, w, h)
}

func TestLivePaneGolden(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("live_%dx%d", size.w, size.h), func(t *testing.T) {
			m := press(t, liveModel(t, size.w, size.h), "L")
			golden.RequireEqual(t, screen(m))
		})
	}
	t.Run("live_empty_80x24", func(t *testing.T) {
		golden.RequireEqual(t, screen(press(t, newTestModel(t, 80, 24), "L")))
	})
}

// diskLive is the live files in a home on disk, which the tests append
// to as the client would.
type diskLive struct {
	t    *testing.T
	dir  string
	home *model.Home
	l    *liveLines
}

func newDiskLive(t *testing.T) *diskLive {
	dir := t.TempDir()
	d := &diskLive{t: t, dir: dir}
	for rel, f := range liveFiles(dir) {
		d.put(rel, f.Data, f.ModTime)
	}
	d.l = liveFixture(dir)
	d.l.b.Reset() // the fixture's lines are on disk; only new ones are kept
	home, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	d.home = home
	return d
}

func (d *diskLive) put(rel string, data []byte, at time.Time) {
	p := filepath.Join(d.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		d.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		d.t.Fatal(err)
	}
	if err := os.Chtimes(p, at, at); err != nil {
		d.t.Fatal(err)
	}
}

func (d *diskLive) transcript() string {
	return filepath.Join(d.dir, "projects", liveSlug, liveSession+".jsonl")
}

// flush appends the lines written since the last flush to the session's
// transcript, with mtime at the test's clock, and returns its path.
func (d *diskLive) flush() string {
	p := d.transcript()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		d.t.Fatal(err)
	}
	if _, err := f.WriteString(d.l.b.String()); err != nil {
		d.t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		d.t.Fatal(err)
	}
	d.l.b.Reset()
	if err := os.Chtimes(p, testNow, testNow); err != nil {
		d.t.Fatal(err)
	}
	return p
}

func (d *diskLive) model(w, h int) Model {
	d.t.Helper()
	return loadedModel(d.t, Options{Home: d.home, Root: testroot.New(d.t), Alive: func(pid int) bool { return pid == livePID }}, w, h)
}

// event is what the watcher's event for the file at p does to the Live
// pane and the open session.
func event(t *testing.T, m Model, p string) Model {
	t.Helper()
	return drain(t, m, m.fileEvents([]string{p}))
}

func mustShow(t *testing.T, m Model, wants ...string) {
	t.Helper()
	s := screen(m)
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Fatalf("screen lacks %q:\n%s", w, s)
		}
	}
}

// Appended lines reach the Live pane through the tracker: the turn
// count, the context, and a compaction (announced in the status bar).
func TestLivePaneFollowsAppends(t *testing.T) {
	d := newDiskLive(t)
	m := press(t, d.model(120, 40), "L")
	mustShow(t, m, "7 turns · 3 since the last compaction", "context 55k of 200k (28%)", "written by this session: feedback_testing.md")

	d.l.parent = liveSession[:8] + "-0013"
	d.l.answer(testNow.Add(-20*time.Second), "b3", 120000, "")
	m = event(t, m, d.flush())
	mustShow(t, m, "8 turns · 4 since the last compaction", "context 120k of 200k (60%)")

	// Past the warning level: the status bar says so.
	d.l.answer(testNow.Add(-15*time.Second), "b4", 150000, "project_docs.md")
	m = event(t, m, d.flush())
	mustShow(t, m, "context 150k of 200k (75%) · warning", "context reached warning", "project_docs.md (Write")

	d.l.compact(testNow.Add(-10*time.Second), 171000, 16000)
	m = event(t, m, d.flush())
	mustShow(t, m, "0 since the last compaction", "compacted now at line 14 (auto, 171k → 16k tokens)", "L then c replays it")

	// A file the tracker does not follow changes nothing.
	before := screen(m)
	m = event(t, m, filepath.Join(d.dir, "history.jsonl"))
	if screen(m) != before {
		t.Errorf("an unrelated event changed the pane:\n%s", screen(m))
	}
}

// c on a session opens Replay at its last compaction; the timeline then
// follows the transcript, keeping that step selected, and esc, G and a
// new line show the session's end following along.
func TestLiveJumpsToCompactionInReplay(t *testing.T) {
	d := newDiskLive(t)
	m := press(t, d.model(120, 40), "L", "c")
	if m.focus != paneReplay || m.p.replay.Mode() != replay.ModeTimeline {
		t.Fatalf("c: focus %d, mode %s", m.focus, m.p.replay.Mode())
	}
	mustShow(t, m, "after a compact compaction (auto)", "compacted 168k → 14k", "● following the file", "step 5/8")

	d.l.parent = liveSession[:8] + "-0013"
	d.l.answer(testNow.Add(-20*time.Second), "b3", 120000, "")
	m = event(t, m, d.flush())
	mustShow(t, m, "step 5/9", "after a compact compaction")

	m = press(t, m, "G")
	mustShow(t, m, "step 9/9", "measured 120000 tokens")
	d.l.answer(testNow.Add(-10*time.Second), "b4", 130000, "")
	m = event(t, m, d.flush())
	mustShow(t, m, "step 10/10", "measured 130000 tokens")

	// Elsewhere, the timeline waits for the pane's focus to read again.
	m = press(t, m, "L")
	d.l.answer(testNow.Add(-5*time.Second), "b5", 140000, "")
	m = event(t, m, d.flush())
	if n := len(m.p.replay.Timeline().Steps); n != 10 {
		t.Errorf("the timeline was read while the pane was away: %d steps", n)
	}
	m = press(t, m, "7")
	mustShow(t, m, "step 11/11", "measured 140000 tokens")
}

// enter on a session of another project opens that project, and the
// session in Replay at its last step.
func TestLiveOpensAnotherProjectsSession(t *testing.T) {
	d := newDiskLive(t)
	// The second row is the session's running subagent.
	m := press(t, d.model(120, 40), "L", "j", "j", "enter")
	if m.data.open != "-home-me-app" {
		t.Fatalf("enter opened project %q", m.data.open)
	}
	if tl := m.p.replay.Timeline(); m.focus != paneReplay || tl == nil || !strings.Contains(tl.Path, printRun) {
		t.Fatalf("enter: focus %d, timeline %v", m.focus, tl)
	}
	mustShow(t, m, "step 1/1", "/home/me/app")
	m = press(t, m, "L", "j", "j", "c")
	mustShow(t, m, "has not compacted yet")
}

// The watcher's event reaches the tracker through the root's routing,
// and a process file's event does not reload the other panes.
func TestFileEventsReachTheLivePane(t *testing.T) {
	d := newDiskLive(t)
	m := press(t, d.model(120, 40), "L")
	d.l.parent = liveSession[:8] + "-0013"
	d.l.answer(testNow.Add(-20*time.Second), "b3", 120000, "")
	next, cmd := m.Update(fileChangedMsg{paths: []string{d.flush()}})
	m = drainTimers(t, next.(Model), cmd)
	mustShow(t, m, "8 turns")

	d.put("sessions/4243.json", []byte(`{"pid":4243,"sessionId":"33333333-0000-4000-8000-000000000000","cwd":"/home/me/new","status":"idle"}`), testNow)
	next, cmd = m.Update(fileChangedMsg{paths: []string{filepath.Join(d.dir, "sessions", "4243.json")}})
	m = next.(Model)
	if m.loading["home"] {
		t.Error("a process file's event reloads the home")
	}
	m = drainTimers(t, m, cmd)
	mustShow(t, m, "2 process files in sessions/ name a process that is gone")
}

// drainTimers is drain for commands that include timers (the watcher's
// debounce and reload deadline): every command runs at once in its own
// goroutine, as the program loop runs them, so the timers overlap.
func drainTimers(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	out := make(chan tea.Msg)
	pending := 0
	start := func(c tea.Cmd) {
		if c != nil {
			pending++
			go func() { out <- c() }()
		}
	}
	start(cmd)
	deadline := time.After(30 * time.Second)
	for pending > 0 {
		select {
		case msg := <-out:
			pending--
			switch msg := msg.(type) {
			case tea.BatchMsg:
				for _, c := range msg {
					start(c)
				}
				continue
			case nil, feed.LivePoll:
				continue
			}
			next, c := m.Update(msg)
			m = next.(Model)
			start(c)
		case <-deadline:
			t.Fatal("commands do not settle")
		}
	}
	return m
}

// A process file and a transcript are untrusted: their folder names,
// ids and memory file names reach the Live pane with no control left.
func TestLivePaneSanitizes(t *testing.T) {
	evil := `\u001b]0;owned\u0007\u001b[2J\u202e\n`
	mfs := fstest.MapFS{
		"sessions/4242.json": {Data: []byte(`{"pid":4242,"sessionId":"s` + evil + `","cwd":"/tmp/e` + evil + `","status":"busy` + evil + `"}`), ModTime: testNow},
		"projects/-tmp-e/s.jsonl": {Data: []byte(`{"type":"user","uuid":"u1","sessionId":"s","cwd":"/tmp/e` + evil + `","timestamp":"2026-11-22T11:59:00Z","message":{"role":"user","content":"hi"}}` + "\n" +
			`{"type":"assistant","uuid":"u2","parentUuid":"u1","sessionId":"s","timestamp":"2026-11-22T11:59:30Z","requestId":"r","message":{"id":"m","role":"assistant","model":"m` + evil + `","content":[{"type":"tool_use","id":"t","name":"Write","input":{"file_path":"/h/projects/-tmp-e/memory/x` + evil + `.md"}}],"usage":{"input_tokens":10}}}` + "\n"), ModTime: testNow},
	}
	m := New(Options{Home: &model.Home{Dir: "/h", FS: mfs}, Now: func() time.Time { return testNow }, Root: fstest.MapFS{}, Alive: func(int) bool { return true }})
	m = drain(t, m, m.Init())
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = press(t, next.(Model), "L")
	v := m.View().Content
	if !strings.Contains(v, "pid 4242") {
		t.Fatalf("the session is not shown:\n%s", v)
	}
	if strings.Contains(v, "\x1b]") || strings.Contains(v, "\x1b[2J") || strings.ContainsRune(v, 0x07) || strings.ContainsRune(v, 0x202e) {
		t.Errorf("a control sequence got through: %q", v)
	}
}

// With live reload on, the real watcher feeds the Live pane: an appended
// line shows in it, and so does a client that starts (its process file
// appears in sessions/, which the watcher follows). The times logged are
// from the write to the frame that shows it.
func TestLivePaneWithTheWatcher(t *testing.T) {
	t.Parallel()
	d := newDiskLive(t)
	m := New(Options{Home: d.home, Project: betaProject, Watch: true, Now: func() time.Time { return testNow }, Root: testroot.New(t),
		Alive: func(pid int) bool { return pid == livePID || pid == livePID+1 }})
	l := &liveLoop{t: t, m: m, msgs: make(chan tea.Msg, 256)}
	next, _ := l.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	l.m = press(t, next.(Model), "L")
	l.exec(l.m.Init())
	l.until(time.Minute, "the watcher and the first snapshot", func() bool { return l.m.watch != nil && l.m.p.livePane.Loaded() })
	defer func() { l.m.watch.Close() }()

	d.l.parent = liveSession[:8] + "-0013"
	d.l.answer(testNow.Add(-20*time.Second), "b3", 120000, "")
	start := time.Now()
	d.flush()
	l.until(time.Minute, "the appended line in the Live pane", func() bool { return strings.Contains(screen(l.m), "8 turns · 4 since") })
	t.Logf("append → Live pane: %v", time.Since(start))

	start = time.Now()
	d.put("sessions/4243.json", []byte(`{"pid":4243,"sessionId":"33333333-0000-4000-8000-000000000000","cwd":"/home/me/new","status":"idle"}`), testNow)
	l.until(time.Minute, "the new client in the Live pane", func() bool { return strings.Contains(screen(l.m), "pid 4243 idle") })
	t.Logf("process file → Live pane: %v", time.Since(start))
}
