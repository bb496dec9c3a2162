package ui

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/engine/projectmem"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/msgs"
	ovpane "github.com/memscope/memscope/views/overview"
)

// overviewSource is what the Overview's lines are computed from: the
// home, the machine and the open project, as `memscope overview` builds
// it (the same engine functions, the same inputs).
func (m Model) overviewSource(project string) *overview.Source {
	env := projectmem.Env{Root: m.root(), Home: m.opts.Home, UserHome: m.opts.Getenv("HOME"), Getenv: m.opts.Getenv, Now: m.opts.Now()}
	return &overview.Source{Env: env, Project: project, Staleness: m.opts.Staleness, Alive: m.opts.Alive, Cache: m.opts.Cache,
		Places: m.places()}
}

// places are the rescue vault and the gate's record (none for the demo).
func (m Model) places() overview.Places {
	userHome := func() (string, error) {
		if h := m.opts.Getenv("HOME"); h != "" {
			return h, nil
		}
		return "", errors.New("HOME is not set")
	}
	return overview.FindPlaces(m.opts.Getenv, userHome, m.opts.Home, m.opts.Demo)
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

// handleOverview takes the Overview's lines, and opens a pane at the row
// or filter a line names (msgs.OpenPane, which any pane may send).
func (m Model) handleOverview(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case feed.OverviewLine:
		if line, ok := m.feeds.overview.Loaded(msg); ok {
			paneTable[paneOverview].update(m.p, line)
		}
		if m.focus != paneOverview {
			return m, nil, true
		}
		// What went stale while it counted.
		return m, m.overviewLoad(), true
	case msgs.OpenPane:
		i := keymap.PaneIndex(msg.Pane)
		if i < 0 {
			m.setStatus("no pane called "+msg.Pane, true)
			return m, nil, true
		}
		cmd := m.setFocus(i)
		show := paneTable[i].update(m.p, msgs.Show{What: msg.Show})
		return m, tea.Batch(cmd, show), true
	}
	return m, nil, false
}
