package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/ui/feed"
)

// requestSessions starts loading the open project's Replay list, or
// queues it behind the running load.
func (m *Model) requestSessions(r feed.SessionsReq) tea.Cmd {
	if r.Slug == "" {
		return nil
	}
	return m.fl.sessions.request(m, r, feed.MergeSessions, Model.loadSessionsCmd)
}

// sessionsDone ends a Replay list load and starts the one waiting.
func (m *Model) sessionsDone() tea.Cmd { return m.fl.sessions.finish(m, Model.loadSessionsCmd) }

// loadSessionsCmd reads a project's Replay list through its feed
// (feed.Sessions).
func (m Model) loadSessionsCmd(r feed.SessionsReq) tea.Cmd {
	fsys := m.opts.Home.FS
	if h := m.feeds.overview.Held(m.opts.Home); h != nil {
		// The Overview's listing of the moment: the project's session
		// folders listed once between the Replay list and its lines.
		fsys = h.FS
	}
	return m.feeds.sessions.Load(fsys, r)
}
