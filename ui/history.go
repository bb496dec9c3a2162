package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/msgs"
)

// handleHistory takes the History feed's reads and checks and hands the
// History and Pastes panes their messages.
func (m Model) handleHistory(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case feed.HistoryRead:
		delete(m.loading, "history")
		// The whole read a pane's showing asked for, after the start
		// read the digest: the Overview's lines counted the same file.
		same := m.feeds.history.Digested() && msg.Read().Reset == ""
		cmd := m.historyOut(m.feeds.history.Loaded(msg, m.openHistory(), m.opts.Now()))
		return m, tea.Batch(cmd, m.overviewHistory(msg.Read().Full && !same)), true
	case feed.PastesChecked:
		return m, m.historyOut(m.feeds.history.Checked(msg, m.openHistory(), m.opts.Now())), true
	case msgs.ResolvePaste:
		return m, m.feeds.history.ResolvePaste(msg.Hash), true
	}
	return m, nil, false
}

// historyOut hands the panes what the History feed says and counts its
// whole read among the sources loading.
func (m *Model) historyOut(out feed.HistoryOut) tea.Cmd {
	if out.Err != nil {
		m.setStatus(out.Err.Error(), true)
	}
	if out.History != nil {
		paneTable[paneHistory].update(m.p, out.History)
	}
	if out.Pastes != nil {
		paneTable[panePastes].update(m.p, out.Pastes)
	}
	if m.feeds.history.ReadingAll() {
		m.loading["history"] = true
	}
	return out.Cmd
}

// overviewHistory hands the Overview's feed history.jsonl as the History
// feed now holds it (one read of the file for both panes), after a read
// (full: a whole one, or one that failed), and counts the lines that
// waited for it when the Overview is shown.
func (m *Model) overviewHistory(full bool) tea.Cmd {
	f := m.feeds.history
	m.feeds.overview.HistoryRead(f.Held(), full || f.History() == nil)
	if f.ReadingAll() {
		m.feeds.overview.HistoryReading()
		return nil
	}
	if m.focus != paneOverview {
		return nil
	}
	return m.overviewLoad()
}

// showHistory shows the open project's prompts (after a project switch).
func (m *Model) showHistory() {
	if msg := m.feeds.history.Entries(m.openHistory(), m.opts.Now()); msg != nil {
		paneTable[paneHistory].update(m.p, msg)
	}
}

// openHistory is the open project, as the History feed picks its prompts.
func (m *Model) openHistory() feed.Open {
	return feed.Open{Slug: m.data.open, Path: m.openPath()}
}
