package ui

import (
	"fmt"
	"github.com/memscope/memscope/ui/feed"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/retention"
)

// archiveCmd carries out the Retention pane's ArchiveRequest with
// cleanup.Archive (a leading ~/ is the user's home folder; a relative
// destination is taken from the current folder), writing through w, and
// reports ArchiveDone.
func archiveCmd(home *model.Home, w model.WriteFS, req retention.ArchiveRequest) tea.Cmd {
	return func() tea.Msg {
		to := req.To
		to = model.ExpandTilde(to, os.UserHomeDir)
		if abs, err := filepath.Abs(to); err == nil {
			to = abs
		}
		rep, err := cleanup.Archive(cleanup.ArchiveOptions{Home: home, Items: req.Items, To: to, Writes: w})
		return retention.ArchiveDone{Report: rep, Err: err}
	}
}

// handleRetention serves the Retention pane: its forecast, and archive
// requests, which copy and never delete, so read-only homes may archive
// too (the archive goes outside the home).
func (m Model) handleRetention(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case feed.RetentionLoaded:
		delete(m.loading, "retention")
		paneTable[paneRetention].update(m.p, m.feeds.retention.Loaded(msg))
		// What changed while it was read.
		return m, m.lazyLoadCmd(), true
	case retention.ArchiveRequest:
		m.setStatus("archiving "+msg.Upto+" to "+msg.To+"…", false)
		return m, archiveCmd(m.opts.Home, m.writes(), msg), true
	case retention.ArchiveDone:
		if msg.Err != nil {
			m.setStatus("archive: "+msg.Err.Error(), true)
		} else {
			m.setStatus(fmt.Sprintf("archived to %s: %d copied, %d already there, %d read back and verified",
				msg.Report.To, msg.Report.Copied, msg.Report.Identical, msg.Report.Verified), false)
		}
		var cmd tea.Cmd
		m.p.retention, cmd = m.p.retention.Update(msg)
		return m, cmd, true
	}
	return m, nil, false
}
