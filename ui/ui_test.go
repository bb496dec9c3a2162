package ui

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

var testNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// TestMain pins the local time zone so times in goldens do not depend on
// the machine, and gives the tests a temporary folder of their own
// (removed after), so the private copies a declined or failed editor save
// keeps on purpose do not pile up in the machine's: testenv's (a tmpfs
// with room, unless TMPDIR is set), else one in the system's.
func TestMain(m *testing.M) {
	time.Local = time.UTC
	setTestGC()
	before := os.Getenv("TMPDIR")
	doneTemp := testenv.UseTemp()
	var tmp string
	var err error
	if os.Getenv("TMPDIR") == before {
		// A name of fixed length, so paths under it (the writable goldens
		// pad them to one length) come out the same on every run, as
		// testenv's do.
		tmp = filepath.Join(os.TempDir(), fmt.Sprintf("memscope-ui-%08d", os.Getpid()%100000000))
		if err = os.Mkdir(tmp, 0o700); err == nil {
			os.Setenv("TMPDIR", tmp)
		}
	}
	code := m.Run()
	if tmp != "" && err == nil {
		os.RemoveAll(tmp)
	}
	doneTemp()
	os.Exit(code)
}

// betaProject is the folder testdata/home's beta transcripts were
// recorded in (their cwd). The tests' Root does not show the machine, so
// whether that folder exists here, and what it holds, changes nothing.
const betaProject = testroot.BetaProject

// fixedHome copies testdata/home into a MapFS whose files all have one
// mtime a day before testNow, so ages in goldens do not depend on when
// the repository was checked out. Entries that cannot be read (the
// symlink loop) are left out.
func fixedHome(t testing.TB) *model.Home {
	t.Helper()
	src := os.DirFS("../testdata/home")
	mfs := fstest.MapFS{}
	mt := testNow.Add(-26 * time.Hour)
	fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return nil
		}
		mfs[p] = &fstest.MapFile{Data: data, Mode: 0o644, ModTime: mt}
		return nil
	})
	// A fixed folder that does not exist keeps paths in goldens stable; the
	// app sees a home it cannot write to and says so in a banner.
	return &model.Home{Dir: "/nonexistent/memscope-test-home", FS: mfs, Source: model.HomeFromFlag}
}

// drain runs cmd and every command it leads to, feeding each message to
// the model, the way the program loop would (without a terminal).
func drain(t testing.TB, m Model, cmd tea.Cmd) Model {
	t.Helper()
	return drainWith(t, m, cmd, nil)
}

// drainWith is drain that shows seen every message before Update.
func drainWith(t testing.TB, m Model, cmd tea.Cmd, seen func(tea.Msg)) Model {
	t.Helper()
	return drainSteps(t, m, cmd, 1000, seen, nil)
}

// drainSteps is drain of at most maxSteps commands that shows seen (when
// set) every message before Update and after (when set) the model after
// it.
func drainSteps(t testing.TB, m Model, cmd tea.Cmd, maxSteps int, seen func(tea.Msg), after func(Model)) Model {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > maxSteps {
			t.Fatal("commands do not settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		if batch, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, batch...)
			continue
		}
		if msg == nil {
			continue
		}
		switch msg.(type) {
		case reloadTickMsg, fileChangedMsg, statusTimerMsg:
			continue
		}
		if seen != nil {
			seen(msg)
		}
		next, c2 := m.Update(msg)
		m = next.(Model)
		queue = append(queue, c2)
		if after != nil {
			after(m)
		}
	}
	return m
}

func newTestModel(t testing.TB, w, h int) Model {
	t.Helper()
	return loadedModel(t, Options{Home: fixedHome(t), Root: fstest.MapFS{}}, w, h)
}

// loadedModel is the app with o, on the beta project at testNow with
// NO_COLOR (unless o says otherwise), loaded and sized w×h (what the
// new size asks for is not run; the Markdown of the Index and Memories
// panes is rendered when a key first shows the pane).
func loadedModel(t testing.TB, o Options, w, h int) Model {
	t.Helper()
	if o.Project == "" {
		o.Project = betaProject
	}
	if o.Now == nil {
		o.Now = func() time.Time { return testNow }
	}
	if o.Writes == nil {
		// Nothing a test does may land outside its temporary folders
		// (the fixed home's path included): such a write fails it.
		o.Writes = testroot.Writer(t)
	}
	if o.Getenv == nil {
		o.Getenv = func(k string) string {
			if k == "NO_COLOR" {
				return "1"
			}
			return ""
		}
	}
	m := New(o)
	m = drain(t, m, m.Init())
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return next.(Model)
}

func press(t testing.TB, m Model, keys ...string) Model {
	t.Helper()
	for _, k := range keys {
		next, cmd := m.Update(keypress.Msg(k))
		m = drain(t, next.(Model), cmd)
	}
	return m
}

func screen(m Model) string {
	return ansi.Strip(m.View().Content)
}

func TestFirstFrameComesBeforeData(t *testing.T) {
	m := New(Options{Home: fixedHome(t), Now: func() time.Time { return testNow }})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	s := screen(next.(Model))
	if !strings.Contains(s, "loading") {
		t.Fatalf("first frame should say it is loading:\n%s", s)
	}
}

func TestOpensRequestedProject(t *testing.T) {
	m := newTestModel(t, 100, 30)
	if m.data.open != "-tmp-rc-work-beta" {
		t.Fatalf("open project %q", m.data.open)
	}
	if !strings.Contains(screen(m), betaProject) {
		t.Fatalf("title should name the project:\n%s", screen(m))
	}
}

func TestOpensProjectOfAParentFolder(t *testing.T) {
	m := New(Options{Home: fixedHome(t), Project: betaProject + "/src/deep", Now: func() time.Time { return testNow }})
	m = drain(t, m, m.Init())
	if m.data.open != "-tmp-rc-work-beta" {
		t.Fatalf("started in a sub-folder, opened %q", m.data.open)
	}
}

func TestFocusRing(t *testing.T) {
	m := newTestModel(t, 100, 30)
	m = press(t, m, "tab")
	if m.focus != paneProjects {
		t.Fatalf("tab: focus %d", m.focus)
	}
	m = press(t, m, "shift+tab", "shift+tab")
	if m.focus != paneCount-1 {
		t.Fatalf("shift+tab wraps around: focus %d", m.focus)
	}
	m = press(t, m, "5")
	if m.focus != paneHistory {
		t.Fatalf("4: focus %d", m.focus)
	}
}

func TestHelpOverlayListsPaneAndGlobalKeys(t *testing.T) {
	m := newTestModel(t, 120, 40)
	m = press(t, m, "5", "?")
	s := screen(m)
	for _, want := range []string{"expand pastes", "next pane", "quit", "History"} {
		if !strings.Contains(s, want) {
			t.Errorf("help lacks %q:\n%s", want, s)
		}
	}
	m = press(t, m, "j")
	if !m.modals.has(modalHelp) {
		t.Error("j scrolls the help; it should not close it")
	}
	m = press(t, m, "x")
	if m.modals.has(modalHelp) {
		t.Error("any key but the scroll keys closes help")
	}
}

func TestQuit(t *testing.T) {
	m := newTestModel(t, 80, 24)
	_, cmd := m.Update(keypress.Msg("q"))
	if cmd == nil {
		t.Fatal("q returned no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q does not quit")
	}
}

func TestFilterKeepsKeysFromGlobalBindings(t *testing.T) {
	m := newTestModel(t, 100, 30)
	m = press(t, m, "5", "/", "q")
	if m.focus != paneHistory {
		t.Fatal("typing in the filter switched panes")
	}
	if !strings.Contains(screen(m), "/q") {
		t.Fatalf("q should go into the filter:\n%s", screen(m))
	}
}

func TestSelectProjectFromProjectsPane(t *testing.T) {
	m := newTestModel(t, 100, 30)
	m = press(t, m, "2", "g", "enter")
	if m.data.open != "-home-me-bad" {
		t.Fatalf("enter on the first project opened %q", m.data.open)
	}
	m = press(t, m, "5")
	if !strings.Contains(screen(m), "plain prompt") {
		t.Fatalf("history should follow the open project:\n%s", screen(m))
	}
}

func TestHistoryExpandsPastes(t *testing.T) {
	m := newTestModel(t, 110, 40)
	m = press(t, m, "5", "G", "space")
	s := screen(m)
	if !strings.Contains(s, "line 1 of a long pasted log") {
		t.Fatalf("expanded paste text missing:\n%s", s)
	}
	m = press(t, m, "g", "space", "space")
	if !strings.Contains(screen(m), "content does not match its hash") {
		t.Fatalf("mismatched paste should be flagged:\n%s", screen(m))
	}
}

// goldenSizes and goldenPanes are what the pane goldens take: every pane
// (and the modes worth seeing) at 80×24 and 120×40, on the read-only home
// (TestPanesGolden) and on a writable one (TestPanesGoldenWritable).
var (
	goldenSizes = []struct{ w, h int }{{80, 24}, {120, 40}}
	goldenPanes = []struct {
		name string
		keys []string
	}{
		{"projects", []string{"2"}},
		{"index", []string{"3"}},
		{"memories", []string{"4"}},
		{"memories_new", []string{"4", "n"}},
		{"history", []string{"5"}},
		{"pastes", []string{"6"}},
		{"replay", []string{"7"}},
		{"replay_timeline", []string{"7", "G", "enter"}},
		{"prompt", []string{"8"}},
		{"health", []string{"9"}},
		{"retention", []string{"0"}},
		{"retention_step", []string{"0", "G"}},
		{"files", []string{"F"}},
		{"live", []string{"L"}},
		{"review", []string{"R"}},
		{"security", []string{"S"}},
		{"search_prompt", []string{"ctrl+f", "t", "e", "r", "s", "e"}},
		{"search_results", []string{"ctrl+f", "t", "e", "r", "s", "e", "enter", "j"}},
		{"search_replay_hit", []string{"ctrl+f", "l", "o", "r", "e", "m", "enter", "j", "j", "j", "enter"}},
	}
)

func TestPanesGolden(t *testing.T) {
	for _, size := range goldenSizes {
		// One app per size, forked for each pane (keyChain).
		chain := newKeyChain(func(testing.TB) Model { return newTestModel(t, size.w, size.h) })
		for _, p := range goldenPanes {
			t.Run(p.name+"_"+fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
				m := chain.at(t, p.keys...)
				golden.RequireEqual(t, screen(m))
			})
		}
	}
}

func TestSmallTerminal(t *testing.T) {
	m := newTestModel(t, 60, 15)
	for _, k := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "F", "L", "R"} {
		m = press(t, m, k)
		lines := strings.Split(screen(m), "\n")
		if len(lines) > 15 {
			t.Fatalf("pane %s: %d lines on a 15-line terminal", k, len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > 60 {
				t.Fatalf("pane %s line %d is %d wide: %q", k, i, w, l)
			}
		}
	}
}

// A transcript's cwd, memory text and history are untrusted: nothing from
// them may reach the terminal as a control sequence.
func TestUntrustedTextIsSanitized(t *testing.T) {
	evil := "\x1b]0;owned\x07\x1b[2J"
	line := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","cwd":"/tmp/evil` + strings.ReplaceAll(evil, "\x1b", `\u001b`) + `","message":{"role":"user","content":"hi"},"timestamp":"2026-11-20T10:00:00Z"}` + "\n"
	mfs := fstest.MapFS{
		"projects/-tmp-evil/s.jsonl":          {Data: []byte(strings.ReplaceAll(line, "\x07", `\u0007`)), ModTime: testNow},
		"projects/-tmp-evil/memory/MEMORY.md": {Data: []byte("- [X](x.md) — hook " + evil + "\n"), ModTime: testNow},
		"projects/-tmp-evil/memory/x.md":      {Data: []byte("---\nname: x\ndescription: d " + evil + "\ntype: user\n---\nbody " + evil + "\n"), ModTime: testNow},
		"history.jsonl":                       {Data: []byte(`{"display":"prompt \u001b]0;owned\u0007","pastedContents":{},"timestamp":1795340000000,"project":"/tmp/evil"}` + "\n"), ModTime: testNow},
	}
	m := New(Options{Home: &model.Home{Dir: "/nonexistent/evil", FS: mfs}, Now: func() time.Time { return testNow }, Getenv: func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}})
	m = drain(t, m, m.Init())
	next, cmd := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = drain(t, next.(Model), cmd)
	for _, k := range []string{"2", "3", "4", "5", "7"} {
		m = press(t, m, k)
		v := m.View()
		if strings.Contains(v.Content, "\x1b]") || strings.Contains(v.Content, "\x1b[2J") || strings.ContainsRune(v.Content, 0x07) {
			t.Errorf("pane %s lets a control sequence through: %q", k, v.Content)
		}
		if strings.ContainsRune(v.WindowTitle, 0x1b) {
			t.Errorf("window title carries an escape: %q", v.WindowTitle)
		}
	}
}

// fork is a copy of m with panes of its own. The root holds its panes
// behind a pointer (Bubble Tea copies the root on every message, and
// never two ways from one state), so a test that tries two ways from one
// state forks it first.
func fork(m Model) Model {
	ps, h := *m.p, *m.help
	m.p, m.help = &ps, &h
	return m
}
