package feed

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

	memstore "github.com/memscope/memscope/engine/store"
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

// EditSession is one editor run.
type EditSession struct {
	// Path is the file being edited; Copy the copy the editor gets.
	Path, Copy string
	// before is what Path held when the copy was made; existed is false
	// when it did not exist.
	before  []byte
	existed bool
}

// EditorPrepared says the copy is ready (or why not).
type EditorPrepared struct {
	S   EditSession
	Err error
}

// EditorFinished says the editor exited.
type EditorFinished struct {
	S   EditSession
	Err error
}

// editorSaved is the outcome of writing the copy back, when no change
// was written (nothing to write, or the copy could not be read).
type editorSaved struct{ status msgs.Status }

// editorSave is the request to write an edited copy back: a change like
// any other, so it can be retried with Force.
type editorSave struct {
	s      EditSession
	edited []byte
}

// editorDeclined says the user answered no to writing a save the scan
// blocked.
type editorDeclined struct{ s EditSession }

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

// openEditor copies path for the editor; the terminal is handed over
// (tea.ExecProcess) on EditorPrepared.
func (e *Edits) openEditor(path string, readOnly bool) tea.Cmd {
	if readOnly {
		return status("the home is read-only: editing is off", true)
	}
	return func() tea.Msg {
		s, err := prepareEdit(path)
		return EditorPrepared{S: s, Err: err}
	}
}

// prepareEdit copies path (its name kept, so the editor picks the right
// syntax) into a new private temporary folder.
func prepareEdit(path string) (EditSession, error) {
	s := EditSession{Path: path}
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
	s.Copy = filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(s.Copy, data, 0o600); err != nil {
		os.RemoveAll(dir)
		return s, fmt.Errorf("copy %s for editing: %w", path, err)
	}
	return s, nil
}

// updateEditor runs the editor on a prepared copy, reads the copy back
// when the editor exits, and reports the outcome; ok is false for other
// messages.
func (e *Edits) updateEditor(msg tea.Msg, c EditCtx) (EditOut, bool) {
	switch r := unwrapForce(msg).(type) {
	case msgs.OpenEditor:
		p := r.Path
		if !filepath.IsAbs(p) {
			// Lint findings name files relative to the memory folder.
			p = filepath.Join(e.MemoryDir(), filepath.FromSlash(p))
		}
		return EditOut{Cmd: e.openEditor(p, c.ReadOnly)}, true
	case EditorPrepared:
		if r.Err != nil {
			return EditOut{Status: &msgs.Status{Text: r.Err.Error(), Error: true}}, true
		}
		s := r.S
		argv := append(editorCommand(e.env.Getenv), s.Copy)
		cmd := exec.Command(argv[0], argv[1:]...)
		return EditOut{Cmd: tea.ExecProcess(cmd, func(err error) tea.Msg { return EditorFinished{S: s, Err: err} })}, true
	case EditorFinished:
		if r.Err != nil {
			return EditOut{Status: &msgs.Status{Text: fmt.Sprintf("editor: %v — nothing was saved; your copy is %s", r.Err, r.S.Copy), Error: true}, Reload: ReloadAll}, true
		}
		return EditOut{Cmd: readEdited(r.S)}, true
	case editorSave:
		_, force := msg.(Force)
		return EditOut{Cmd: e.saveEdit(msg, r, force, c)}, true
	case editorDeclined:
		// The copy's path first: the status line is cut to the width.
		return EditOut{Status: &msgs.Status{Text: fmt.Sprintf("not saved: your version is in %s (%s was not changed)", r.s.Copy, filepath.Base(r.s.Path))}}, true
	case editorSaved:
		return EditOut{Status: &r.status, Reload: ReloadAll}, true
	}
	return EditOut{}, false
}

// readEdited reads the copy the editor saved: unchanged, nothing is
// written; changed, it is the request to write it back.
func readEdited(s EditSession) tea.Cmd {
	return func() tea.Msg {
		edited, err := os.ReadFile(s.Copy)
		if err != nil {
			return editorSaved{status: msgs.Status{Text: fmt.Sprintf("read the edited copy %s: %v — %s was not changed", s.Copy, err, s.Path), Error: true}}
		}
		if s.existed && bytes.Equal(edited, s.before) {
			os.RemoveAll(filepath.Dir(s.Copy))
			return editorSaved{status: msgs.Status{Text: "no changes to " + s.Path}}
		}
		return editorSave{s: s, edited: edited}
	}
}

// saveEdit writes an edited copy back as a change like any other:
// checked against what the editor started from, scanned (a high-severity
// finding the save adds stops it until forced), atomic, journaled, and
// undone by u. A file of the open project's memory folder goes through
// its store; any other file (a CLAUDE.md, a rule) through the store of
// its folder, whose journal is in the home (store.OpenDocument).
func (e *Edits) saveEdit(req tea.Msg, r editorSave, force bool, c EditCtx) tea.Cmd {
	if e.busy {
		return status("not saved: another change is still being written — your version is in "+r.s.Copy, true)
	}
	if st := e.proj.Cur().Store; st != nil && st.Edits(r.s.Path) {
		return e.storeOp(req, c, func(st *memstore.Store, o memstore.WriteOptions) (memstore.Change, error) {
			ch, err := st.Replace(r.s.Path, r.s.before, r.s.existed, r.edited, o)
			if err == nil {
				os.RemoveAll(filepath.Dir(r.s.Copy))
			}
			return ch, err
		})
	}
	e.busy = true
	w, home, now := e.env.Writes, e.env.Home.Dir, e.env.Now()
	return func() tea.Msg {
		st := memstore.OpenDocument(r.s.Path, home, w)
		ch, err := st.Replace(r.s.Path, r.s.before, r.s.existed, r.edited, memstore.WriteOptions{Now: now, Force: force})
		if err == nil {
			os.RemoveAll(filepath.Dir(r.s.Copy))
		}
		return EditDone{change: ch, err: err, req: req}
	}
}

// editorDone reports a finished save: written (the copy goes), stopped
// by the scan (the user is asked), or refused (the copy stays and the
// status names it).
func (e *Edits) editorDone(r editorSave, d EditDone) EditOut {
	s := r.s
	var blocked *memstore.ScanBlockedError
	var ce *memstore.ConflictError
	switch {
	case errors.As(d.err, &blocked):
		return EditOut{Ask: &Question{
			Text: fmt.Sprintf("write anyway? y/n (n keeps your version in %s) — %v", s.Copy, d.err),
			Yes:  Force{Msg: r},
			No:   editorDeclined{s: s},
		}}
	case errors.As(d.err, &ce):
		// The news first: the status line is cut to the terminal's width.
		return EditOut{Status: &msgs.Status{Text: fmt.Sprintf("not saved: %s changed on disk while the editor was open; nothing was overwritten — your version is in %s", filepath.Base(s.Path), s.Copy), Error: true}, Reload: ReloadAll}
	case d.err != nil:
		return EditOut{Status: &msgs.Status{Text: fmt.Sprintf("not saved: %v — your version is in %s", d.err, s.Copy), Error: true}, Reload: ReloadAll}
	}
	text := "saved " + s.Path
	if d.change.ID != "" {
		text += " — u undoes it"
	}
	if fs := d.change.Findings; len(fs) > 0 {
		f := fs[0]
		text += fmt.Sprintf("; %d security finding(s), first: line %d %s (%s)", len(fs), f.Line, f.Rule, f.Severity)
	}
	return EditOut{Status: &msgs.Status{Text: text}, Reload: ReloadAll}
}
