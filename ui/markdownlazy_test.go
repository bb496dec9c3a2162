package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/ui/feed"
)

// The index and the memory bodies are rendered when their pane (Index,
// Memories) is first shown, not at start-up (most starts open neither):
// the start and the other panes render nothing, each pane's first
// showing renders its text once, and later changes (a resize) render
// both again once both were shown.
func TestMarkdownRendersWhenItsPaneIsFirstShown(t *testing.T) {
	t.Parallel()
	hh := sharedHelpHomes(t)
	var index, bodies, all int
	seen := func(msg tea.Msg) {
		if r, ok := msg.(feed.Rendered); ok {
			all++
			if r.Index() {
				index++
			}
			if r.Bodies() > 0 {
				bodies++
			}
		}
	}
	m := demoModelSeen(t, demoOptions(t, hh.demo, true, hh.cache, probeOnlyWriter{testroot.Writer(t)}), 120, 40, seen)
	keys := func(ks ...string) {
		for _, k := range ks {
			next, cmd := m.Update(keypress.Msg(k))
			m = drainWith(t, next.(Model), cmd, seen)
		}
	}
	if all != 0 {
		t.Fatalf("the start rendered Markdown %d times with the Overview shown", all)
	}
	keys("2", "5")
	if all != 0 {
		t.Fatalf("panes that show no Markdown rendered it %d times", all)
	}
	keys("3")
	if all != 1 || index != 1 || bodies != 0 {
		t.Fatalf("showing Index: %d renderings, %d of the index, %d with bodies; want 1, 1, 0", all, index, bodies)
	}
	keys("4")
	if all != 2 || bodies != 1 {
		t.Fatalf("showing Memories: %d renderings, %d with bodies; want 2, 1", all, bodies)
	}
	keys("3", "4")
	if all != 2 {
		t.Fatalf("showing the panes again rendered again: %d renderings", all)
	}
	next, cmd := m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	drainWith(t, next.(Model), cmd, seen)
	if all != 3 || index != 3 || bodies != 2 {
		t.Errorf("a resize: %d renderings, %d of the index, %d with bodies; want 3, 3, 2", all, index, bodies)
	}
}
