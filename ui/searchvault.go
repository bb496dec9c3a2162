package ui

import (
	"io/fs"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/views/msgs"
)

// The Search overlay (ctrl+f) covers the rescue vault as `memscope
// search --in transcripts,vault` does: after the home's stores, the
// sessions only the vault holds (those the sweep deleted) are searched
// with the same engine call (vault.SearchLost), their hits labelled
// "only in the vault". enter on one opens the vault's copy in the Replay
// pane read-only, as enter on a vault row of the Replay list does (r
// puts it back).

// replayVaultAt opens the vault's copy of the transcript r names (a
// session the home lost) in the Replay pane at r's hit, read-only.
func (m *Model) replayVaultAt(r msgs.ReplayAt) tea.Cmd {
	return m.replayFrom(r, m.feeds.vault.Lost())
}

// replayFrom is replayAt reading the transcript from what open returns
// (nil: the home; the rescue vault's copy for a search hit only it
// holds, searchvault.go).
func (m *Model) replayFrom(r msgs.ReplayAt, open func() (fs.FS, func(), error)) tea.Cmd {
	var cmds []tea.Cmd
	if parts := strings.Split(r.Path, "/"); len(parts) == 3 && parts[0] == "projects" && parts[1] != m.data.open {
		m.openProject(parts[1])
		cmds = append(cmds, m.loadOpenProject())
	}
	jump := r
	read := m.openTimelineCmd(r.Path, &jump)
	if open != nil {
		read = m.openTimelineFrom(r.Path, &jump, open)
	}
	cmds = append(cmds, read, m.setFocus(paneReplay))
	return tea.Batch(cmds...)
}
