package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/ui/feed"
)

// Every change the panes ask for (the store operations, the $EDITOR
// save, a lost rule kept, leftovers removed) is the Edits feed's
// (ui/feed/edits.go): the shell hands it the requests and their results
// and does what it says (a status, a y/n question, a reload, a command).

// confirmState is a yes/no question the root asks over the focused pane.
type confirmState struct {
	text  string
	onYes tea.Msg
	// onNo, when set, is handled on no instead of the plain "cancelled".
	onNo tea.Msg
}

// editCtx is what the Edits feed needs of the shell's state now.
func (m Model) editCtx() feed.EditCtx {
	return feed.EditCtx{ReadOnly: m.readOnly, Open: m.data.open, PromptFiles: m.p.prompt.Paths}
}

// handleEdit hands a change's request or result to the Edits feed; ok is
// false for other messages.
func (m Model) handleEdit(msg tea.Msg) (Model, tea.Cmd, bool) {
	out, ok := m.feeds.edits.Update(msg, m.editCtx())
	if !ok {
		return m, nil, false
	}
	return m, m.applyEdit(out), true
}

// applyEdit does what an edit's message meant: the status, the question,
// the reload, then the feed's command.
func (m *Model) applyEdit(out feed.EditOut) tea.Cmd {
	if s := out.Status; s != nil {
		m.setStatus(s.Text, s.Error)
	}
	if q := out.Ask; q != nil {
		m.ask(&confirmState{text: q.Text, onYes: q.Yes, onNo: q.No})
	}
	var reload tea.Cmd
	switch out.Reload {
	case feed.ReloadProject:
		reload = m.requestProject(m.data.open)
	case feed.ReloadAll:
		reload = m.reloadAll()
	}
	return tea.Batch(reload, out.Cmd)
}
