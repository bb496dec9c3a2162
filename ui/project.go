package ui

import (
	"io/fs"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/ui/feed"
)

// requestProject starts loading a project's memory folder (the Project
// feed), or queues it behind the running load (the newest request wins).
func (m *Model) requestProject(slug string) tea.Cmd {
	return m.projectCmd(m.feeds.project.Request(slug))
}

// projectCmd is the Project feed's next load, counted among the sources
// loading while one runs.
func (m *Model) projectCmd(cmd tea.Cmd) tea.Cmd {
	if m.feeds.project.Loading() {
		m.loading["project"] = true
	}
	return cmd
}

// projectPath is the real folder of the project with this slug, "" when
// the transcripts do not say.
func (m Model) projectPath(slug string) string { return m.feeds.home.Path(slug) }

// root is the tree project-side lookups walk: Options.Root with the home
// mounted at its folder (so a home given as its own fs.FS, like the
// demo's, is found where its path says).
func (m Model) root() fs.FS {
	return feed.Mount(m.opts.Root, m.opts.Home)
}

// applyProject hands a loaded project to its panes (the feed's
// messages: raw text until the rendered text arrives).
func (m *Model) applyProject(p *feed.ProjectLoaded) {
	out := p.Panes()
	for _, msg := range out.Memories {
		paneTable[paneMemories].update(m.p, msg)
	}
	for _, msg := range out.Health {
		paneTable[paneHealth].update(m.p, msg)
	}
	paneTable[panePrompt].update(m.p, out.Prompt)
	paneTable[paneIndex].update(m.p, out.Index)
	m.applyWritable(writableMsg{project: true, err: p.Writable})
	m.announceLeftovers(p)
}
