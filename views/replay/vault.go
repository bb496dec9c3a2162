package replay

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
)

// Sessions only the rescue vault holds (the client's sweep deleted them
// from the home) are listed with the home's, marked vaultLabel; enter
// opens one read-only from the vault's copy (OpenVaultSession) and the
// VaultRestore key asks the root to put it back (RestoreRequest), after
// which the home lists it as an ordinary session.

// vaultLabel marks a session read from the vault, not the home.
const vaultLabel = "[only in the vault] "

// VaultSessionsMsg brings the sessions of Project (the key the list was
// loaded for) that only the rescue vault holds, each with Vault set.
type VaultSessionsMsg struct {
	Project  string
	Sessions []Session
}

// OpenVaultSession asks the root to open the timeline of a vault-only
// transcript (Path, as the home had it) from the vault's copy.
type OpenVaultSession struct{ Path string }

// RestoreRequest asks the root to put Session back into the home from
// the vault (the engine restore `memscope vault restore` runs, journaled
// so undo takes it back).
type RestoreRequest struct{ Session string }

// vaultRows are the listed project's vault-only sessions and the home's
// own list they are merged into. Replaced whole, never changed in place:
// the pane is copied by value.
type vaultRows struct {
	project string
	home    []Session
	only    []Session
}

// withVault is the list to show for the home's sessions ss: those and
// the vault-only sessions of the same project whose ids the home does
// not list, newest first as the home's are.
func (m *Model) withVault(ss []Session) []Session {
	v := vaultRows{home: ss}
	if m.vault != nil && m.vault.project == m.listed {
		v.project, v.only = m.vault.project, m.vault.only
	}
	m.vault = &v
	if len(v.only) == 0 {
		return ss
	}
	inHome := map[string]bool{}
	for _, s := range ss {
		inHome[s.File.SessionID] = true
	}
	out := slices.Clone(ss)
	for _, s := range v.only {
		if !inHome[s.File.SessionID] {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b Session) int { return b.File.ModTime.Compare(a.File.ModTime) })
	return out
}

// setVaultSessions handles VaultSessionsMsg.
func (m *Model) setVaultSessions(msg VaultSessionsMsg) {
	if msg.Project != m.listed {
		return // another project's, or the list moved on
	}
	home := []Session(nil)
	if m.vault != nil {
		home = m.vault.home
	}
	m.vault = &vaultRows{project: msg.Project, only: msg.Sessions}
	m.sessions.SetItems(m.withVault(home))
}

// isVault says whether the transcript at path is listed only in the vault.
func (m Model) isVault(path string) bool {
	if m.vault == nil {
		return false
	}
	return slices.ContainsFunc(m.vault.only, func(s Session) bool { return s.File.Path == path }) &&
		!slices.ContainsFunc(m.vault.home, func(s Session) bool { return s.File.Path == path })
}

// vaultSession is the vault-only session the keys act on: the selected
// row in the list, the open session in a timeline.
func (m Model) vaultSession() (model.TranscriptFile, bool) {
	if m.mode == ModeSessions {
		s, ok := m.sessions.Selected()
		return s.File, ok && s.Vault && m.isVault(s.File.Path)
	}
	if m.tl == nil || !m.isVault(m.tl.Path) {
		return model.TranscriptFile{}, false
	}
	i := slices.IndexFunc(m.vault.only, func(s Session) bool { return s.File.Path == m.tl.Path })
	return m.vault.only[i].File, true
}

// VaultSelected says the selected (or open) session is one only the
// vault holds: the restore key is available.
func (m Model) VaultSelected() bool {
	_, ok := m.vaultSession()
	return ok
}

// vaultKeys handles the keys that differ for a vault-only session:
// enter opens its copy, the restore key asks for the restore, export
// says to restore first. ok is false for every other key.
func (m Model) vaultKeys(k tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	f, isVault := m.vaultSession()
	switch {
	case key.Matches(k, m.keys.VaultRestore) && !isVault:
		return m, status("r puts back a session only the rescue vault holds: select one marked "+vaultLabel, false), true
	case !isVault:
		return m, nil, false
	case key.Matches(k, m.keys.VaultRestore):
		id := f.SessionID
		return m, func() tea.Msg { return RestoreRequest{Session: id} }, true
	case key.Matches(k, m.keys.Export), key.Matches(k, m.keys.ExportHTML):
		return m, status("this session is only in the vault: r puts it back, then export it", false), true
	case m.mode == ModeSessions && key.Matches(k, m.keys.Open):
		p := f.Path
		m.loading = p
		return m, func() tea.Msg { return OpenVaultSession{Path: p} }, true
	}
	return m, nil, false
}

// status is a command that shows text on the status line.
func status(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return msgs.Status{Text: text, Error: isErr} }
}

// vaultHelp is the restore key while it applies.
func (m Model) vaultHelp() []key.Binding {
	if m.VaultSelected() {
		return []key.Binding{m.keys.VaultRestore}
	}
	return nil
}

// vaultNav marks the timeline of a vault-only session in its nav line.
func (m Model) vaultNav(nav string) string {
	if m.tl != nil && m.isVault(m.tl.Path) {
		return vaultLabel + "read-only copy, r puts it back · " + nav
	}
	return nav
}
