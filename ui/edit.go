package ui

import (
	"errors"
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
)

// Editing goes through the engine's MemoryStore: every write is atomic,
// scanned, refused when the file changed on disk since memscope read it,
// and journaled for undo. The store is opened when a project loads, so
// "since memscope read it" means since the user last saw the file. One
// operation runs at a time; the store is handed to the command running it
// and not touched by Update meanwhile.

// opDoneMsg is the result of one store operation.
type opDoneMsg struct {
	slug   string
	change store.Change
	err    error
	// retry is the request to send again with Force when the scan blocked it.
	retry tea.Msg
	// thenEdit opens the editor on this file afterwards (a new memory's body).
	thenEdit string
}

// confirmState is a yes/no question the root asks over the focused pane.
type confirmState struct {
	text  string
	onYes tea.Msg
	// onNo, when set, is handled on no instead of the plain "cancelled".
	onNo tea.Msg
}

// memoryDirAbs is the open project's memory folder on disk: the memory
// store the panes show (its auto memory, or an agent's).
func (m Model) memoryDirAbs() string {
	if d := m.feeds.project.Cur().AbsDir; d != "" {
		return filepath.FromSlash(d)
	}
	return filepath.Join(m.opts.Home.Dir, filepath.FromSlash(m.feeds.project.Cur().MemDir))
}

// storeOp runs op on the open project's store in a command.
func (m *Model) storeOp(retry tea.Msg, thenEdit string, op func(s *store.Store, o store.WriteOptions) (store.Change, error)) tea.Cmd {
	if m.readOnly {
		return func() tea.Msg { return errMsg{errors.New("the home is read-only: editing is off")} }
	}
	if m.busy {
		return func() tea.Msg { return msgs.Status{Text: "another change is still being written", Error: true} }
	}
	s := m.feeds.project.Cur().Store
	if s == nil {
		return func() tea.Msg { return errMsg{errors.New("editing needs a project with a memory folder on disk")} }
	}
	m.busy = true
	slug, now := m.data.open, m.opts.Now()
	force := false
	if f, ok := retry.(forced); ok {
		force = f.force()
	}
	return func() tea.Msg {
		ch, err := op(s, store.WriteOptions{Now: now, Force: force})
		return opDoneMsg{slug: slug, change: ch, err: err, retry: retry, thenEdit: thenEdit}
	}
}

// forced is a request that can carry Force.
type forced interface{ force() bool }

// forceRequest wraps a request the user chose to write despite the scan.
type forceRequest struct{ msg tea.Msg }

func (f forceRequest) force() bool { return true }

// handleEdit handles the panes' edit requests; ok is false for other messages.
func (m Model) handleEdit(msg tea.Msg) (Model, tea.Cmd, bool) {
	req := msg
	if f, ok := msg.(forceRequest); ok {
		req = f.msg
	}
	switch r := req.(type) {
	case msgs.CreateMemory:
		t := model.ParseMemoryType(r.Type)
		var newPath string
		cmd := m.storeOp(msg, "", func(s *store.Store, o store.WriteOptions) (store.Change, error) {
			ch, err := s.Create(store.NewMemory{Name: r.Name, Title: r.Name, Type: t, Description: r.Description, Body: r.Body}, o)
			for _, f := range ch.Files {
				if f.Action == store.FileCreated && filepath.Base(f.Path) != model.MemoryIndexName {
					newPath = filepath.Join(s.Dir(), filepath.FromSlash(f.Path))
				}
			}
			return ch, err
		})
		if cmd == nil {
			return m, nil, true
		}
		return m, func() tea.Msg {
			done := cmd()
			if d, ok := done.(opDoneMsg); ok {
				d.thenEdit = newPath
				return d
			}
			return done
		}, true
	case msgs.RetypeMemory:
		return m, m.storeOp(msg, "", func(s *store.Store, o store.WriteOptions) (store.Change, error) {
			return s.Retype(r.Path, model.ParseMemoryType(r.Type), o)
		}), true
	case msgs.RenameMemory:
		return m, m.storeOp(msg, "", func(s *store.Store, o store.WriteOptions) (store.Change, error) {
			return s.Rename(r.Path, r.NewName, o)
		}), true
	case msgs.DeleteMemory:
		return m, m.storeOp(msg, "", func(s *store.Store, o store.WriteOptions) (store.Change, error) {
			return s.Delete(r.Path, o)
		}), true
	case msgs.ApplyPlan:
		plan := m.feeds.project.Cur().Plan
		if plan == nil {
			return m, nil, true
		}
		return m, m.storeOp(msg, "", func(s *store.Store, o store.WriteOptions) (store.Change, error) {
			return s.Apply(*plan, r.Actions, o)
		}), true
	case editorSave:
		_, force := msg.(forceRequest)
		return m, m.saveEditCmd(msg, r, force), true
	case msgs.Undo:
		// The newest change, in the memory folder or in a CLAUDE.md or
		// rule of this project's prompt saved from the editor, a keep
		// from Replay, a restore from the rescue vault (undoStores).
		open := m.undoStores()
		return m, m.storeOp(msg, "", func(s *store.Store, o store.WriteOptions) (store.Change, error) {
			return store.UndoNewest(open(s))
		}), true
	case msgs.RemoveLeftovers:
		return m, m.removeLeftoversCmd(), true
	case leftoversRemovedMsg:
		m.busy = false
		return m, m.leftoversRemoved(r), true
	case opDoneMsg:
		m.busy = false
		return m.opDone(r)
	}
	return m, nil, false
}

// opDone reports a finished operation and reloads the project.
func (m Model) opDone(d opDoneMsg) (Model, tea.Cmd, bool) {
	if r, ok := unwrapForce(d.retry).(editorSave); ok {
		return m.editorDone(r, d)
	}
	var blocked *store.ScanBlockedError
	switch {
	case errors.As(d.err, &blocked):
		m.ask(&confirmState{
			text:  "write anyway? y/n — " + d.err.Error(),
			onYes: forceRequest{msg: unwrapForce(d.retry)},
		})
		return m, nil, true
	case errors.Is(d.err, store.ErrNothingToUndo):
		m.setStatus(d.err.Error(), false)
		return m, nil, true
	case d.err != nil:
		m.setStatus(d.err.Error(), true)
		cmd := m.requestProject(m.data.open)
		return m, cmd, true
	}
	text := d.change.Summary
	if n := len(d.change.Findings); n > 0 {
		text += fmt.Sprintf(" (written with %d security finding(s))", n)
	}
	if _, wasUndo := unwrapForce(d.retry).(msgs.Undo); wasUndo {
		text += " — u undoes the change before it"
	} else if d.change.ID != "" {
		text += " — u undoes it"
	}
	m.setStatus(text, false)
	cmds := []tea.Cmd{m.requestProject(m.data.open)}
	if d.thenEdit != "" {
		cmds = append(cmds, m.openEditorCmd(d.thenEdit))
	}
	return m, tea.Batch(cmds...), true
}

func unwrapForce(msg tea.Msg) tea.Msg {
	if f, ok := msg.(forceRequest); ok {
		return f.msg
	}
	return msg
}
