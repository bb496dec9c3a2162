package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/projects"
	"github.com/memscope/memscope/views/replay"
)

// homeData is everything loaded from the home, as the last commands
// returned it.
type homeData struct {
	open string // slug of the open project
}

// flights are the stores' flights (see flight).
type flights struct {
	sessions flight[feed.SessionsReq]
}

type errMsg struct{ err error }

// openProject switches the project panes to slug.
func (m *Model) openProject(slug string) {
	if slug != m.data.open {
		m.feeds.project.Switched()
	}
	m.data.open = slug
	m.p.projects, _ = m.p.projects.Update(projects.OpenMsg{Slug: slug})
	m.showHistory()
}

// loadOpenProject reads the open project's memory folder and its
// sessions.
func (m *Model) loadOpenProject() tea.Cmd {
	slug := m.data.open
	m.p.replay, _ = m.p.replay.Update(replay.SessionsLoadingMsg{Project: slug})
	return tea.Batch(m.requestProject(slug), m.requestSessions(feed.SessionsReq{Slug: slug, Full: true}))
}
