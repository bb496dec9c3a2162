package ui

import (
	tea "charm.land/bubbletea/v2"
	"strings"
	"testing"

	"github.com/memscope/memscope/keymap"
)

// At 120 columns the tab bar never cuts a name: with every pane focused,
// its group's panes are there by their full names and the other groups
// folded with their keys; at 80 the focused pane's name is whole. On a
// terminal wide enough every pane has its full name, in ring order.
// Before, 120 columns showed "1 Proj 2 Inde 3 Memo …".
func TestTabBarFullNamesOrGroups(t *testing.T) {
	base := newTestModel(t, 120, 40)
	for i, p := range keymap.Panes {
		m := fork(base)
		m.setFocus(i)
		bar := strings.Split(screen(m), "\n")[m.tabsRow()]
		for _, q := range keymap.Panes {
			if q.Group == p.Group {
				if !strings.Contains(bar, q.Key+" "+q.Name) {
					t.Errorf("%s focused at 120 columns: %q is not whole in %q", p.Name, q.Key+" "+q.Name, bar)
				}
			} else if !strings.Contains(bar, "["+groupTitle(q.Group)+" ") {
				t.Errorf("%s focused at 120 columns: group %s is not folded in %q", p.Name, q.Group, bar)
			}
		}
		next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		m = next.(Model)
		bar = strings.Split(screen(m), "\n")[m.tabsRow()]
		if !strings.Contains(bar, p.Key+" "+p.Name) {
			t.Errorf("%s focused at 80 columns: its name is cut in %q", p.Name, bar)
		}
	}
	next, _ := base.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	m := next.(Model)
	bar := strings.Split(screen(m), "\n")[m.tabsRow()]
	var want []string
	for _, p := range keymap.Panes {
		want = append(want, p.Key+" "+p.Name)
	}
	if got := strings.Join(strings.Fields(bar), " "); got != strings.Join(want, " ") {
		t.Errorf("at 200 columns the bar is %q, want every full name in order", bar)
	}
}
