package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/views/retention"
)

// loadRetentionCmd forecasts the client's cleanup sweeps of the home (the
// Retention pane), reading the managed policy through the root.
func (m Model) loadRetentionCmd() tea.Cmd {
	return retention.Load(m.opts.Home, m.root(), m.opts.Now())
}

// handleRetention serves the Retention pane: its forecast, and archive
// requests, which copy and never delete, so read-only homes may archive
// too (the archive goes outside the home).
func (m Model) handleRetention(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case retention.ForecastLoaded:
		delete(m.loading, "retention")
		m.retention.SetForecast(msg.Forecast)
		return m, nil, true
	case retention.ArchiveRequest:
		m.setStatus("archiving "+msg.Upto+" to "+msg.To+"…", false)
		return m, retention.RunArchive(m.opts.Home, msg), true
	case retention.ArchiveDone:
		if msg.Err != nil {
			m.setStatus("archive: "+msg.Err.Error(), true)
		} else {
			m.setStatus(fmt.Sprintf("archived to %s: %d copied, %d already there, %d read back and verified",
				msg.Report.To, msg.Report.Copied, msg.Report.Identical, msg.Report.Verified), false)
		}
		var cmd tea.Cmd
		m.retention, cmd = m.retention.Update(msg)
		return m, cmd, true
	}
	return m, nil, false
}
