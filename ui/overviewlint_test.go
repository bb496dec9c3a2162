package ui

import (
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/ui/feed"
)

// From the start on, the Overview's Lint line shows only what `memscope
// lint` counts (the engine's line, as the command computes it): the
// start's first project load lints with the loads its empty cache holds
// (fewer than the transcripts say), so the line waits for the check of a
// load whose loads were all read and takes that one's lint. After every
// message of the start, the check the Project feed would hand over and
// the line shown are held to the command's (CI's e2e-tmux once saw
// "6 errors, 18 warnings" between the two loads, where lint says 20).
func TestOverviewLintLineIsLintsFromTheStart(t *testing.T) {
	hh := sharedHelpHomes(t)
	o := demoOptions(t, hh.demo, true, hh.cache, probeOnlyWriter{testroot.Writer(t)})
	m := New(o)
	partial, loads, handed := false, 0, 0
	var want *overview.Line
	check := func(m Model) {
		project := m.feeds.overview.Project()
		if project == "" {
			return
		}
		if want == nil {
			w := overview.Compute(m.overviewSource(project), overview.Lint)
			want = &w
		}
		// The check the Project feed hands the Overview now: its lint,
		// when it carries one, counts what memscope lint counts.
		if c := m.feeds.project.Cur().Checked(); c.Lint != nil && c.Project == project {
			handed++
			src := m.overviewSource(project)
			src.Checked = c
			if got := overview.Compute(src, overview.Lint); !reflect.DeepEqual(got, *want) {
				t.Fatalf("the project load hands the Lint line %+v; memscope lint's is %+v", got, *want)
			}
		}
		for _, r := range m.p.overview.Rows() {
			if r.Spec.ID == overview.Lint && !r.Counting() && !reflect.DeepEqual(*r.Line, *want) {
				t.Fatalf("the Lint line shows %+v; memscope lint's is %+v", *r.Line, *want)
			}
		}
	}
	size := func() tea.Msg { return tea.WindowSizeMsg{Width: 120, Height: 40} }
	drainSteps(t, m, tea.Batch(m.Init(), size), 2000, func(msg tea.Msg) {
		if msg, ok := msg.(feed.ProjectLoaded); ok {
			loads++
			partial = partial || !msg.LoadsComplete()
		}
	}, check)
	// Since the Overview reads the open project's loads through the
	// project feed's cache (bf72bc0), this start's first project load
	// finds them read and is complete; a partial first load (a busier
	// start) is held to the same rule after every message above, and the
	// feed's TestOverviewLinesTakeTheProjectCheck hands one over directly.
	if loads < 1 {
		t.Fatal("no project load: the test proves nothing")
	}
	t.Logf("%d project loads, a partial one: %v", loads, partial)
	if handed == 0 {
		t.Fatal("no project load handed the Lint line its lint")
	}
}
