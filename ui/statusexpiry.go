package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// statusLife is how long a status message stays when no key is pressed.
const statusLife = 5 * time.Second

// statusTimerMsg asks for the tick that ends status message seq. It is
// a message of its own, not the tick itself, so a test that runs every
// command to the end (drain) can leave the timer out instead of sleeping.
type statusTimerMsg struct{ seq int }

// statusExpiredMsg says the status message numbered seq has been shown
// for statusLife.
type statusExpiredMsg struct{ seq int }

// expireStatus numbers a status message new since before and returns the
// tick that ends it; an error has none: it stays until a key shows it was
// seen (statusSeen).
func (m *Model) expireStatus(before chrome) tea.Cmd {
	if m.status == before.status && m.statusErr == before.statusErr {
		return nil
	}
	m.statusSeq++
	if m.status == "" || m.statusErr {
		return nil
	}
	seq := m.statusSeq
	return func() tea.Msg { return statusTimerMsg{seq: seq} }
}

// statusSeen clears the status line before a key is handled: the message
// was on screen when the key was pressed, errors included (! still opens
// the last error in full).
func (m *Model) statusSeen() {
	m.status, m.statusErr = "", false
}

// handleStatusExpired starts a status message's timer, and clears the status when it is still the message
// the tick was for and not an error.
func (m Model) handleStatusExpired(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case statusTimerMsg:
		return m, tea.Tick(statusLife, func(time.Time) tea.Msg { return statusExpiredMsg(msg) }), true
	case statusExpiredMsg:
		if msg.seq == m.statusSeq && !m.statusErr {
			m.status = ""
		}
		return m, nil, true
	}
	return m, nil, false
}
