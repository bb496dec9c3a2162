package ui

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/engine/secrets"
	"github.com/memscope/memscope/keymap"
)

// overviewLine selects the Overview's line id (the Overview focused) and
// returns the model and the line as counted.
func overviewLine(t *testing.T, m Model, id overview.ID) (Model, overview.Line) {
	t.Helper()
	m = press(t, m, keymap.Panes[paneOverview].Key, "g")
	for i, r := range m.p.overview.Rows() {
		if r.Spec.ID != id {
			continue
		}
		for range i {
			m = press(t, m, "j")
		}
		if r.Line == nil {
			t.Fatalf("the %s line is still counting", id)
		}
		return m, *r.Line
	}
	t.Fatalf("no %s line", id)
	return m, overview.Line{}
}

// moveOff puts the cursor of pane away from its first row (to its
// last), so a test of where enter lands cannot pass by the cursor's
// staying where it starts.
func moveOff(t *testing.T, m Model, pane int) Model {
	t.Helper()
	return press(t, m, keymap.Panes[pane].Key, "G")
}

// enter on the Prompt line opens the Prompt pane at the line's biggest
// layer (the file the line names). Before, the pane opened where its
// cursor was.
func TestOverviewEnterSelectsTheBiggestLayer(t *testing.T) {
	m := sharedDemoModel(t, 120, 40)
	m = moveOff(t, m, panePrompt)
	m, line := overviewLine(t, m, overview.Prompt)
	if line.Filter == "" {
		t.Fatalf("the prompt line names no layer: %+v", line)
	}
	if r, ok := m.p.prompt.Selected(); ok && r.Layer != nil && r.Layer.Path == line.Filter {
		m = press(t, m, keymap.Panes[panePrompt].Key, "g", keymap.Panes[paneOverview].Key)
	}
	if r, ok := m.p.prompt.Selected(); ok && r.Layer != nil && r.Layer.Path == line.Filter {
		t.Fatalf("the Prompt pane's cursor is on %s already; the test proves nothing", line.Filter)
	}
	m = press(t, m, "enter")
	if m.focus != panePrompt {
		t.Fatalf("enter on the prompt line focused pane %d, want Prompt", m.focus)
	}
	r, ok := m.p.prompt.Selected()
	if !ok || r.Layer == nil || r.Layer.Path != line.Filter {
		t.Errorf("the Prompt pane selects %+v, want the layer %s", r.Layer, line.Filter)
	}
}

// enter on the Secrets line opens Security at its first secret.
// The demo's one secret gets a second, so the cursor can be elsewhere.
func TestOverviewEnterSelectsTheFirstSecret(t *testing.T) {
	l, err := demo.Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	token := "ghp_" + strings.Repeat("Zq7xR2mK9", 4)
	if err := os.WriteFile(memPath(l, "reference_ci.md"), []byte("---\nname: ci\ndescription: the CI token\ntype: reference\n---\n\ntoken "+token+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := demoModelAt(t, l, true, 120, 40)
	m = moveOff(t, m, paneSecurity)
	m, line := overviewLine(t, m, overview.Secrets)
	if line.Count == 0 || line.Filter != overview.ShowSecret {
		t.Fatalf("the demo's secrets line finds no secret: %+v", line)
	}
	var first *secrets.Finding
	for _, r := range m.p.security.Rows() {
		if r.Finding != nil {
			first = r.Finding
			break
		}
	}
	if r, ok := m.p.security.Selected(); first == nil || ok && r.Finding == first {
		t.Fatalf("the Security pane's cursor is on its first secret already (%+v); the test proves nothing", r)
	}
	m = press(t, m, "enter")
	if m.focus != paneSecurity {
		t.Fatalf("enter on the secrets line focused pane %d, want Security", m.focus)
	}
	if r, ok := m.p.security.Selected(); !ok || r.Finding != first {
		t.Errorf("the Security pane selects %+v, want its first secret %+v", r.Finding, first)
	}
}

// enter on the Review line opens Review at the memory Claude Code changed
// last (the line's filter).
func TestOverviewEnterSelectsTheNewestReview(t *testing.T) {
	m := sharedDemoModel(t, 120, 40)
	m = moveOff(t, m, paneReview)
	m, line := overviewLine(t, m, overview.Review)
	if line.Count < 2 || line.Filter == "" {
		t.Fatalf("the demo's review line needs two memories to choose from: %+v", line)
	}
	if it, ok := m.p.reviewPane.Selected(); ok && it.Path == line.Filter {
		t.Fatalf("the Review pane's cursor is on %s already; the test proves nothing", line.Filter)
	}
	m = press(t, m, "enter")
	if m.focus != paneReview {
		t.Fatalf("enter on the review line focused pane %d, want Review", m.focus)
	}
	if it, ok := m.p.reviewPane.Selected(); !ok || it.Path != line.Filter {
		t.Errorf("the Review pane selects %q, want %q", it.Path, line.Filter)
	}
}

// nearLiveModel is the Live tests' home with the user's warning level at
// 20 % of the window: the interactive session (55k of 200k) is near
// autocompact, the -p run (21k) is not.
func nearLiveModel(t *testing.T, w, h int) Model {
	t.Helper()
	home := fixedHome(t)
	mfs := home.FS.(fstest.MapFS)
	for k, v := range liveFiles(home.Dir) {
		mfs[k] = v
	}
	return loadedModel(t, Options{Home: home, Root: fstest.MapFS{}, Alive: func(pid int) bool { return pid == livePID }, LiveWarnPercent: 20}, w, h)
}

// enter on the Autocompact line opens Live at the session near
// autocompact.
func TestOverviewEnterSelectsTheSessionNearAutocompact(t *testing.T) {
	m := nearLiveModel(t, 120, 40)
	m = moveOff(t, m, paneLive)
	m, line := overviewLine(t, m, overview.Autocompact)
	if line.Count != 1 {
		t.Fatalf("the autocompact line counts %d sessions near autocompact, want 1: %+v", line.Count, line)
	}
	if r, ok := m.p.livePane.Selected(); ok && r.Run.SessionID == liveSession && r.Agent == nil {
		t.Fatal("the Live pane's cursor is on the session already; the test proves nothing")
	}
	m = press(t, m, "enter")
	if m.focus != paneLive {
		t.Fatalf("enter on the autocompact line focused pane %d, want Live", m.focus)
	}
	if r, ok := m.p.livePane.Selected(); !ok || r.Run.SessionID != liveSession || r.Agent != nil {
		t.Errorf("the Live pane selects %s (agent %v), want %s", r.Run.SessionID, r.Agent != nil, liveSession)
	}
}

// The Overview's autocompact line and the Live pane agree: the line the
// app shows is counted from the Live feed's snapshot by the Live pane's
// rule (the user's levels included), and equals the line counted from a
// tracker of its own (as `memscope overview` counts it) and the Live
// pane's rows it colours as near. Before, the line took its own
// snapshot and ignored the user's levels: it said 0 of 2 where the Live
// pane showed a warning.
func TestOverviewAutocompactAgreesWithLive(t *testing.T) {
	for _, warn := range []float64{0, 20} {
		home := fixedHome(t)
		mfs := home.FS.(fstest.MapFS)
		for k, v := range liveFiles(home.Dir) {
			mfs[k] = v
		}
		m := loadedModel(t, Options{Home: home, Root: fstest.MapFS{}, Alive: func(pid int) bool { return pid == livePID }, LiveWarnPercent: warn}, 120, 40)
		m, shown := overviewLine(t, m, overview.Autocompact)
		src := m.overviewSource("")
		if src.Live == nil {
			t.Fatal("the Overview's source has no Live snapshot: the line takes its own")
		}
		src.Live = nil
		own := overview.Compute(src, overview.Autocompact)
		if own.Count != shown.Count || own.Part(overview.PartRunning) != shown.Part(overview.PartRunning) {
			t.Errorf("warn %v%%: the app's line %+v, its own tracker's %+v", warn, shown, own)
		}
		lv := live.Levels{WarnPct: warn}
		near := 0
		for _, r := range m.p.livePane.Rows() {
			if r.Agent == nil && lv.Near(r.Status) {
				near++
			}
		}
		if near != shown.Count {
			t.Errorf("warn %v%%: the Live pane has %d sessions near autocompact, the Overview says %d", warn, near, shown.Count)
		}
		if want := map[float64]int{0: 0, 20: 1}[warn]; shown.Count != want {
			t.Errorf("warn %v%%: the line counts %d near, want %d", warn, shown.Count, want)
		}
	}
}
