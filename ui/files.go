package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/files"
)

// The Files pane's requests, served by its feed (ui/feed/files.go).

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

// handleFiles serves the Files pane's requests through its feed
// (feed.Files) and hands the pane what it read.
func (m Model) handleFiles(msg tea.Msg) (Model, tea.Cmd, bool) {
	fsys, dir := m.opts.Home.FS, m.opts.Home.Dir
	cur := m.p.files.Session()
	switch msg := msg.(type) {
	case feed.FileSessions:
		delete(m.loading, "files")
		var hit tea.Cmd
		m.p.files, hit = m.p.files.Update(m.feeds.files.Loaded(msg))
		if cur != nil {
			// A reload: read the open session again, the disk changed.
			return m, tea.Batch(hit, feed.ReadFileSession(fsys, string(cur.SessionID), cur.Transcript)), true
		}
		return m, hit, true
	case files.LoadSession:
		return m, feed.ReadFileSession(fsys, msg.SessionID, msg.Transcript), true
	case feed.FileSession:
		s, err := msg.Session()
		if err != nil {
			m.setStatus(err.Error(), true)
			return m, nil, true
		}
		var cmd tea.Cmd
		m.p.files, cmd = m.p.files.Update(s)
		return m, cmd, true
	case files.DiffRequest:
		if cur == nil {
			return m, nil, true
		}
		return m, feed.FileDiff(fsys, cur, msg), true
	case files.DiffResult:
		m.p.files, _ = m.p.files.Update(msg)
		return m, nil, true
	case files.PlanRequest:
		if cur == nil {
			return m, nil, true
		}
		return m, feed.FilePlan(fsys, cur, msg), true
	case files.PlanMsg:
		var cmd tea.Cmd
		m.p.files, cmd = m.p.files.Update(msg)
		return m, cmd, true
	case files.RestoreRequest:
		if m.readOnly {
			m.setStatus("read-only home: nothing was restored", true)
			return m, nil, true
		}
		transcript := ""
		if cur != nil {
			transcript = cur.Transcript
		}
		return m, feed.FileRestore(m.writes(), dir, fsys, msg.Plan, transcript, m.opts.Now()), true
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
		return m, feed.FileUndo(m.writes(), dir, msg.SessionID, transcript), true
	case feed.FileRestored:
		ch, sid, transcript, err := msg.Done()
		if err != nil {
			m.setStatus(err.Error(), true)
			return m, nil, true
		}
		// The short part first: summaries name whole session and turn ids,
		// which a status line cuts.
		status := fmt.Sprintf("undone: %s put back · %s", text.Count(len(ch.Files), "file", ""), ch.Summary)
		if ch.ID != "" && ch.Op != "" && !strings.HasPrefix(ch.Summary, "undo:") {
			status = fmt.Sprintf("restored %s, u undoes it · %s", text.Count(len(ch.Files), "file", ""), ch.Summary)
		}
		m.setStatus(status, false)
		return m, feed.ReadFileSession(fsys, sid, transcript), true
	}
	return m, nil, false
}
