package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/ui/feed"
)

// handleHome takes the Home feed's reads: the Projects pane's rows, and
// on a whole list the project to open (and its loads).
func (m Model) handleHome(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case feed.HomeListed:
		delete(m.loading, "home")
		was := m.data.open
		out := m.feeds.home.Listed(msg, m.data.open, m.opts.Project, m.opts.Now())
		m.openProject(out.Open)
		paneTable[paneProjects].update(m.p, out.Rows)
		// The open project is known: the Overview counts its lines.
		next := tea.Batch(m.homeCmd(out.Cmd), m.lazyLoadCmd(), m.watchStoresCmd())
		if m.data.open == "" {
			// No project to load: the panes that wait for one say so
			// (Prompt still previews the folder memscope started in).
			m.showNoProject()
			next = tea.Batch(next, m.previewOrExplainCmd(m.p.prompt.Query()))
			return m, tea.Batch(next, m.fillActiveCmd()), true
		}
		if out.Open != was || out.OpenAll {
			next = tea.Batch(next, m.loadOpenProject())
		}
		return m, tea.Batch(next, m.reviewCountsCmd(), m.fillActiveCmd()), true
	case feed.HomeActive:
		out := m.feeds.home.Active(msg, m.data.open, m.opts.Now())
		paneTable[paneProjects].update(m.p, out.Rows)
		if out.Open == "" {
			return m, nil, true
		}
		// A transcript newer than its mtime said: the most recently
		// active project is another (feed.Home.Active).
		m.openProject(out.Open)
		return m, tea.Batch(m.lazyLoadCmd(), m.loadOpenProject()), true
	case feed.HomeDelta:
		out := m.feeds.home.Delta(msg, m.opts.Now())
		paneTable[paneProjects].update(m.p, out.Rows)
		return m, m.homeCmd(out.Cmd), true
	}
	return m, nil, false
}

// fillActiveCmd fills in the last activities the start's list left to
// the Overview's shared pass once it ended, or at once when no Overview
// line counts (no pass runs): asked after the list and after each line.
func (m *Model) fillActiveCmd() tea.Cmd {
	return m.feeds.home.FillActive(m.feeds.overview.Running())
}

// requestHome starts a read of the project list, or queues it behind
// the running one.
func (m *Model) requestHome(r feed.HomeReq) tea.Cmd {
	return m.homeCmd(m.feeds.home.Request(r))
}

// homeCmd is the Home feed's next read, counted among the sources
// loading when it lists every project.
func (m *Model) homeCmd(cmd tea.Cmd) tea.Cmd {
	if m.feeds.home.ReadingAll() {
		m.loading["home"] = true
	}
	return cmd
}
