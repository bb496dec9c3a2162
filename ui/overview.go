package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/engine/projectmem"
	"github.com/memscope/memscope/ui/feed"
	ovpane "github.com/memscope/memscope/views/overview"
)

// overviewSource is what the Overview's lines are computed from: the
// home, the machine and the open project, as `memscope overview` builds
// it (the same engine functions, the same inputs).
func (m Model) overviewSource(project string) *overview.Source {
	env := projectmem.Env{Root: m.root(), Home: m.opts.Home, UserHome: m.opts.Getenv("HOME"), Getenv: m.opts.Getenv, Now: m.opts.Now(),
		Loads: m.feeds.project.LoadsCache()}
	src := &overview.Source{Env: env, Project: project, Staleness: m.opts.Staleness, Alive: m.opts.Alive, Cache: m.opts.Cache,
		Places: m.places(), Levels: m.liveLevels(), Review: m.feeds.project.ReviewCache()}
	if snap := m.lv.Last(); snap != nil {
		// The Live pane's snapshot: the line counts what that pane shows.
		src.Live = snap
	}
	return src
}

// liveLevels are the user's warning levels for running sessions, which
// the Live pane colours by and the Overview counts by.
func (m Model) liveLevels() live.Levels {
	return live.Levels{WarnPct: m.opts.LiveWarnPercent, AlertPct: m.opts.LiveAlertPercent}
}

// overviewLive recounts the Overview's autocompact line from a snapshot
// the Live feed just took (it reads nothing), so the two panes never
// disagree about which sessions are near autocompact.
func (m *Model) overviewLive(snap *live.Snapshot) {
	line := overview.Compute(&overview.Source{Live: snap, Levels: m.liveLevels()}, overview.Autocompact)
	paneTable[paneOverview].update(m.p, m.feeds.overview.Counted(line))
}

// overviewLoad counts the Overview's stale lines (its feed), for the open
// project once the home's projects are read. The pane shows the lines it
// starts as counting.
func (m *Model) overviewLoad() tea.Cmd {
	_, reading := m.loading["home"]
	project := ""
	if m.data.open != "" {
		project = m.projectPath(m.data.open)
	}
	f := m.feeds.overview
	f.SetProject(project, !reading)
	paneTable[paneOverview].update(m.p, ovpane.ProjectMsg{Path: f.Project()})
	cmd, ids := f.Load(m.overviewSource)
	if len(ids) > 0 {
		paneTable[paneOverview].update(m.p, ovpane.CountingMsg{IDs: ids})
	}
	return cmd
}

// overviewChanged tells the Overview's feed what a batch of file events
// changed (see feed.Overview.Changed).
func (m *Model) overviewChanged(c change) {
	if c.all {
		m.feeds.overview.Invalidate()
		return
	}
	open := m.data.open
	project := c.prompt || open != "" && c.memory[open]
	home := c.projects || c.history || c.pastes || len(c.memory) > 0 && !project
	m.feeds.overview.Changed(project, home, len(c.sessions) > 0)
}

// handleOverview takes the Overview's lines.
func (m Model) handleOverview(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case feed.OverviewLine:
		if line, ok := m.feeds.overview.Loaded(msg); ok {
			paneTable[paneOverview].update(m.p, line)
		}
		// The Projects list's last activities, once the pass ended.
		fill := m.fillActiveCmd()
		if m.focus != paneOverview {
			return m, fill, true
		}
		// What went stale while it counted.
		return m, tea.Batch(m.overviewLoad(), fill), true
	}
	return m, nil, false
}
