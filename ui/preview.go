package ui

import (
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/health"
	"github.com/memscope/memscope/views/index"
	"github.com/memscope/memscope/views/memories"
	"github.com/memscope/memscope/views/prompt"
	"github.com/memscope/memscope/views/replay"
	reviewpane "github.com/memscope/memscope/views/review"
	"strings"

	tea "charm.land/bubbletea/v2"

	enginepreview "github.com/memscope/memscope/engine/preview"
)

// previewMsg carries the prompt preview for a project.
type previewMsg struct {
	project string
	preview *enginepreview.Preview
}

// previewCmd builds what enters the next session's prompt for the open
// project, with recall for query when it is set.
func (m Model) previewCmd(query string) tea.Cmd {
	project := m.previewProject()
	if project == "" || !strings.HasPrefix(project, "/") {
		return nil
	}
	home, now, getenv, root := m.opts.Home, m.opts.Now(), m.opts.Getenv, m.root()
	return func() tea.Msg {
		o := feed.PreviewOptions(root, home, project, getenv, now)
		if query != "" {
			o.Queries = []string{query}
		}
		p := enginepreview.Build(o)
		return previewMsg{project: project, preview: &p}
	}
}

// loadedPreviewCmd hands the Prompt pane the preview the project load
// just taken built (feed.ProjectLoaded.Preview, as previewCmd builds it)
// when the pane shows no recall query; otherwise it builds one.
func (m *Model) loadedPreviewCmd() tea.Cmd {
	query, project := m.p.prompt.Query(), m.previewProject()
	if c := m.feeds.project.Cur(); query == "" && c.Preview != nil && c.Project == project && c.Slug == m.data.open {
		p := c.Preview
		return func() tea.Msg { return previewMsg{project: project, preview: p} }
	}
	return m.previewOrExplainCmd(query)
}

// noProjectText is what the project panes say in a home where Claude
// Code has not run yet.
const noProjectText = "no project in this home yet: Claude Code has not run here. Run claude in a project folder, then press ctrl+r here (memscope --demo shows the built-in example)."

// showNoProject tells the panes that show a project's data that there is
// none to load, so none of them keeps saying it is reading.
func (m *Model) showNoProject() {
	m.p.index, _ = m.p.index.Update(index.UnavailableMsg{Why: noProjectText})
	m.p.memories, _ = m.p.memories.Update(memories.UnavailableMsg{Why: noProjectText})
	m.p.replay, _ = m.p.replay.Update(replay.UnavailableMsg{Why: noProjectText})
	m.p.health, _ = m.p.health.Update(health.UnavailableMsg{Why: noProjectText})
	m.p.reviewPane, _ = m.p.reviewPane.Update(reviewpane.UnavailableMsg{Why: noProjectText})
}

// previewProject is the folder the Prompt pane previews: the open
// project's, else (no project in the home yet) the folder memscope was
// started in, as the CLI's prompt command does.
func (m Model) previewProject() string {
	if m.data.open == "" {
		return m.opts.Project
	}
	return m.openPath()
}

// previewOrExplainCmd builds the preview, or, when there is no folder to
// build it for, tells the Prompt pane why, so it never waits for nothing.
func (m *Model) previewOrExplainCmd(query string) tea.Cmd {
	if cmd := m.previewCmd(query); cmd != nil {
		return cmd
	}
	if m.data.open == "" {
		m.p.prompt, _ = m.p.prompt.Update(prompt.UnavailableMsg{Why: noProjectText})
	} else {
		m.p.prompt, _ = m.p.prompt.Update(prompt.UnavailableMsg{Why: "no preview: the transcripts of " + m.data.open + " do not say which folder it was started in, and the preview reads that folder's CLAUDE.md files and settings."})
	}
	return nil
}
