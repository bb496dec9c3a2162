package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/ui/feed"
)

// The memory bodies are rendered when the Memories pane is first shown,
// not at start-up (most starts never open it): the start and the other
// panes render none, the first showing renders them once, and later
// changes (a resize) render them again once the pane has been shown.
func TestMemoryBodiesRenderWhenMemoriesIsFirstShown(t *testing.T) {
	t.Parallel()
	hh := sharedHelpHomes(t)
	renders := 0
	seen := func(msg tea.Msg) {
		if r, ok := msg.(feed.Rendered); ok && r.Bodies() > 0 {
			renders++
		}
	}
	m := demoModelSeen(t, demoOptions(t, hh.demo, true, hh.cache, probeOnlyWriter{testroot.Writer(t)}), 120, 40, seen)
	keys := func(ks ...string) {
		for _, k := range ks {
			next, cmd := m.Update(keypress.Msg(k))
			m = drainWith(t, next.(Model), cmd, seen)
		}
	}
	if renders != 0 {
		t.Fatalf("the start rendered the memory bodies %d times with the Overview shown", renders)
	}
	keys("2", "3", "5")
	if renders != 0 {
		t.Fatalf("panes that show no memory body rendered them %d times", renders)
	}
	keys("4")
	if renders != 1 {
		t.Fatalf("showing Memories rendered the bodies %d times, want 1", renders)
	}
	keys("3", "4")
	if renders != 1 {
		t.Fatalf("showing Memories again rendered the bodies again: %d renderings", renders)
	}
	next, cmd := m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	drainWith(t, next.(Model), cmd, seen)
	if renders != 2 {
		t.Errorf("a resize after Memories was shown: %d renderings of the bodies in all, want 2", renders)
	}
}
