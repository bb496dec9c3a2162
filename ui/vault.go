package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/replay"
)

// handleVault serves the Replay pane's vault rows, opens and restores
// (the Vault feed, feed.Vault, reads and writes).
func (m Model) handleVault(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case feed.VaultSessions:
		if s := msg.Status(); s != "" {
			m.setStatus(s, true)
		}
		m.p.replay, _ = m.p.replay.Update(msg.PaneMsg())
		return m, nil, true
	case replay.OpenVaultSession:
		return m, m.openTimelineFrom(msg.Path, nil, m.feeds.vault.Lost()), true
	case replay.RestoreRequest:
		if m.readOnly {
			m.setStatus("read-only home: nothing was restored", true)
			return m, nil, true
		}
		m.setStatus("putting back session "+msg.Session+" from the vault…", false)
		return m, m.feeds.vault.Restore(m.data.open, msg.Session, m.opts.Now()), true
	case feed.VaultRestored:
		s, isErr := msg.Status()
		m.setStatus(s, isErr)
		if msg.Err != nil {
			return m, nil, true
		}
		// The home has the session again: the list and its vault rows
		// are read anew.
		m.feeds.vault.Forget()
		return m, m.requestSessions(feed.SessionsReq{Slug: msg.Slug, Full: true}), true
	}
	return m, nil, false
}
