package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/ui/feed"
)

// renderCmd renders the index and the memory bodies for the current pane
// widths, in the background (the Markdown feed, feed.Markdown).
func (m Model) renderCmd() tea.Cmd {
	if m.width == 0 {
		return nil
	}
	return m.feeds.markdown.Render(m.feeds.project.Cur(), m.p.index.RenderWidth(), m.p.memories.BodyWidth(), m.styles.IsDark, m.styles.NoColor)
}

// applyRendered swaps rendered text in, when it is for the open project.
func (m *Model) applyRendered(r feed.Rendered) {
	rows, idx, ok := m.feeds.markdown.Loaded(r, m.feeds.project.Cur())
	if !ok {
		return
	}
	m.p.memories, _ = m.p.memories.Update(rows)
	paneTable[paneIndex].update(m.p, idx)
}
