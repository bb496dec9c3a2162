package ui

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// demoModel runs the app on a fresh writable demo home.
func demoModel(t *testing.T, w, h int) (Model, demo.Layout) {
	t.Helper()
	l, err := demo.Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	return demoModelAt(t, l, true, w, h), l
}

// sharedDemoModel runs the app on the demo home the test binary shares
// (the help modes' home, with its disk cache), for a test that only
// reads: it skips writing a demo home of its own (~0.2 CPU-s). A write
// into the shared home fails the test (its writer allows only the
// test's own temporary folders).
func sharedDemoModel(t *testing.T, w, h int) Model {
	t.Helper()
	hh := sharedHelpHomes(t)
	return demoModelWith(t, hh.demo, true, w, h, hh.cache, probeOnlyWriter{testroot.Writer(t)})
}

// sharedDemo is sharedDemoModel with the shared home's layout, for a
// test that only reads and needs the home's paths.
func sharedDemo(t *testing.T, w, h int) (Model, demo.Layout) {
	t.Helper()
	return sharedDemoModel(t, w, h), sharedHelpHomes(t).demo
}

// probeOnlyWriter is a test's writer (testroot.Writer) that lets the
// app probe a shared home for write access (model.ProbeWritable's
// empty file, created and removed at once), so the home shows as
// writable, as a home of the test's own would. Any other write there
// fails the test.
type probeOnlyWriter struct{ model.WriteFS }

func (w probeOnlyWriter) CreateTemp(dir, pattern string) (model.TempFile, error) {
	if pattern == model.OwnProbePattern() {
		return model.OSWriteFS{}.CreateTemp(dir, pattern)
	}
	return w.WriteFS.CreateTemp(dir, pattern)
}

func (w probeOnlyWriter) Remove(name string) error {
	if c, ok := model.ParseOwnCopy(filepath.Base(name)); ok && c.Tag == "probe" {
		return model.OSWriteFS{}.Remove(name)
	}
	return w.WriteFS.Remove(name)
}

// demoModelAt runs the app on the demo home materialized at l; banner
// says it is shown as the demo (Options.Demo).
func demoModelAt(t *testing.T, l demo.Layout, banner bool, w, h int) Model {
	t.Helper()
	return demoModelCached(t, l, banner, w, h, nil)
}

// demoModelCached is demoModelAt with the disk cache cache.
func demoModelCached(t *testing.T, l demo.Layout, banner bool, w, h int, cache *diskcache.Store) Model {
	t.Helper()
	return demoModelWith(t, l, banner, w, h, cache, nil)
}

// demoModelWith is demoModelCached writing through writes (nil: the
// real file system).
func demoModelWith(t *testing.T, l demo.Layout, banner bool, w, h int, cache *diskcache.Store, writes model.WriteFS) Model {
	t.Helper()
	return demoModelSeen(t, demoOptions(t, l, banner, cache, writes), w, h, nil)
}

// demoOptions are the app's options on the demo home materialized at l
// (demoModelWith).
func demoOptions(t *testing.T, l demo.Layout, banner bool, cache *diskcache.Store, writes model.WriteFS) Options {
	t.Helper()
	home, err := model.OpenHome(l.Home, model.HomeFromDemo)
	if err != nil {
		t.Fatal(err)
	}
	return Options{Home: home, Project: l.Project("shop-api"), Demo: banner, Now: func() time.Time { return testNow }, Root: testroot.New(t, sharedDirs(t, l.Root)...), Cache: cache, Writes: writes,
		Getenv: func(k string) string {
			if k == "NO_COLOR" {
				return "1"
			}
			return ""
		}}
}

// demoModelSeen runs the app with o, loaded and sized, handing seen
// (nil: none) every message it takes on the way (drainWith).
func demoModelSeen(t *testing.T, o Options, w, h int, seen func(tea.Msg)) Model {
	t.Helper()
	m := New(o)
	m = drainWith(t, m, m.Init(), seen)
	next, cmd := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return drainWith(t, next.(Model), cmd, seen)
}

// Every binding a pane offers does what its help says, checked on the
// demo home.
func TestBindings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		keys  []string
		check func(t *testing.T, m Model, l demo.Layout)
		// writes says the case changes the home: it gets a demo home of
		// its own; the others share one (sharedDemoModel).
		writes bool
	}{
		{"index G scrolls to the cut", []string{"3", "G"}, func(t *testing.T, m Model, l demo.Layout) {
			if !strings.Contains(screen(m), "the client stops here") {
				t.Errorf("G should show the cut line:\n%s", screen(m))
			}
		}, false},
		{"memories j moves down", []string{"4", "j"}, func(t *testing.T, m Model, l demo.Layout) {
			if r, _ := m.p.memories.Selected(); r.File.Path != "broken_frontmatter.md" {
				t.Errorf("selected %s", r.File.Path)
			}
		}, false},
		{"memories n opens the form, esc closes it", []string{"4", "n"}, func(t *testing.T, m Model, l demo.Layout) {
			if !strings.Contains(screen(m), "new memory") {
				t.Fatalf("n should open the form:\n%s", screen(m))
			}
			m = press(t, m, "esc")
			if strings.Contains(screen(m), "new memory —") {
				t.Error("esc should close the form")
			}
		}, false},
		{"memories t retypes", []string{"4", "/", "u", "s", "e", "r", "_", "r", "o", "enter", "t", "2", "enter"}, func(t *testing.T, m Model, l demo.Layout) {
			data := readMemory(t, l, "user_role.md")
			if !strings.Contains(data, "type: feedback") {
				t.Errorf("t 2 enter should retype to feedback:\n%s", data)
			}
			m = press(t, m, "u")
			if data := readMemory(t, l, "user_role.md"); !strings.Contains(data, "type: user") {
				t.Errorf("u should undo the retype:\n%s", data)
			}
		}, true},
		{"memories r renames", []string{"4", "/", "t", "i", "m", "e", "z", "o", "n", "e", "enter", "r"}, func(t *testing.T, m Model, l demo.Layout) {
			for range "user-timezone" {
				m = press(t, m, "backspace")
			}
			for _, r := range "user-location" {
				m = press(t, m, string(r))
			}
			m = press(t, m, "enter")
			if _, err := os.Stat(memPath(l, "user_timezone.md")); err == nil {
				t.Errorf("rename left the old file; status %q", m.status)
			}
		}, true},
		{"memories d asks, n keeps, d y deletes", []string{"4", "g", "d"}, func(t *testing.T, m Model, l demo.Layout) {
			if !strings.Contains(screen(m), "to the trash? y/n") {
				t.Fatalf("d should ask:\n%s", screen(m))
			}
			m = press(t, m, "n")
			if _, err := os.Stat(memPath(l, "archive/project_q2_launch.md")); err != nil {
				t.Fatal("n must not delete")
			}
			m = press(t, m, "d", "y")
			if _, err := os.Stat(memPath(l, "archive/project_q2_launch.md")); err == nil {
				t.Fatalf("d y should delete; status %q", m.status)
			}
		}, true},
		{"history space expands pastes", []string{"5", "/", "d", "u", "p", "l", "i", "c", "a", "t", "e", "enter", "space"}, func(t *testing.T, m Model, l demo.Layout) {
			if !strings.Contains(screen(m), "duplicate event evt_7731") {
				t.Errorf("space should show the paste text:\n%s", screen(m))
			}
		}, false},
		{"pastes enter previews", []string{"6", "g", "enter"}, func(t *testing.T, m Model, l demo.Layout) {
			if strings.Contains(screen(m), "enter to preview") {
				t.Errorf("enter should load the preview:\n%s", screen(m))
			}
		}, false},
		{"replay enter, [ and ] move between compactions, p runs the pipeline, w changes the window", []string{"7", "G", "enter", "["}, func(t *testing.T, m Model, l demo.Layout) {
			if !strings.Contains(screen(m), "⟲") || !strings.Contains(screen(m), "compacted") {
				t.Fatalf("[ should land on a compaction:\n%s", screen(m))
			}
			m = press(t, m, "h", "p")
			if !strings.Contains(screen(m), "Pipeline on step") || !strings.Contains(screen(m), "no stage runs") {
				t.Fatalf("p should run the pipeline (74k fits a 200k window):\n%s", screen(m))
			}
			m = press(t, m, "w")
			if !strings.Contains(screen(m), "128k window") {
				t.Errorf("w should switch to the 128k window:\n%s", screen(m))
			}
			m = press(t, m, "w")
			if !strings.Contains(screen(m), "tool-result-budget") || !strings.Contains(screen(m), "64k window") {
				t.Errorf("in a 64k window the stages should run:\n%s", screen(m))
			}
			m = press(t, m, "esc", "esc")
			if !strings.Contains(screen(m), "enter to replay one") {
				t.Errorf("esc twice should go back to the sessions:\n%s", screen(m))
			}
		}, false},
		{"prompt i queries recall", []string{"8", "i", "t", "e", "r", "s", "e", " ", "a", "n", "s", "w", "e", "r", "s", "enter"}, func(t *testing.T, m Model, l demo.Layout) {
			if !strings.Contains(screen(m), "feedback_terse_answers.md") {
				t.Errorf("recall should pick the terse-answers memory:\n%s", screen(m))
			}
		}, false},
		{"health space selects, a asks, n cancels", []string{"9", "space", "a"}, func(t *testing.T, m Model, l demo.Layout) {
			if !strings.Contains(screen(m), "Apply 1 prune action") {
				t.Fatalf("a should ask:\n%s", screen(m))
			}
			m = press(t, m, "n")
			if !strings.Contains(m.status, "cancelled") {
				t.Errorf("n should cancel, status %q", m.status)
			}
		}, false},
		{"ctrl+r reloads", []string{"ctrl+r"}, func(t *testing.T, m Model, l demo.Layout) {
			if len(m.loading) != 0 {
				t.Errorf("reload should finish, still loading %v", m.loading)
			}
		}, false},
	}
	// The cases that only read share one app on the shared demo home,
	// forked after their keys (keyChain). They run one at a time: forks
	// share the app's feeds, which pressing keys in a fork changes.
	shared := newKeyChain(func(testing.TB) Model { return sharedDemoModel(t, 140, 44) })
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var m Model
			var l demo.Layout
			if c.writes {
				t.Parallel()
				m, l = demoModel(t, 140, 44)
				m = press(t, m, c.keys...)
			} else {
				m, l = fork(shared.at(t, c.keys...)), sharedHelpHomes(t).demo
			}
			c.check(t, m, l)
		})
	}
}

func memPath(l demo.Layout, rel string) string {
	return filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), "memory", filepath.FromSlash(rel))
}

func readMemory(t *testing.T, l demo.Layout, rel string) string {
	t.Helper()
	data, err := os.ReadFile(memPath(l, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestMouseClickOnTabAndWheel(t *testing.T) {
	m := newTestModel(t, 120, 40)
	row := m.tabsRow()
	x := 0
	segs, _, inactive := m.tabs()
	for _, s := range segs {
		if s.pane == paneHistory && !s.fold {
			break
		}
		x += lipgloss.Width(inactive.Render(s.text))
	}
	next, _ := m.Update(tea.MouseClickMsg{X: x + 1, Y: row, Button: tea.MouseLeft})
	m = next.(Model)
	if m.focus != paneHistory {
		t.Fatalf("click on the History tab focused %d", m.focus)
	}
	// Over the list (its first row); over the detail the wheel scrolls
	// the detail.
	next, _ = m.Update(tea.MouseWheelMsg{X: 10, Y: m.bodyTop() + 2, Button: tea.MouseWheelDown})
	m = next.(Model)
	if !strings.Contains(screen(m), "3/3") {
		t.Errorf("wheel down should move the cursor:\n%s", screen(m))
	}
}

func TestThemeFollowsBackground(t *testing.T) {
	m := New(Options{Home: fixedHome(t), Now: func() time.Time { return testNow }})
	if !m.styles.IsDark {
		t.Fatal("dark until told otherwise")
	}
	next, _ := m.Update(tea.BackgroundColorMsg{Color: lightColor{}})
	if next.(Model).styles.IsDark {
		t.Error("a light background should switch to light styles")
	}
}

type lightColor struct{}

func (lightColor) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

func TestNoColorHasNoColorEscapes(t *testing.T) {
	m := newTestModel(t, 100, 30)
	m = press(t, m, "4")
	if v := m.View().Content; strings.Contains(v, "\x1b[38;") || strings.Contains(v, "\x1b[48;") {
		t.Errorf("NO_COLOR output has colour escapes: %q", v[:min(len(v), 200)])
	}
}

// teatest: the whole program in a virtual terminal, driven by key presses.
func TestProgramFlow(t *testing.T) {
	t.Parallel()
	l, err := demo.Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	home, _ := model.OpenHome(l.Home, model.HomeFromDemo)
	m := New(Options{Home: home, Project: l.Project("shop-api"), Demo: true, Now: func() time.Time { return testNow }, Root: testroot.New(t), Getenv: func(string) string { return "" }})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(130, 40))
	waitFor := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(50*time.Millisecond))
	}
	waitFor("what needs you")
	tm.Send(tea.KeyPressMsg{Code: '3', Text: "3"})
	waitFor("TRUNCATED")
	tm.Send(tea.KeyPressMsg{Code: '4', Text: "4"})
	waitFor("reference_staging.md")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	fm := tm.FinalModel(t).(Model)
	if fm.focus != paneMemories {
		t.Errorf("final focus %d", fm.focus)
	}
	_, _ = io.ReadAll(tm.FinalOutput(t))
}
