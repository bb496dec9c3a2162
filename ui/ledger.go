package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/views/msgs"
)

// handleLedger keeps a rule a compaction lost (the Replay pane's s) as a
// feedback memory of the open project, through its store like every edit
// (scanned, journaled, u undoes it); ok is false for other messages.
func (m Model) handleLedger(msg tea.Msg) (Model, tea.Cmd, bool) {
	req := msg
	if f, ok := msg.(forceRequest); ok {
		req = f.msg
	}
	r, ok := req.(msgs.KeepLost)
	if !ok {
		return m, nil, false
	}
	return m, m.storeOp(msg, "", func(s *store.Store, o store.WriteOptions) (store.Change, error) {
		o.SessionID = r.Session
		k, err := ledger.Keep(r.Item, ledger.Target{Kind: ledger.ToMemory}, ledger.KeepInput{Session: r.Session, Memory: s, Options: o})
		return k.Change, err
	}), true
}
