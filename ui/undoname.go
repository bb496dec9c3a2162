package ui

import (
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/text"
)

// undoWhatMax is how much of a change's summary the footer's u names.
const undoWhatMax = 40

// undoWhat is what u undoes on a memory pane, cut for the footer; "" when
// this session wrote nothing since it started or last undid.
func (m Model) undoWhat() string {
	last := m.feeds.edits.Last()
	if last == "" {
		return ""
	}
	return text.Truncate(text.OneLine(model.SanitizeForTerminal(last)), undoWhatMax)
}
