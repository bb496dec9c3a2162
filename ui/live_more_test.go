package ui

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/ui/feed"
)

// Every list read in the background says so until it is in: the Replay
// pane's sessions, and the Live pane before the tracker's first answer.
func TestLoadingStatesAreShown(t *testing.T) {
	m := press(t, newTestModel(t, 80, 24), "7")
	cmd := m.loadOpenProject()
	mustShow(t, m, "loading sessions…")
	m = drain(t, m, cmd)
	mustShow(t, m, "“lorem ipsum dolor”", "“lorem ipsum dolor sit")
	if strings.Contains(screen(m), "loading") {
		t.Errorf("still loading once the sessions are in:\n%s", screen(m))
	}

	// Before anything is read, no pane passes for empty.
	m = New(Options{Home: fixedHome(t), Now: func() time.Time { return testNow }, Root: fstest.MapFS{}})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = next.(Model)
	for _, p := range []struct{ key, says string }{
		{"2", "reading the projects…"}, {"3", "reading MEMORY.md…"}, {"4", "reading the memory folder…"},
		{"5", "reading history.jsonl…"}, {"6", "reading history and the paste cache…"}, {"7", "loading sessions…"},
		{"8", "building the preview…"}, {"9", "checking memory…"}, {"0", "reading the home…"},
		{"F", "loading file history…"}, {"L", "reading the running sessions…"},
	} {
		next, _ := m.Update(keypress.Msg(p.key))
		m = next.(Model)
		mustShow(t, m, p.says)
	}
}

// With autoCompactEnabled: false in the project's settings, the Live
// pane says there is no autocompact, where it was turned off, and
// forecasts the blocking limit instead.
func TestLivePaneAutocompactOff(t *testing.T) {
	home := fixedHome(t)
	mfs := home.FS.(fstest.MapFS)
	for k, v := range liveFiles(home.Dir) {
		mfs[k] = v
	}
	settings := betaProject + "/.claude/settings.json"
	root := fstest.MapFS{model.RootName(settings): {Data: []byte(`{"autoCompactEnabled": false}`), Mode: 0o644}}
	m := loadedModel(t, Options{Home: home, Root: root, Alive: func(pid int) bool { return pid == livePID }}, 120, 40)
	s := screen(press(t, m, "L"))
	for _, want := range []string{"no autocompact", "autocompact is off (autoCompactEnabled: false in " + settings, "to the blocking limit", " off "} {
		if !strings.Contains(s, want) {
			t.Errorf("the Live pane does not say %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "to autocompact") {
		t.Errorf("the Live pane forecasts autocompact, which is off:\n%s", s)
	}
}

// A Live snapshot arriving while another pane is in front does not
// redraw the screen (View answers from its memo); in front, it does.
func TestLiveSnapshotRedrawsOnlyTheLivePane(t *testing.T) {
	m := liveModel(t, 120, 40)
	snap := m.lv.Last()
	if snap == nil {
		t.Fatal("no snapshot after load")
	}
	for _, tt := range []struct {
		keys  []string
		quiet bool
	}{{nil, true}, {[]string{"L"}, false}} {
		m := press(t, m, tt.keys...)
		next, _ := m.Update(feed.LiveSnap{Snap: *snap})
		if got := next.(Model).quiet; got != tt.quiet {
			t.Errorf("focus %d: a snapshot leaves the screen quiet: %v, want %v", m.focus, got, tt.quiet)
		}
	}
}
