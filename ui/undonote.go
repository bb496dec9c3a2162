package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/views/msgs"
)

// noteChange notes the summary of a change that landed, for the footer's
// "u undo <what>"; an undo leaves the change before it, which the
// journal names once the project reloads (undoJournalCmd). It owns no
// message: the change goes on to its handler.
func (m Model) noteChange(msg tea.Msg) (Model, tea.Cmd, bool) {
	d, ok := msg.(opDoneMsg)
	if !ok || d.err != nil || m.lastChange == nil {
		return m, nil, false
	}
	if _, wasUndo := unwrapForce(d.retry).(msgs.Undo); wasUndo || d.change.ID == "" {
		*m.lastChange = ""
	} else {
		*m.lastChange = d.change.Summary
	}
	return m, nil, false
}
