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

	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
)

// The editor works on a private copy, not on the file: Claude Code may
// rewrite a memory file while the editor is open, and most editors save
// their buffer over whatever is on disk. When the editor exits, the copy
// is written back only if the file still holds what was copied (checked
// at the rename, store.ReplaceIfUnchanged); otherwise nothing is
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
	data, err := os.ReadFile(path)
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

// handleEditor runs the editor on a prepared copy, writes it back when
// the editor exits, and reports the outcome; ok is false for other
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
			return m, m.reloadAll(), true
		}
		s, w := msg.s, m.writes()
		return m, func() tea.Msg { return editorSavedMsg{status: saveEdit(w, s)} }, true
	case editorSavedMsg:
		m.setStatus(msg.status.Text, msg.status.Error)
		return m, m.reloadAll(), true
	}
	return m, nil, false
}

// saveEdit writes the edited copy back over the file through w if nobody
// changed the file meanwhile, scans what was saved, and says what
// happened.
func saveEdit(w model.WriteFS, s editSession) msgs.Status {
	edited, err := os.ReadFile(s.copy)
	if err != nil {
		return msgs.Status{Text: fmt.Sprintf("read the edited copy %s: %v — %s was not changed", s.copy, err, s.path), Error: true}
	}
	if s.existed && bytes.Equal(edited, s.before) {
		os.RemoveAll(filepath.Dir(s.copy))
		return msgs.Status{Text: "no changes to " + s.path}
	}
	if err := store.ReplaceIfUnchangedWith(w, s.path, s.before, s.existed, edited); err != nil {
		var ce *store.ConflictError
		if errors.As(err, &ce) {
			// The news first: the status line is cut to the terminal's width.
			return msgs.Status{Text: fmt.Sprintf("not saved: %s changed on disk while the editor was open; nothing was overwritten — your version is in %s", filepath.Base(s.path), s.copy), Error: true}
		}
		return msgs.Status{Text: fmt.Sprintf("not saved: %v — your version is in %s", err, s.copy), Error: true}
	}
	os.RemoveAll(filepath.Dir(s.copy))
	return scanSaved(s.path, edited)
}

// scanSaved scans a file the user just saved from the editor: memscope
// wrote what the user typed, nothing was blocked, but the user should
// know.
func scanSaved(path string, data []byte) msgs.Status {
	fs := scan.Scan(path, string(data))
	if len(fs) == 0 {
		return msgs.Status{Text: "saved " + path}
	}
	f := fs[0]
	return msgs.Status{Text: fmt.Sprintf("saved %s — %d security finding(s), first: line %d %s (%s)", path, len(fs), f.Line, f.Rule, f.Severity), Error: scan.Blocking(fs)}
}
