package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/palette"
)

// modalKind is an overlay or a question that takes the keyboard before
// the global keys and the focused pane. The order is precedence: a
// higher kind stays above a lower one pushed after it (a y/n question
// that arrives while the help overlay is open waits under it).
type modalKind int

const (
	modalConfirm  modalKind = iota + 1 // a pending y/n question
	modalNoFilter                      // / on a pane with nothing to filter: typing is swallowed until esc
	modalPalette                       // the command palette (: or ctrl+p)
	modalHelp                          // the help overlay (?)
	modalError                         // the last error in full (!)
)

// modal is one open modal; confirm is the question of a modalConfirm,
// palette the list of a modalPalette, typed what a modalNoFilter
// swallowed.
type modal struct {
	kind    modalKind
	confirm *confirmState
	palette *palette.Model
	typed   string
}

// modalStack is the open modals, the one that takes the keys last. A
// small array: the root model copies it as a value.
type modalStack struct {
	items [5]modal
	n     int
}

// push opens md (replacing an open modal of its kind) below any modal of
// a higher kind.
func (s *modalStack) push(md modal) {
	s.remove(md.kind)
	if s.n == len(s.items) {
		return
	}
	i := s.n
	for i > 0 && s.items[i-1].kind > md.kind {
		s.items[i] = s.items[i-1]
		i--
	}
	s.items[i] = md
	s.n++
}

// top is the modal that takes the keys.
func (s modalStack) top() (modal, bool) {
	if s.n == 0 {
		return modal{}, false
	}
	return s.items[s.n-1], true
}

// remove closes the modal of kind k, if open.
func (s *modalStack) remove(k modalKind) {
	for i := 0; i < s.n; i++ {
		if s.items[i].kind == k {
			copy(s.items[i:s.n], s.items[i+1:s.n])
			s.n--
			s.items[s.n] = modal{}
			return
		}
	}
}

// has reports whether a modal of kind k is open.
func (s modalStack) has(k modalKind) bool {
	for _, md := range s.items[:s.n] {
		if md.kind == k {
			return true
		}
	}
	return false
}

// question is the pending y/n question, nil when none.
func (s modalStack) question() *confirmState {
	for _, md := range s.items[:s.n] {
		if md.kind == modalConfirm {
			return md.confirm
		}
	}
	return nil
}

// ask opens a y/n question.
func (m *Model) ask(c *confirmState) { m.modals.push(modal{kind: modalConfirm, confirm: c}) }

// openHelp opens the help overlay at its top.
func (m *Model) openHelp() {
	m.modals.push(modal{kind: modalHelp})
	m.helpOffset = 0
}

// handleModal gives a key to the top modal; ok is false when none is
// open.
func (m Model) handleModal(msg tea.KeyPressMsg) (tea.Model, tea.Cmd, bool) {
	top, ok := m.modals.top()
	if !ok {
		return m, nil, false
	}
	switch top.kind {
	case modalPalette:
		return m.handlePalette(top.palette, msg)
	case modalNoFilter:
		return m.handleNoFilter(top, msg)
	case modalError:
		m.modals.remove(modalError)
	case modalHelp:
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
			m.modals.remove(modalHelp)
		}
		m.helpOffset = max(min(m.helpOffset, m.helpMaxOffset()), 0)
	case modalConfirm:
		c := top.confirm
		switch {
		case key.Matches(msg, m.keys.Confirm):
			m.modals.remove(modalConfirm)
			next, cmd, _ := m.handleData(c.onYes)
			return next, cmd, true
		case key.Matches(msg, m.keys.Cancel):
			m.modals.remove(modalConfirm)
			if c.onNo != nil {
				next, cmd, _ := m.handleData(c.onNo)
				return next, cmd, true
			}
			m.setStatus("cancelled: nothing was written", false)
		}
	}
	return m, nil, true
}

// actionContext is what the binding table's availability reads now.
func (m Model) actionContext() keymap.Context {
	return keymap.Context{Pane: keymap.PaneID(m.focus), Stepping: m.p.search.Stepping(), HasError: m.lastError != "", Asking: m.modals.question() != nil, Typing: m.paneAt(m.focus).Filtering(),
		LostItem: m.focus == paneReplay && m.p.replay.LostSelected(), VaultSession: m.focus == paneReplay && m.p.replay.VaultSelected()}
}

// available says whether the action called name runs now, and why not
// (keymap.Action.Available).
func (m Model) available(name string) (bool, string) {
	a, ok := keymap.ActionNamed(name)
	if !ok {
		return false, "no action " + name
	}
	return a.AvailableIn(m.actionContext())
}

// can reports whether the action called name runs now.
func (m Model) can(name string) bool {
	ok, _ := m.available(name)
	return ok
}
