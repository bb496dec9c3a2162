package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/leftover"
	memlint "github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/projects"
	"github.com/memscope/memscope/views/replay"
)

// homeData is everything loaded from the home, as the last commands
// returned it.
type homeData struct {
	open    string // slug of the open project
	project projectLoadedMsg
	// storeDir is the memory store the Memories and Index panes show: an
	// agent's folder, "" for the project's auto memory (msgs.NextMemoryStore).
	storeDir string
	// unreviewed counts the open project's memories to review; -1 until
	// its inbox is read.
	unreviewed int
}

// loaders is what a store's loads carry from one to the next. Each part
// belongs to the running load of its store (its flight runs one at a
// time), so Update only hands it on, never reads it.
type loaders struct {
	// lint remembers per-file lint work (shingles, pairs, scans) on the
	// open project's memory folder; lintOf is that project and the store
	// asked for (slug, NUL, folder).
	lint   *memlint.Memo
	lintOf string
	// walk keeps the open project's leftover search's walk of the whole
	// home (every transcript's name) until a file event says it may
	// differ: a memory write does not walk the home again.
	walk *leftover.WalkCache
}

// flights are the stores' flights (see flight).
type flights struct {
	project  flight[string]
	sessions flight[feed.SessionsReq]
}

type errMsg struct{ err error }

// openProject switches the project panes to slug.
func (m *Model) openProject(slug string) {
	if slug != m.data.open {
		m.data.storeDir = ""
		m.data.unreviewed = -1
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
