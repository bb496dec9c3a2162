package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// undoWhatMax is how much of a change's summary the footer's u names.
const undoWhatMax = 40

// noteChange notes the summary of a change that landed, for the footer's
// "u undo <what>"; an undo leaves the change before it, which this
// session may not know, so the footer says "undo last change" again. It
// owns no message: the change goes on to its handler.
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

// undoWhat is what u undoes on a memory pane, cut for the footer; "" when
// this session wrote nothing since it started or last undid.
func (m Model) undoWhat() string {
	if m.lastChange == nil || *m.lastChange == "" {
		return ""
	}
	return text.Truncate(text.OneLine(model.SanitizeForTerminal(*m.lastChange)), undoWhatMax)
}
