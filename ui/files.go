package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/files"
)

// The Files pane's I/O: the sessions with file history, one session's
// turns and versions, diffs, restore plans, restores and their undo.

type fileSessionsMsg struct {
	sessions []filehist.SessionSummary
	problems []model.Problem
}

type fileSessionMsg struct {
	s   *filehist.SessionFileHistory
	err error
}

type fileRestoredMsg struct {
	sid, transcript string
	ch              store.Change
	err             error
}

// loadFileSessionsCmd lists the sessions that have file history.
func (m Model) loadFileSessionsCmd() tea.Cmd {
	fsys := m.opts.Home.FS
	return func() tea.Msg {
		s, probs := filehist.Sessions(fsys)
		return fileSessionsMsg{sessions: s, problems: probs}
	}
}

func (m Model) loadFileSessionCmd(sid, transcript string) tea.Cmd {
	fsys := m.opts.Home.FS
	return func() tea.Msg {
		s, err := filehist.ReadSessionFileHistory(fsys, model.SessionID(sid), transcript)
		return fileSessionMsg{&s, err}
	}
}

// filesUndo is the global undo key while the Files pane has the focus: it
// reverts the shown session's newest restore (the memory journal does not
// hold restores).
func (m Model) filesUndo() tea.Cmd {
	cur := m.p.files.Session()
	if cur == nil {
		return func() tea.Msg { return files.UndoRequest{} }
	}
	sid := string(cur.SessionID)
	return func() tea.Msg { return files.UndoRequest{SessionID: sid} }
}

// handleFiles serves the Files pane's requests.
func (m Model) handleFiles(msg tea.Msg) (Model, tea.Cmd, bool) {
	fsys, dir := m.opts.Home.FS, m.opts.Home.Dir
	cur := m.p.files.Session()
	switch msg := msg.(type) {
	case fileSessionsMsg:
		delete(m.loading, "files")
		var hit tea.Cmd
		m.p.files, hit = m.p.files.Update(files.SessionsMsg{Sessions: msg.sessions})
		if cur != nil {
			// A reload: read the open session again, the disk changed.
			return m, tea.Batch(hit, m.loadFileSessionCmd(string(cur.SessionID), cur.Transcript)), true
		}
		return m, hit, true
	case files.LoadSession:
		return m, m.loadFileSessionCmd(msg.SessionID, msg.Transcript), true
	case fileSessionMsg:
		if msg.err != nil {
			m.setStatus(msg.err.Error(), true)
			return m, nil, true
		}
		var cmd tea.Cmd
		m.p.files, cmd = m.p.files.Update(files.SessionMsg{Session: msg.s})
		return m, cmd, true
	case files.DiffRequest:
		if cur == nil {
			return m, nil, true
		}
		return m, func() tea.Msg {
			f, ok := cur.File(msg.TrackingPath)
			if !ok {
				return files.DiffResult{Request: msg, Err: fmt.Errorf("no tracked file %s", msg.TrackingPath)}
			}
			if msg.Content {
				data, exists, err := filehist.ReadFileVersion(fsys, f, msg.From)
				return files.DiffResult{Request: msg, Diff: string(data), Err: err, Absent: err == nil && !exists, Loaded: true}
			}
			d, err := filehist.FileVersionDiff(fsys, f, msg.From, msg.To)
			return files.DiffResult{Request: msg, Diff: d, Err: err, Loaded: true}
		}, true
	case files.DiffResult:
		m.p.files, _ = m.p.files.Update(msg)
		return m, nil, true
	case files.PlanRequest:
		if cur == nil {
			return m, nil, true
		}
		return m, func() tea.Msg {
			if msg.Turn != "" {
				p, err := filehist.PlanTurnRestore(fsys, cur, msg.Turn)
				return files.PlanMsg{Plan: p, Err: err}
			}
			p, err := filehist.PlanVersionRestore(fsys, cur, msg.TrackingPath, msg.Version)
			return files.PlanMsg{Plan: p, Err: err}
		}, true
	case files.PlanMsg:
		var cmd tea.Cmd
		m.p.files, cmd = m.p.files.Update(msg)
		return m, cmd, true
	case files.RestoreRequest:
		if m.readOnly {
			m.setStatus("read-only home: nothing was restored", true)
			return m, nil, true
		}
		p, transcript := msg.Plan, ""
		if cur != nil {
			transcript = cur.Transcript
		}
		now, w := m.opts.Now(), m.writes()
		return m, func() tea.Msg {
			ch, err := filehist.ApplyRestoreWith(w, dir, fsys, p, now)
			return fileRestoredMsg{string(p.SessionID), transcript, ch, err}
		}, true
	case files.UndoRequest:
		if msg.SessionID == "" {
			m.setStatus("open a session in Files first: undo there reverts its newest restore", true)
			return m, nil, true
		}
		if m.readOnly {
			m.setStatus("read-only home: nothing was undone", true)
			return m, nil, true
		}
		transcript := ""
		if cur != nil {
			transcript = cur.Transcript
		}
		w := m.writes()
		return m, func() tea.Msg {
			ch, err := filehist.UndoRestoreWith(w, dir, model.SessionID(msg.SessionID))
			return fileRestoredMsg{msg.SessionID, transcript, ch, err}
		}, true
	case fileRestoredMsg:
		if msg.err != nil {
			m.setStatus(msg.err.Error(), true)
			return m, nil, true
		}
		// The short part first: summaries name whole session and turn ids,
		// which a status line cuts.
		status := fmt.Sprintf("undone: %s put back · %s", text.Count(len(msg.ch.Files), "file", ""), msg.ch.Summary)
		if msg.ch.ID != "" && msg.ch.Op != "" && !strings.HasPrefix(msg.ch.Summary, "undo:") {
			status = fmt.Sprintf("restored %s, u undoes it · %s", text.Count(len(msg.ch.Files), "file", ""), msg.ch.Summary)
		}
		m.setStatus(status, false)
		return m, m.loadFileSessionCmd(msg.sid, msg.transcript), true
	}
	return m, nil, false
}
