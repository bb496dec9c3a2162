package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/security"
)

// reloadAll re-reads everything (ctrl+r, or after the editor).
func (m *Model) reloadAll() tea.Cmd {
	m.feeds.overview.Invalidate()
	m.feeds.project.Walk().Invalidate()
	m.feeds.retention.Invalidate()
	m.feeds.files.Invalidate()
	m.feeds.secrets.Invalidate()
	// The project list's arrival loads the open project and its sessions.
	return tea.Batch(m.requestHome(feed.HomeReq{Full: true, OpenAll: true}), m.requestHistory(), m.lazyLoadCmd())
}

// requestHistory reads all of history.jsonl again (and then the paste
// inventory), or queues it behind the running read.
func (m *Model) requestHistory() tea.Cmd {
	cmd := m.feeds.history.Request(true)
	if m.feeds.history.ReadingAll() {
		m.loading["history"] = true
		m.feeds.overview.HistoryReading()
	}
	return cmd
}

// reload re-reads what a batch of file events changed, and only that.
func (m *Model) reload(c change) tea.Cmd {
	if c.all {
		return m.reloadAll()
	}
	// First: the Overview drops its listing of the moment, which the
	// project's loads and the Replay list read through while it holds
	// it (Overview.Held): the reads asked below see the change.
	m.overviewChanged(c)
	var cmds []tea.Cmd
	switch {
	case c.projects:
		cmds = append(cmds, m.requestHome(feed.HomeReq{Full: true}))
	case len(c.sessions) > 0 || len(c.memory) > 0:
		cmds = append(cmds, m.requestHome(feed.HomeReq{Sessions: c.sessions, Memory: c.memory}))
	}
	if c.history || c.pastes {
		cmds = append(cmds, m.feeds.history.Changed(c.names))
	}
	if open := m.data.open; open != "" {
		if c.memory[open] {
			cmds = append(cmds, m.requestProject(open))
		}
		var ids map[string]bool
		for k := range c.sessions {
			if k.Slug == open {
				if ids == nil {
					ids = map[string]bool{}
				}
				ids[k.ID] = true
			}
		}
		if ids != nil {
			cmds = append(cmds, m.requestSessions(feed.SessionsReq{Slug: open, IDs: ids}))
		}
	}
	if c.prompt {
		cmds = append(cmds, m.previewCmd(m.p.prompt.Query()))
	}
	m.lazyChange(c)
	// The Security pane's scan reads all of the home: any change makes
	// it stale.
	m.feeds.secrets.Invalidate()
	if m.focus == paneSecurity {
		// A scan reads every byte of the home (a second of CPU on a
		// gigabyte): not on every append of a running session. The pane
		// says its scan is older than the home; ctrl+r scans again, and
		// so does coming back to the pane.
		paneTable[paneSecurity].update(m.p, security.OutdatedMsg{})
		return tea.Batch(cmds...)
	}
	cmds = append(cmds, m.lazyLoadCmd())
	return tea.Batch(cmds...)
}

// lazyChange notes what a change means to the lazily read panes, which
// read far more than a file event names: the Retention forecast is
// refreshed from the files named (cleanup.Refresh reads those, and the
// whole home only when it must); the Files pane lists its sessions again
// only when file history or the project list changed, and reads its open
// session again when that session's transcript changed (feed.Files).
// Other changes (history, pastes, memory, other sessions) leave it alone.
func (m *Model) lazyChange(c change) {
	if m.feeds.retention.Changed(c.names, c.all) {
		m.feeds.files.Invalidate()
		return
	}
	m.feeds.files.Changed(c.names, c.projects, m.p.files.Session())
}

// lazyLoadCmd reads the focused pane's data when its row in the pane
// table says it loads on focus and it is stale, or brings it up to date
// from the files that changed (lazyChange): the Overview, Retention,
// Files and Security panes, and the paste inventory behind History and
// Pastes, are not read at start-up (unless focused)
// nor on every live reload, only when someone looks at them. One
// Retention read runs at a time; what changes meanwhile is read when it
// is in.
func (m *Model) lazyLoadCmd() tea.Cmd {
	if !paneTable[m.focus].lazy {
		return nil
	}
	switch m.focus {
	case paneOverview:
		return m.overviewLoad()
	case paneRetention:
		if cmd := m.feeds.retention.Load(m.opts.Home, m.root(), m.opts.Now()); cmd != nil {
			m.loading["retention"] = true
			return cmd
		}
	case paneFiles:
		cmd := m.feeds.files.Load(m.opts.Home.FS, m.p.files.Session())
		if m.feeds.files.Listing() {
			m.loading["files"] = true
		}
		return cmd
	case paneSecurity:
		if cmd := m.feeds.secrets.Load(m.secretsOptions(), m.opts.Now()); cmd != nil {
			m.loading["secrets"] = true
			return cmd
		}
	case paneHistory, panePastes:
		// history.jsonl is read at start (the Overview counts from it;
		// with a cache, from the digest an earlier run kept, and the
		// file is read whole here); the paste inventory (every paste file listed, the new ones
		// hashed) when a pane that shows it is first shown.
		if cmd := m.feeds.history.ShowPastes(); cmd != nil || m.p.pastes.Loaded() {
			if m.feeds.history.ReadingAll() {
				// The whole read that waited for the pane (the start
				// read the digest of history.jsonl).
				m.loading["history"] = true
			}
			return cmd
		}
		// The check landed in another copy of the panes (a test's fork):
		// these panes catch up with the feed.
		if msg := m.feeds.history.InventoryMsg(m.opts.Now()); msg != nil {
			paneTable[panePastes].update(m.p, msg)
			m.showHistory()
		}
	}
	return nil
}
