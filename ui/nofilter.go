package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/keymap"
)

// canFilter reports whether "/" filters the focused pane (a pane without
// CanFilter is a list, and does).
func (m Model) canFilter() bool {
	f, ok := m.paneAt(m.focus).(filterer)
	return !ok || f.CanFilter()
}

// openNoFilter answers "/" on a pane with nothing to filter: the status
// line says so, and what is typed next goes nowhere until esc, so a
// filter typed by habit ("/release") does not run the pane's keys (e
// opens $EDITOR) or quit (q).
func (m *Model) openNoFilter() {
	m.modals.push(modal{kind: modalNoFilter})
	m.setStatus(m.noFilterText(""), false)
}

func (m Model) noFilterText(typed string) string {
	s := keymap.Panes[m.focus].Name + " has nothing to filter"
	if typed != "" {
		s += " (ignored: " + typed + ")"
	}
	return s + " · typing goes nowhere · esc ends (then ctrl+f searches everything)"
}

// handleNoFilter swallows a key typed after "/" on a pane with nothing to
// filter; esc (or enter) ends it.
func (m Model) handleNoFilter(top modal, msg tea.KeyPressMsg) (tea.Model, tea.Cmd, bool) {
	switch {
	case msg.String() == "esc" || msg.String() == "enter":
		m.modals.remove(modalNoFilter)
		m.setStatus("", false)
		return m, nil, true
	case msg.String() == "backspace":
		if r := []rune(top.typed); len(r) > 0 {
			top.typed = string(r[:len(r)-1])
		}
	case msg.Text != "":
		top.typed += msg.Text
	}
	m.modals.push(top)
	m.setStatus(m.noFilterText(top.typed), false)
	return m, nil, true
}
