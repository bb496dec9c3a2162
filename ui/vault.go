package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/replay"
)

// The Replay pane lists the sessions of the open project that only the
// rescue vault holds (vault.Lost, what `sessions --lost` lists), opens
// one from the vault's copy, and puts one back with the engine restore
// `memscope vault restore` runs, journaled in the home so undo (u,
// `memscope undo`) takes it back.

// vaultSessionsMsg carries the open project's vault-only sessions.
type vaultSessionsMsg struct {
	slug     string
	sessions []replay.Session
	err      error
}

// vaultRestoredMsg is what a restore from the Replay pane did.
type vaultRestoredMsg struct {
	slug string
	rep  vault.RestoreReport
	err  error
}

// homeSessionIDs are the ids of ss, sorted and joined.
func homeSessionIDs(ss []replay.Session) string {
	ids := make([]string, len(ss))
	for i, s := range ss {
		ids[i] = s.File.SessionID
	}
	slices.Sort(ids)
	return strings.Join(slices.Compact(ids), " ")
}

// vaultSessionsAfter reads the vault rows of slug when its home sessions
// ss are not those they were read beside (nil when they are, and when
// there is no vault).
func (m *Model) vaultSessionsAfter(slug string, ss []replay.Session) tea.Cmd {
	dir := m.places().VaultDir
	ids := homeSessionIDs(ss)
	if dir == "" || m.vaultRows != nil && *m.vaultRows == (vaultListed{slug: slug, ids: ids}) {
		return nil
	}
	m.vaultRows = &vaultListed{slug: slug, ids: ids}
	root, home := m.root(), m.opts.Home
	return func() tea.Msg {
		ss, err := vaultSessions(root, dir, home, slug)
		return vaultSessionsMsg{slug: slug, sessions: ss, err: err}
	}
}

// vaultSessions lists the transcripts of project slug that the vault in
// dir holds and home does not, summarized as the home's are.
func vaultSessions(root fs.FS, dir string, home *model.Home, slug string) ([]replay.Session, error) {
	v := vault.Open(dir, root, nil)
	if err := v.Exists(); err != nil {
		return nil, err
	}
	l, err := v.Lost(home.FS)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	sf, _ := model.FindProjectSessionFiles(l, slug)
	out := make([]replay.Session, len(sf.Transcripts))
	fw := make(map[string]*enginesessions.Follower, len(sf.Transcripts))
	for i, t := range sf.Transcripts {
		fw[t.Path] = enginesessions.NewFollower()
		out[i] = replay.Session{File: t, Vault: true}
	}
	feed.SummarizeSessions(l, out, fw)
	return out, nil
}

// openLost opens the vault's view of what the home lost.
func (m Model) openLost() func() (fs.FS, func(), error) {
	dir, root, home := m.places().VaultDir, m.root(), m.opts.Home
	return func() (fs.FS, func(), error) {
		if dir == "" {
			return nil, nil, errors.New("no rescue vault for this home")
		}
		l, err := vault.Open(dir, root, nil).Lost(home.FS)
		if err != nil {
			return nil, nil, err
		}
		return l, func() { l.Close() }, nil
	}
}

// handleVault serves the Replay pane's vault rows, opens and restores.
func (m Model) handleVault(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case vaultSessionsMsg:
		if msg.err != nil && !errors.Is(msg.err, vault.ErrNoVault) {
			m.setStatus("rescue vault: "+msg.err.Error(), true)
		}
		m.p.replay, _ = m.p.replay.Update(replay.VaultSessionsMsg{Project: msg.slug, Sessions: msg.sessions})
		return m, nil, true
	case replay.OpenVaultSession:
		return m, m.openTimelineFrom(msg.Path, nil, m.openLost()), true
	case replay.RestoreRequest:
		if m.readOnly {
			m.setStatus("read-only home: nothing was restored", true)
			return m, nil, true
		}
		dir, root, home, w, now, slug := m.places().VaultDir, m.root(), m.opts.Home, m.writes(), m.opts.Now(), m.data.open
		m.setStatus("putting back session "+msg.Session+" from the vault…", false)
		return m, func() tea.Msg {
			rep, err := vault.Open(dir, root, w).Restore(vault.RestoreOptions{Home: home, Session: model.SessionID(msg.Session), Now: now,
				Journal: store.OpenHome(home.Dir, w).Creates(vault.OpRestore, now)})
			return vaultRestoredMsg{slug: slug, rep: rep, err: err}
		}, true
	case vaultRestoredMsg:
		if msg.err != nil {
			m.setStatus(msg.err.Error(), true)
			return m, nil, true
		}
		// The short part first: a narrow status line cuts the session id.
		m.setStatus(fmt.Sprintf("put back %s (%s), u undoes it · session %s is where claude --resume finds it",
			text.Count(msg.rep.Written, "file", ""), text.Bytes(msg.rep.Bytes), msg.rep.Session), false)
		// The home has the session again: the list and its vault rows
		// are read anew.
		m.vaultRows = nil
		return m, m.requestSessions(feed.SessionsReq{Slug: msg.slug, Full: true}), true
	}
	return m, nil, false
}
