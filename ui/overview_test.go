package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/views/msgs"
)

// TestOverviewIsTheFirstScreen: the app starts on the Overview, and on
// the demo every line is counted once the loads settle, each the line
// the engine computes from the source the shell builds (as `memscope
// overview` builds it: cli's TestOverviewFeedEqualsCommand holds the
// feed's lines equal to the command's).
func TestOverviewIsTheFirstScreen(t *testing.T) {
	m := sharedDemoModel(t, 120, 40)
	if m.focus != paneOverview {
		t.Fatalf("the app starts on pane %d, want the Overview", m.focus)
	}
	rows := m.p.overview.Rows()
	want := overview.All(m.overviewSource(m.feeds.overview.Project()))
	if m.feeds.overview.Project() == "" {
		t.Fatal("the Overview counts no project on the demo")
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, r := range rows {
		if r.Counting() {
			t.Errorf("%s is still counting after the loads settled", r.Spec.ID)
			continue
		}
		if !reflect.DeepEqual(*r.Line, want[i]) {
			t.Errorf("%s: the pane shows %+v\nthe engine computes %+v", r.Spec.ID, *r.Line, want[i])
		}
	}
	s := screen(m)
	for _, w := range []string{"what needs you", "past MEMORY.md's cut", "[3] Index"} {
		if !strings.Contains(s, w) {
			t.Errorf("the first screen lacks %q:\n%s", w, s)
		}
	}
}

// TestOverviewEnterOpensIndexAtTheCut: enter on the cut line opens the
// Index scrolled to the cut (at 80x24 the cut is far below the first
// screen of the document), through the typed OpenPane request.
func TestOverviewEnterOpensIndexAtTheCut(t *testing.T) {
	for _, size := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			m := sharedDemoModel(t, size.w, size.h)
			if before := screen(press(t, m, "3")); strings.Contains(before, "the client stops here") {
				t.Fatalf("the Index shows the cut without scrolling; the test proves nothing:\n%s", before)
			}
			m = press(t, m, "enter")
			if m.focus != paneIndex {
				t.Fatalf("enter on the cut line focused pane %d, want the Index", m.focus)
			}
			if s := screen(m); !strings.Contains(s, "the client stops here") {
				t.Errorf("the Index is not at the cut:\n%s", s)
			}
		})
	}
}

// TestOpenPaneShows: the shell routes OpenPane to the pane it names (any
// case) with what to show: Memories filtered to the stale ones, Retention
// at the sessions already lost; an unknown pane is an error, not a crash.
func TestOpenPaneShows(t *testing.T) {
	m := sharedDemoModel(t, 120, 40)
	next, cmd := m.Update(msgs.OpenPane{Pane: "memories", Show: "stale"})
	m = drain(t, next.(Model), cmd)
	if s := screen(m); m.focus != paneMemories || !strings.Contains(s, "/stale  (esc clears)") {
		t.Errorf("memories/stale: focus %d, screen:\n%s", m.focus, s)
	}
	next, cmd = m.Update(msgs.OpenPane{Pane: "nope"})
	m = drain(t, next.(Model), cmd)
	if !m.statusErr || !strings.Contains(m.status, "nope") || m.focus != paneMemories {
		t.Errorf("an unknown pane: status %q, focus %d", m.status, m.focus)
	}
}
