package files

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/filehist"
)

// Update handles navigation, the diff base, restores and the
// confirmation.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	m, cmd := m.update(msg)
	m.layout()
	return m, cmd
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch d := msg.(type) {
	case SessionsMsg:
		cmd := m.setSessions(d.Sessions)
		return m, cmd
	case SessionMsg:
		cmd := m.setSession(d.Session)
		return m, cmd
	case DiffResult:
		m.setDiff(d)
		return m, nil
	case PlanMsg:
		cmd := m.setPlan(d.Plan, d.Err)
		return m, cmd
	}
	if (!m.confirm || m.det.Scrolls(msg)) && !m.list.Filtering() {
		if d, ok := m.det.Update(msg, m.detailContent(), m.det.Area(m.top(), m.width, m.height)); ok {
			m.det = d
			return m, nil
		}
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && m.confirm {
		return m.answer(k)
	}
	before, _ := m.diffRequest()
	var cmd tea.Cmd
	var handled bool
	m.list, cmd, handled = m.list.Update(msg)
	if handled {
		return m, tea.Batch(cmd, m.diffIfMoved(before))
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.Open):
		return m.open()
	case key.Matches(k, m.keys.Back):
		m.back()
	case key.Matches(k, m.keys.Apply):
		return m.restore()
	case key.Matches(k, m.keys.Toggle) && m.level == LevelVersions:
		m.base = (m.base + 1) % baseCount
		return m, m.diffIfMoved(DiffRequest{})
	}
	return m, nil
}

// answer takes the y/n of a restore confirmation.
func (m Model) answer(k tea.KeyPressMsg) (Model, tea.Cmd) {
	p := m.plan
	m.confirm, m.plan = false, nil
	if key.Matches(k, m.keys.Confirm) && p != nil {
		return m, send(RestoreRequest{Plan: p})
	}
	return m, status("restore cancelled: nothing was written", false)
}

// diffIfMoved asks for the selected version's diff when the selection (or
// the diff base) is not what before asked for.
func (m *Model) diffIfMoved(before DiffRequest) tea.Cmd {
	req, ok := m.diffRequest()
	if !ok || req == before {
		return nil
	}
	m.diff, m.doc = DiffResult{Request: req}, nil
	return send(req)
}

// diffRequest is the diff the selected version wants.
func (m Model) diffRequest() (DiffRequest, bool) {
	r, ok := m.list.Selected()
	if m.level != LevelVersions || !ok || r.Version == nil || m.session == nil || m.file == nil {
		return DiffRequest{}, false
	}
	req := DiffRequest{SessionID: string(m.session.SessionID), TrackingPath: m.file.TrackingPath,
		From: filehist.VersionRef{Version: r.Version.Version}, To: filehist.DiskRef}
	switch m.base {
	case showContent:
		req.To, req.Content = filehist.VersionRef{}, true
	case againstNext:
		for _, v := range m.file.Versions {
			if v.Version > r.Version.Version {
				req.To = filehist.VersionRef{Version: v.Version}
				break
			}
		}
	}
	return req, true
}

// open goes one level in.
func (m Model) open() (Model, tea.Cmd) {
	r, ok := m.list.Selected()
	if !ok {
		return m, nil
	}
	m.cursors[m.level] = m.list.Index()
	switch m.level {
	case LevelSessions:
		id := string(r.Session.SessionID)
		if m.session != nil && string(m.session.SessionID) == id {
			m.showLevel(LevelTurns)
			return m, nil
		}
		m.session, m.turn, m.file, m.loading = nil, nil, nil, id
		m.showLevel(LevelTurns)
		return m, send(LoadSession{SessionID: id, Transcript: r.Session.Transcript})
	case LevelTurns:
		m.turn = r.Turn
		m.showLevel(LevelFiles)
	case LevelFiles:
		m.file = r.File
		m.showLevel(LevelVersions)
		return m, m.diffIfMoved(DiffRequest{})
	}
	return m, nil
}

// back goes one level out, to the row it came from.
func (m *Model) back() {
	if m.level == LevelSessions {
		return
	}
	lv := m.level - 1
	m.showLevel(lv)
	m.list.Select(m.cursors[lv])
}

// restore asks for the plan of what the selected row restores.
func (m Model) restore() (Model, tea.Cmd) {
	if m.readOnly {
		return m, status("the home is read-only: nothing can be restored", true)
	}
	r, ok := m.list.Selected()
	switch {
	case !ok || m.session == nil:
		return m, nil
	case m.level == LevelTurns:
		return m, send(PlanRequest{SessionID: string(m.session.SessionID), Turn: r.Turn.MessageID})
	case m.level == LevelVersions:
		return m, send(PlanRequest{SessionID: string(m.session.SessionID), TrackingPath: m.file.TrackingPath, Version: r.Version.Version})
	}
	return m, status("select a turn (rewind) or a version (restore) first", true)
}

// showLevel fills the list with the rows of a level.
func (m *Model) showLevel(lv Level) {
	m.level = lv
	var rows []Row
	switch lv {
	case LevelSessions:
		m.list.Empty = "no session has file history"
		if !m.loaded {
			m.list.Empty = "loading file history…"
		}
		for i := range m.sessions {
			rows = append(rows, Row{Session: &m.sessions[i]})
		}
	case LevelTurns:
		m.list.Empty = "no turn has a file-history snapshot"
		if m.session == nil {
			m.list.Empty = "loading the session…"
			break
		}
		for i := range m.session.Turns {
			rows = append(rows, Row{Turn: &m.session.Turns[i]})
		}
	case LevelFiles:
		m.list.Empty = "the session tracks no file"
		if m.session != nil {
			for i := range m.session.Files {
				rows = append(rows, Row{File: &m.session.Files[i]})
			}
		}
	case LevelVersions:
		m.list.Empty = "no version"
		if m.file != nil {
			for i := range m.file.Versions {
				rows = append(rows, Row{Version: &m.file.Versions[i]})
			}
		}
	}
	m.list.SetItems(rows)
	m.list.Select(0)
	if lv == LevelVersions {
		m.selectTurnVersion()
	}
}

// selectTurnVersion puts the cursor on the version the chosen turn holds.
func (m *Model) selectTurnVersion() {
	if m.turn == nil || m.file == nil {
		return
	}
	for i, v := range m.file.Versions {
		for _, t := range v.Turns {
			if t == m.turn.MessageID {
				m.list.Select(i)
				return
			}
		}
	}
}
