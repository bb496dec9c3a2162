package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/msgs"
	"github.com/memscope/memscope/views/projects"
)

// handleKey handles global keys unless the focused pane is taking text
// (a filter line or a form), then hands the key to the focused pane.
func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	m.statusSeen()
	if next, cmd, ok := m.handleModal(msg); ok {
		return next, cmd
	}
	if m.p.search.IsOpen() {
		var cmd tea.Cmd
		var handled bool
		m.p.search, cmd, handled = m.p.search.Update(msg)
		switch {
		case handled:
			return m, cmd
		case key.Matches(msg, m.keys.Quit):
			return m, tea.Quit
		case key.Matches(msg, m.keys.Help):
			m.openHelp()
		}
		return m, nil
	}
	if !m.paneAt(m.focus).Filtering() {
		switch {
		case key.Matches(msg, m.keys.Search):
			return m, m.openSearch()
		case key.Matches(msg, m.keys.NextHit) && m.can("next_hit"):
			return m, m.p.search.Step(1)
		case key.Matches(msg, m.keys.PrevHit) && m.can("prev_hit"):
			return m, m.p.search.Step(-1)
		case key.Matches(msg, m.keys.Back) && m.p.search.Stepping():
			// esc ends the search, and is the pane's esc as well (back
			// to the list a jump opened a detail of).
			m.p.search.EndStepping()
			m.setStatus("search ended: n and N are the pane's keys again", false)
			return m.routeToFocused(msg)
		case key.Matches(msg, m.keys.Quit):
			return m, tea.Quit
		case key.Matches(msg, m.keys.Help):
			m.openHelp()
			return m, nil
		case key.Matches(msg, m.keys.Palette):
			m.openPalette()
			return m, nil
		case key.Matches(msg, m.keys.Filter) && !m.canFilter():
			m.openNoFilter()
			return m, nil
		case key.Matches(msg, m.keys.NextPane):
			return m, m.setFocus((m.focus + 1) % paneCount)
		case key.Matches(msg, m.keys.PrevPane):
			return m, m.setFocus((m.focus + paneCount - 1) % paneCount)
		case key.Matches(msg, m.keys.Reload):
			cmd := m.reloadAll()
			return m, cmd
		case key.Matches(msg, m.keys.LastError):
			if ok, why := m.available("last_error"); !ok {
				m.setStatus(why, false)
			} else {
				m.modals.push(modal{kind: modalError})
			}
			return m, nil
		case key.Matches(msg, m.keys.Undo) && m.focus == paneFiles:
			return m, m.filesUndo()
		case key.Matches(msg, m.keys.Undo) && m.focus == paneSecurity:
			var cmd tea.Cmd
			m.p.security, cmd = m.p.security.AskRestore()
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
	return m, paneTable[m.focus].update(m.p, msg)
}

// setFocus focuses pane i and returns the load it waits for, if any
// (lazyLoadCmd).
func (m *Model) setFocus(i int) tea.Cmd {
	m.paneAt(m.focus).Blur()
	m.focus = i
	m.paneAt(m.focus).Focus()
	var live, render tea.Cmd
	switch i {
	case paneLive:
		live = m.lv.Shown()
	case paneProjects:
		// The review counts, which only Projects shows, are counted once
		// it is.
		var counts *projects.UnreviewedMsg
		if render, counts = m.feeds.project.ShowCounts(); counts != nil {
			paneTable[paneProjects].update(m.p, *counts)
		}
	case paneHealth:
		// The prune plan, which only Health shows, is made once it is.
		render = m.feeds.project.ShowPlan()
	case paneIndex, paneMemories:
		// The index, the memory bodies, are rendered when their pane is
		// first on screen.
		md := m.feeds.markdown
		if i == paneIndex && md.ShowIndex() || i == paneMemories && md.ShowBodies() {
			render = m.renderCmd()
		}
	}
	return tea.Batch(m.lazyLoadCmd(), m.followTimelineCmd(), live, render)
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
	if m.p.search.IsOpen() {
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

// handleOpenPane opens a pane at the row or filter a message names
// (msgs.OpenPane: the Overview's lines send it, and any pane may).
func (m Model) handleOpenPane(msg tea.Msg) (Model, tea.Cmd, bool) {
	open, ok := msg.(msgs.OpenPane)
	if !ok {
		return m, nil, false
	}
	i := keymap.PaneIndex(open.Pane)
	if i < 0 {
		m.setStatus("no pane called "+open.Pane, true)
		return m, nil, true
	}
	cmd := m.setFocus(i)
	show := paneTable[i].update(m.p, msgs.Show{What: open.Show})
	return m, tea.Batch(cmd, show), true
}
