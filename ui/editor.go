package ui

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
)

// The editor works on a private copy, not on the file: Claude Code may
// rewrite a memory file while the editor is open, and most editors save
// their buffer over whatever is on disk. When the editor exits, the copy
// is written back only if the file still holds what was copied (checked
// at the rename, by the store's journaled Replace); otherwise nothing is
// overwritten and the user's version stays in the copy, whose path the
// status line gives.

// editSession is one editor run.
type editSession struct {
	// path is the file being edited; copy the copy the editor gets.
	path, copy string
	// before is what path held when the copy was made; existed is false
	// when it did not exist.
	before  []byte
	existed bool
}

// editorPreparedMsg says the copy is ready (or why not).
type editorPreparedMsg struct {
	s   editSession
	err error
}

// editorFinishedMsg says the editor exited.
type editorFinishedMsg struct {
	s   editSession
	err error
}

// editorSavedMsg is the outcome of writing the copy back; the root shows
// it and reloads.
type editorSavedMsg struct{ status msgs.Status }

// editorCommand is $VISUAL, else $EDITOR, else vi, split into words so
// "code --wait" works.
func editorCommand(getenv func(string) string) []string {
	for _, k := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(getenv(k)); len(f) > 0 {
			return f
		}
	}
	return []string{"vi"}
}

// openEditorCmd copies path for the editor; the root then hands the
// terminal over (tea.ExecProcess) on editorPreparedMsg.
func (m Model) openEditorCmd(path string) tea.Cmd {
	if m.readOnly {
		return func() tea.Msg { return errMsg{fmt.Errorf("the home is read-only: editing is off")} }
	}
	return func() tea.Msg {
		s, err := prepareEdit(path)
		return editorPreparedMsg{s: s, err: err}
	}
}

// prepareEdit copies path (its name kept, so the editor picks the right
// syntax) into a new private temporary folder.
func prepareEdit(path string) (editSession, error) {
	s := editSession{path: path}
	data, err := model.ReadRegularFile(path, model.MaxDocumentBytes)
	switch {
	case err == nil:
		s.before, s.existed = data, true
	case !errors.Is(err, fs.ErrNotExist):
		return s, fmt.Errorf("read %s for editing: %w", path, err)
	}
	dir, err := os.MkdirTemp("", "memscope-edit-*")
	if err != nil {
		return s, fmt.Errorf("copy %s for editing: %w", path, err)
	}
	s.copy = filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(s.copy, data, 0o600); err != nil {
		os.RemoveAll(dir)
		return s, fmt.Errorf("copy %s for editing: %w", path, err)
	}
	return s, nil
}

// editorEditedMsg carries what the user saved in the copy, for writing
// back.
type editorEditedMsg struct {
	s      editSession
	edited []byte
}

// editorSave is the request to write an edited copy back: a change like
// any other (see handleEdit), so it can be retried with Force.
type editorSave struct {
	s      editSession
	edited []byte
}

// editorDeclined says the user answered no to writing a save the scan
// blocked.
type editorDeclined struct{ s editSession }

// handleEditor runs the editor on a prepared copy, reads the copy back
// when the editor exits, and reports the outcome; ok is false for other
// messages.
func (m Model) handleEditor(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case editorPreparedMsg:
		if msg.err != nil {
			m.setStatus(msg.err.Error(), true)
			return m, nil, true
		}
		s := msg.s
		argv := append(editorCommand(m.opts.Getenv), s.copy)
		c := exec.Command(argv[0], argv[1:]...)
		return m, tea.ExecProcess(c, func(err error) tea.Msg { return editorFinishedMsg{s: s, err: err} }), true
	case editorFinishedMsg:
		if msg.err != nil {
			m.setStatus(fmt.Sprintf("editor: %v — nothing was saved; your copy is %s", msg.err, msg.s.copy), true)
			cmd := m.reloadAll()
			return m, cmd, true
		}
		return m, readEditedCmd(msg.s), true
	case editorEditedMsg:
		next, cmd, _ := m.handleEdit(editorSave(msg))
		return next, cmd, true
	case editorDeclined:
		// The copy's path first: the status line is cut to the width.
		m.setStatus(fmt.Sprintf("not saved: your version is in %s (%s was not changed)", msg.s.copy, filepath.Base(msg.s.path)), false)
		return m, nil, true
	case editorSavedMsg:
		m.setStatus(msg.status.Text, msg.status.Error)
		cmd := m.reloadAll()
		return m, cmd, true
	}
	return m, nil, false
}

// readEditedCmd reads the copy the editor saved: unchanged, nothing is
// written.
func readEditedCmd(s editSession) tea.Cmd {
	return func() tea.Msg {
		edited, err := os.ReadFile(s.copy)
		if err != nil {
			return editorSavedMsg{status: msgs.Status{Text: fmt.Sprintf("read the edited copy %s: %v — %s was not changed", s.copy, err, s.path), Error: true}}
		}
		if s.existed && bytes.Equal(edited, s.before) {
			os.RemoveAll(filepath.Dir(s.copy))
			return editorSavedMsg{status: msgs.Status{Text: "no changes to " + s.path}}
		}
		return editorEditedMsg{s: s, edited: edited}
	}
}

// saveEditCmd writes an edited copy back as a change like any other:
// checked against what the editor started from, scanned (a high-severity
// finding the save adds stops it until forced), atomic, journaled, and
// undone by u. A file of the open project's memory folder goes through
// its store; any other file (a CLAUDE.md, a rule) through the store of
// its folder, whose journal is in the home (store.OpenDocument).
func (m *Model) saveEditCmd(req tea.Msg, r editorSave, force bool) tea.Cmd {
	if st := m.feeds.project.Cur().Store; st != nil && st.Edits(r.s.path) {
		if m.busy {
			return func() tea.Msg {
				return msgs.Status{Text: "not saved: another change is still being written — your version is in " + r.s.copy, Error: true}
			}
		}
		return m.storeOp(req, "", func(st *store.Store, o store.WriteOptions) (store.Change, error) {
			ch, err := st.Replace(r.s.path, r.s.before, r.s.existed, r.edited, o)
			if err == nil {
				os.RemoveAll(filepath.Dir(r.s.copy))
			}
			return ch, err
		})
	}
	if m.busy {
		return func() tea.Msg {
			return msgs.Status{Text: "not saved: another change is still being written — your version is in " + r.s.copy, Error: true}
		}
	}
	m.busy = true
	w, home, now, slug := m.writes(), m.opts.Home.Dir, m.opts.Now(), m.data.open
	return func() tea.Msg {
		st := store.OpenDocument(r.s.path, home, w)
		ch, err := st.Replace(r.s.path, r.s.before, r.s.existed, r.edited, store.WriteOptions{Now: now, Force: force})
		if err == nil {
			os.RemoveAll(filepath.Dir(r.s.copy))
		}
		return opDoneMsg{slug: slug, change: ch, err: err, retry: req}
	}
}

// editorDone reports a finished save: written (the copy goes), stopped
// by the scan (the user is asked), or refused (the copy stays and the
// status names it).
func (m Model) editorDone(r editorSave, d opDoneMsg) (Model, tea.Cmd, bool) {
	s := r.s
	var blocked *store.ScanBlockedError
	var ce *store.ConflictError
	switch {
	case errors.As(d.err, &blocked):
		m.ask(&confirmState{
			text:  fmt.Sprintf("write anyway? y/n (n keeps your version in %s) — %v", s.copy, d.err),
			onYes: forceRequest{msg: r},
			onNo:  editorDeclined{s: s},
		})
		return m, nil, true
	case errors.As(d.err, &ce):
		// The news first: the status line is cut to the terminal's width.
		m.setStatus(fmt.Sprintf("not saved: %s changed on disk while the editor was open; nothing was overwritten — your version is in %s", filepath.Base(s.path), s.copy), true)
		cmd := m.reloadAll()
		return m, cmd, true
	case d.err != nil:
		m.setStatus(fmt.Sprintf("not saved: %v — your version is in %s", d.err, s.copy), true)
		cmd := m.reloadAll()
		return m, cmd, true
	}
	text := "saved " + s.path
	if d.change.ID != "" {
		text += " — u undoes it"
	}
	if fs := d.change.Findings; len(fs) > 0 {
		f := fs[0]
		text += fmt.Sprintf("; %d security finding(s), first: line %d %s (%s)", len(fs), f.Line, f.Rule, f.Severity)
	}
	m.setStatus(text, false)
	cmd := m.reloadAll()
	return m, cmd, true
}
