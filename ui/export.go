package ui

import (
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/export"
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/msgs"
)

// Exports from the panes (the feed's ExportSession and ExportMemory) go
// into Options.ExportDir, the current folder when it is empty.

func (m Model) exportDir() string {
	if m.opts.ExportDir != "" {
		return m.opts.ExportDir
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "."
}

// handleExport serves ExportSession and ExportMemory.
func (m Model) handleExport(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case msgs.ExportSession:
		format, err := export.ParseFormat(msg.Format)
		if err != nil {
			m.setStatus(err.Error(), true)
			return m, nil, true
		}
		m.setStatus("exporting "+msg.Path+"…", false)
		return m, feed.ExportSession(m.opts.Home, m.writes(), m.exportDir(), msg.Path, format, m.opts.Now()), true
	case msgs.ExportMemory:
		format, err := export.ParseFormat(msg.Format)
		if err != nil {
			m.setStatus(err.Error(), true)
			return m, nil, true
		}
		store, project := m.feeds.project.Cur().Store, m.openPath()
		if store == nil {
			m.setStatus("export memory: the open project's memory folder is not on disk", true)
			return m, nil, true
		}
		return m, feed.ExportMemory(store, project, m.writes(), m.exportDir(), format, m.opts.Now(), m.opts.Staleness), true
	case feed.Exported:
		if msg.Err != nil {
			m.setStatus(msg.Err.Error(), true)
		} else {
			m.setStatus("exported to "+msg.Path, false)
		}
		return m, nil, true
	}
	return m, nil, false
}
