package ui

import (
	"errors"
	"fmt"
	"github.com/memscope/memscope/ui/feed"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/leftover"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
)

// leftoversRemovedMsg is the result of removing the leftovers of
// interrupted memscope writes.
type leftoversRemovedMsg struct {
	removed []leftover.Removed
	err     error
}

// removeLeftoversCmd removes the leftovers the open project's load found
// (in every memory folder of the home and beside restored files), each
// checked again first (leftover.Remove).
func (m *Model) removeLeftoversCmd() tea.Cmd {
	items := m.feeds.project.Cur().Leftovers.Items
	switch {
	case m.readOnly:
		return func() tea.Msg { return errMsg{errors.New("the home is read-only: nothing can be removed")} }
	case m.busy:
		return func() tea.Msg { return msgs.Status{Text: "another change is still being written", Error: true} }
	case len(items) == 0:
		return func() tea.Msg { return msgs.Status{Text: "no leftovers of interrupted memscope writes here"} }
	}
	m.busy = true
	w := m.opts.Writes
	if w == nil {
		w = model.OSWriteFS{}
	}
	return func() tea.Msg {
		removed, err := leftover.Remove(w, items, nil, nil)
		return leftoversRemovedMsg{removed: removed, err: err}
	}
}

// leftoversRemoved says what was removed and reloads the project.
func (m *Model) leftoversRemoved(r leftoversRemovedMsg) tea.Cmd {
	n, kept := 0, 0
	for _, x := range r.removed {
		if x.Skipped == "" {
			n++
		} else {
			kept++
		}
	}
	text := fmt.Sprintf("removed %d leftover(s) of interrupted memscope writes", n)
	if kept > 0 {
		text += fmt.Sprintf("; %d left (in use or changed since)", kept)
	}
	if r.err != nil {
		m.setStatus(fmt.Sprintf("%v (%s)", r.err, text), true)
	} else {
		m.setStatus(text, false)
	}
	// The walk's listing had what was just removed, some of it where no
	// file event reaches (a project tree a restore named): walk again.
	m.feeds.project.Walk().Invalidate()
	return m.requestProject(m.data.open)
}

// announceLeftovers says once, on the first load that finds them, that
// interrupted memscope writes left something (the Health pane lists it).
func (m *Model) announceLeftovers(p *feed.ProjectLoaded) {
	if m.leftoversAnnounced || len(p.Leftovers.Items) == 0 && len(p.Leftovers.Interrupted) == 0 {
		return
	}
	m.leftoversAnnounced = true
	text := fmt.Sprintf("%d leftover(s) of interrupted memscope writes found: Health pane (%s), C removes them", len(p.Leftovers.Items), keymap.PaneKey(int(paneHealth)))
	if n := len(p.Leftovers.Interrupted); n > 0 {
		text = fmt.Sprintf("%d interrupted restore(s), %s", n, text)
	}
	m.setStatus(text, false)
}
