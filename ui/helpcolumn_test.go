package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/keymap"
)

// The help overlay on every pane, at 80×24 and 120×40 (the first screen
// of it; the rest scrolls).
func TestHelpOverlayGolden(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		base := newTestModel(t, size.w, size.h)
		for i, p := range keymap.Panes {
			t.Run(fmt.Sprintf("%s_%dx%d", strings.ToLower(p.Name), size.w, size.h), func(t *testing.T) {
				m := fork(base)
				m = drain(t, m, m.setFocus(i))
				m = press(t, m, "?")
				golden.RequireEqual(t, screen(m))
			})
		}
	}
}

// At 80×24 the overlay lists the pane's keys and the global ones (tab,
// /, ctrl+f, :, undo, quit) in one column that scrolls to its end, and
// no description is cut to "…". Before, the global column was cut off at
// the right edge and the descriptions ended in "…".
func TestHelpOverlayAt80ShowsGlobalKeysWhole(t *testing.T) {
	base := newTestModel(t, 80, 24)
	km := keymap.Default()
	for i, p := range keymap.Panes {
		m := fork(base)
		m = drain(t, m, m.setFocus(i))
		m = press(t, m, "?")
		s, m := overlayPages(t, m)
		for _, b := range append(km.Global(), km.Filter) {
			b = m.undoNamed(b)
			want := b.Help().Key + " "
			if !strings.Contains(s, want) || !strings.Contains(s, b.Help().Desc) {
				t.Errorf("%s: the help at 80x24 lacks %q %q", p.Name, b.Help().Key, b.Help().Desc)
			}
		}
		if strings.Contains(s, "…│") {
			t.Errorf("%s: a line of the help is cut at the edge:\n%s", p.Name, s)
		}
	}
}

// overlayPages is every screen of m's open overlay from where it shows
// to its end, paged with pgdown (at most 40 pages), and m at the end.
// A page that repeats the one before is the end: paging on shows it
// again.
func overlayPages(t *testing.T, m Model) (string, Model) {
	t.Helper()
	var seen strings.Builder
	last := ""
	for range 40 {
		s := screen(m)
		if s == last {
			break
		}
		seen.WriteString(s)
		last = s
		m = press(t, m, "pgdown")
	}
	return seen.String(), m
}
