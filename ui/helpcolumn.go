package ui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/text"
)

// helpColumn is the help overlay's keys in one column, for a pane too
// narrow for the columns (none is cut to "…"): the focused
// pane's, then the global, navigation, pane and search keys
// (fullHelpGroups), each under its heading, descriptions wrapped.
func (m Model) helpColumn() string {
	groups := m.fullHelpGroups()
	titles := []string{keymap.Panes[m.focus].Name, "Global", "Navigation", "Panes", "Search"}
	if m.p.search.IsOpen() {
		titles[0] = "Search results"
	}
	keyW := 0
	for _, g := range groups {
		for _, b := range g {
			if b.Enabled() {
				keyW = max(keyW, lipgloss.Width(b.Help().Key))
			}
		}
	}
	keyW = min(keyW, 12)
	descW := max(m.bodyWidth()-keyW-4, 10)
	indent := strings.Repeat(" ", keyW+4)
	var out []string
	for i, g := range groups {
		var rows []string
		for _, b := range g {
			if !b.Enabled() || b.Help().Desc == "" {
				continue
			}
			desc := strings.ReplaceAll(text.Wrap(b.Help().Desc, descW), "\n", "\n"+indent)
			rows = append(rows, "  "+m.styles.Bold.Render(text.Pad(b.Help().Key, keyW))+"  "+desc)
		}
		if len(rows) == 0 {
			continue
		}
		title := "Keys"
		if i < len(titles) {
			title = titles[i]
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, m.styles.Dim.Render(title))
		out = append(out, rows...)
	}
	return strings.Join(out, "\n")
}
