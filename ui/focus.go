package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// Pane indexes, in focus-ring order (keymap.PaneNames).
const (
	paneProjects = iota
	paneIndex
	paneMemories
	paneHistory
	panePastes
	paneReplay
	panePrompt
	paneHealth
	paneRetention
	paneFiles
	paneLive
	paneReview
	paneSecurity
	paneCount
)

// pane is what the root needs of every pane to lay it out and route to it.
// The root stores concrete pane types; this interface is for iterating.
type pane interface {
	Title() string
	SetSize(w, h int)
	Focus()
	Blur()
	View() string
	Help() []key.Binding
	Filtering() bool
	// ClickRow moves the cursor to row y of the pane and returns what
	// the new selection needs computed or loaded.
	ClickRow(y int) tea.Cmd
	// Legend explains the symbols and badges the pane draws; the help
	// overlay (?) lists it under the keys.
	Legend() []text.LegendEntry
}

// paneAt returns pane i for iteration.
func (m *Model) paneAt(i int) pane {
	switch i {
	case paneProjects:
		return &m.projects
	case paneIndex:
		return &m.index
	case paneMemories:
		return &m.memories
	case paneHistory:
		return &m.history
	case panePastes:
		return &m.pastes
	case paneReplay:
		return &m.replay
	case panePrompt:
		return &m.prompt
	case paneRetention:
		return &m.retention
	case paneFiles:
		return &m.files
	case paneLive:
		return &m.livePane
	case paneReview:
		return &m.reviewPane
	case paneSecurity:
		return &m.security
	}
	return &m.health
}

// handleKey handles global keys unless the focused pane is taking text
// (a filter line or a form), then hands the key to the focused pane.
func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.showError {
		m.showError = false
		return m, nil
	}
	if m.showHelp {
		// The list keys scroll the overlay; any other key closes it.
		switch {
		case key.Matches(msg, m.keys.Down):
			m.helpOffset++
		case key.Matches(msg, m.keys.Up):
			m.helpOffset--
		case key.Matches(msg, m.keys.PageDown):
			m.helpOffset += m.bodyHeight() - 1
		case key.Matches(msg, m.keys.PageUp):
			m.helpOffset -= m.bodyHeight() - 1
		default:
			m.showHelp = false
		}
		m.helpOffset = max(min(m.helpOffset, m.helpMaxOffset()), 0)
		return m, nil
	}
	if c := m.confirm; c != nil {
		switch {
		case key.Matches(msg, m.keys.Confirm):
			m.confirm = nil
			next, cmd, _ := m.handleEdit(c.onYes)
			return next, cmd
		case key.Matches(msg, m.keys.Cancel):
			m.confirm = nil
			if c.onNo != nil {
				next, cmd, _ := m.handleData(c.onNo)
				return next, cmd
			}
			m.setStatus("cancelled: nothing was written", false)
		}
		return m, nil
	}
	if m.search.IsOpen() {
		var cmd tea.Cmd
		var handled bool
		m.search, cmd, handled = m.search.Update(msg)
		switch {
		case handled:
			return m, cmd
		case key.Matches(msg, m.keys.Quit):
			return m, tea.Quit
		case key.Matches(msg, m.keys.Help):
			m.showHelp, m.helpOffset = true, 0
		}
		return m, nil
	}
	if !m.paneAt(m.focus).Filtering() {
		switch {
		case key.Matches(msg, m.keys.Search):
			return m, m.openSearch()
		case m.search.Stepping() && key.Matches(msg, m.keys.NextHit):
			return m, m.search.Step(1)
		case m.search.Stepping() && key.Matches(msg, m.keys.PrevHit):
			return m, m.search.Step(-1)
		case key.Matches(msg, m.keys.Quit):
			return m, tea.Quit
		case key.Matches(msg, m.keys.Help):
			m.showHelp, m.helpOffset = true, 0
			return m, nil
		case key.Matches(msg, m.keys.NextPane):
			return m, m.setFocus((m.focus + 1) % paneCount)
		case key.Matches(msg, m.keys.PrevPane):
			return m, m.setFocus((m.focus + paneCount - 1) % paneCount)
		case key.Matches(msg, m.keys.Reload):
			cmd := m.reloadAll()
			return m, cmd
		case key.Matches(msg, m.keys.LastError):
			if m.lastError == "" {
				m.setStatus("no error so far", false)
			} else {
				m.showError = true
			}
			return m, nil
		case key.Matches(msg, m.keys.Undo) && m.focus == paneFiles:
			return m, m.filesUndo()
		case key.Matches(msg, m.keys.Undo) && m.focus == paneSecurity:
			var cmd tea.Cmd
			m.security, cmd = m.security.AskRestore()
			return m, cmd
		case key.Matches(msg, m.keys.Undo):
			next, cmd, _ := m.handleEdit(msgs.Undo{})
			return next, cmd
		}
		for i, b := range m.keys.Panes {
			if key.Matches(msg, b) {
				return m, m.setFocus(i)
			}
		}
	}
	return m.routeToFocused(msg)
}

// routeToFocused hands a key or mouse message to the focused pane.
func (m Model) routeToFocused(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch m.focus {
	case paneProjects:
		m.projects, cmd = m.projects.Update(msg)
	case paneIndex:
		m.index, cmd = m.index.Update(msg)
	case paneMemories:
		m.memories, cmd = m.memories.Update(msg)
	case paneHistory:
		m.history, cmd = m.history.Update(msg)
	case panePastes:
		m.pastes, cmd = m.pastes.Update(msg)
	case paneReplay:
		m.replay, cmd = m.replay.Update(msg)
	case panePrompt:
		m.prompt, cmd = m.prompt.Update(msg)
	case paneHealth:
		m.health, cmd = m.health.Update(msg)
	case paneRetention:
		m.retention, cmd = m.retention.Update(msg)
	case paneFiles:
		m.files, cmd = m.files.Update(msg)
	case paneLive:
		m.livePane, cmd = m.livePane.Update(msg)
	case paneReview:
		m.reviewPane, cmd = m.reviewPane.Update(msg)
	case paneSecurity:
		m.security, cmd = m.security.Update(msg)
	}
	return m, cmd
}

// setFocus focuses pane i and returns the load it waits for, if any
// (lazyLoadCmd).
func (m *Model) setFocus(i int) tea.Cmd {
	m.paneAt(m.focus).Blur()
	m.focus = i
	m.paneAt(m.focus).Focus()
	return tea.Batch(m.lazyLoadCmd(), m.followTimelineCmd())
}

// inPane makes a wheel turn's position relative to the pane's inside
// (its top-left cell inside the border is 0,0), as the panes place their
// parts: a pane's detail scrolls only when the wheel is over it.
func (m Model) inPane(msg tea.MouseWheelMsg) tea.MouseWheelMsg {
	msg.X--
	msg.Y -= m.bodyTop() + 1
	return msg
}

// handleClick focuses a pane by its tab, or moves a list's cursor.
func (m Model) handleClick(msg tea.MouseClickMsg) (tea.Model, tea.Cmd) {
	if m.search.IsOpen() {
		return m, nil // the overlay covers the pane: a click must not move it
	}
	mouse := msg.Mouse()
	if mouse.Y == m.tabsRow() {
		if i := m.tabAt(mouse.X); i >= 0 {
			return m, m.setFocus(i)
		}
		return m, nil
	}
	top := m.bodyTop()
	if mouse.Y > top && mouse.Y < top+m.bodyHeight()+1 {
		return m, m.paneAt(m.focus).ClickRow(mouse.Y - top - 1)
	}
	return m, nil
}
