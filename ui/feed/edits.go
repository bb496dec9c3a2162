package feed

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/leftover"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
)

// Edits runs every change the panes ask for: the store operations on
// the open project's memory (create, retype, rename, trash, the prune
// plan, undo), the $EDITOR save (editor.go), a lost rule kept
// (ledger.go) and the removal of interrupted writes' leftovers. Every
// write goes through the engine's store: atomic, scanned, refused when
// the file changed on disk since memscope read it, journaled for undo.
// The store is opened when a project loads (the Project feed's), so
// "since memscope read it" means since the user last saw the file. One
// change runs at a time; the store is handed to the command running it.
//
// Update takes the requests and the results; what they mean to the
// shell (a status, a y/n question, a reload, a command) comes back as an
// EditOut.
type Edits struct {
	env  EditsEnv
	proj *Project
	// busy is set while a change is written.
	busy bool
	// last is the summary of the newest change in the journal (or this
	// run's, until the journal is read again), which u undoes ("" when
	// none): the footer names it.
	last string
}

// EditsEnv is what the changes write through.
type EditsEnv struct {
	Home *model.Home
	// Machine is the machine's file system from "/" (the project's
	// folder, for a kept line).
	Machine fs.FS
	// Writes is the app's writer (nil: the OS), with its fault seam.
	Writes model.WriteFS
	Now    func() time.Time
	Getenv func(string) string
	// KeepElsewhere is the key that keeps a lost rule in a rules file or
	// CLAUDE.md: a refusal to keep it as a memory names it.
	KeepElsewhere string
}

// NewEdits returns the feed of the changes to the project open in proj.
func NewEdits(env EditsEnv, proj *Project) *Edits {
	if env.Writes == nil {
		env.Writes = model.OSWriteFS{}
	}
	return &Edits{env: env, proj: proj}
}

// EditCtx is what the shell knows when a message comes: whether editing
// is off, the open project, and the Prompt pane's files (u undoes in
// their folders too).
type EditCtx struct {
	ReadOnly    bool
	Open        string
	PromptFiles func() []string
}

// Reload is what an edit's end reads again.
type Reload int

const (
	ReloadNone Reload = iota
	// ReloadProject reads the open project again.
	ReloadProject
	// ReloadAll reads everything again (after the editor).
	ReloadAll
)

// Question is a y/n question over the pane: Yes is handled on y, No (when
// set) on n instead of the plain "cancelled".
type Question struct {
	Text    string
	Yes, No tea.Msg
}

// EditOut is what a message meant: in this order, the status to show,
// the question to ask, what to read again, and the command to run.
type EditOut struct {
	Status *msgs.Status
	Ask    *Question
	Reload Reload
	Cmd    tea.Cmd
}

// Force is a request the user chose to write despite the scan.
type Force struct{ Msg tea.Msg }

// EditDone is the result of one change.
type EditDone struct {
	change memstore.Change
	err    error
	// req is the request (a Force when forced), to send again with
	// Force when the scan blocked it.
	req tea.Msg
	// thenEdit opens the editor on this file afterwards (a new memory's
	// body).
	thenEdit string
}

// leftoversRemoved is the result of removing the leftovers of
// interrupted memscope writes.
type leftoversRemoved struct {
	removed []leftover.Removed
	err     error
}

// undoJournal is the summary of the change u would undo now, read from
// the journals `memscope undo` reads; "" when there is none. slug is the
// project it was read for.
type undoJournal struct{ slug, summary string }

// Last is the summary of the change u undoes now ("" when none).
func (e *Edits) Last() string { return e.last }

// Busy reports whether a change is being written.
func (e *Edits) Busy() bool { return e.busy }

// status is a command saying text.
func status(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return msgs.Status{Text: text, Error: isErr} }
}

// Update takes a request or a result; ok is false for other messages.
func (e *Edits) Update(msg tea.Msg, c EditCtx) (EditOut, bool) {
	req := unwrapForce(msg)
	switch r := req.(type) {
	case msgs.CreateMemory:
		t := model.ParseMemoryType(r.Type)
		var newPath string
		cmd := e.storeOp(msg, c, func(s *memstore.Store, o memstore.WriteOptions) (memstore.Change, error) {
			ch, err := s.Create(memstore.NewMemory{Name: r.Name, Title: r.Name, Type: t, Description: r.Description, Body: r.Body}, o)
			for _, f := range ch.Files {
				if f.Action == memstore.FileCreated && filepath.Base(f.Path) != model.MemoryIndexName {
					newPath = filepath.Join(s.Dir(), filepath.FromSlash(f.Path))
				}
			}
			return ch, err
		})
		return EditOut{Cmd: func() tea.Msg {
			done := cmd()
			if d, ok := done.(EditDone); ok {
				d.thenEdit = newPath
				return d
			}
			return done
		}}, true
	case msgs.RetypeMemory:
		return EditOut{Cmd: e.storeOp(msg, c, func(s *memstore.Store, o memstore.WriteOptions) (memstore.Change, error) {
			return s.Retype(r.Path, model.ParseMemoryType(r.Type), o)
		})}, true
	case msgs.RenameMemory:
		return EditOut{Cmd: e.storeOp(msg, c, func(s *memstore.Store, o memstore.WriteOptions) (memstore.Change, error) {
			return s.Rename(r.Path, r.NewName, o)
		})}, true
	case msgs.DeleteMemory:
		return EditOut{Cmd: e.storeOp(msg, c, func(s *memstore.Store, o memstore.WriteOptions) (memstore.Change, error) {
			return s.Delete(r.Path, o)
		})}, true
	case msgs.ApplyPlan:
		plan := e.proj.Cur().Plan
		if plan == nil {
			return EditOut{}, true
		}
		return EditOut{Cmd: e.storeOp(msg, c, func(s *memstore.Store, o memstore.WriteOptions) (memstore.Change, error) {
			return s.Apply(*plan, r.Actions, o)
		})}, true
	case msgs.Undo:
		// The newest change, in the memory folder or in a CLAUDE.md or
		// rule of this project's prompt saved from the editor, a keep
		// from Replay, a restore from the rescue vault (undoStores).
		open := e.undoStores(c)
		return EditOut{Cmd: e.storeOp(msg, c, func(s *memstore.Store, o memstore.WriteOptions) (memstore.Change, error) {
			return memstore.UndoNewest(open(s))
		})}, true
	case msgs.KeepLost:
		return EditOut{Cmd: e.keep(msg, r, c)}, true
	case msgs.RemoveLeftovers:
		return EditOut{Cmd: e.removeLeftovers(c)}, true
	case leftoversRemoved:
		e.busy = false
		return e.leftoversRemoved(r), true
	case EditDone:
		e.busy = false
		e.noteChange(r)
		return e.done(r), true
	case undoJournal:
		if r.slug == c.Open {
			e.last = r.summary
		}
		return EditOut{}, true
	}
	return e.updateEditor(msg, c)
}

// MemoryDir is the open project's memory folder on disk: the memory
// store the panes show (its auto memory, or an agent's).
func (e *Edits) MemoryDir() string {
	if d := e.proj.Cur().AbsDir; d != "" {
		return filepath.FromSlash(d)
	}
	return filepath.Join(e.env.Home.Dir, filepath.FromSlash(e.proj.Cur().MemDir))
}

// storeOp runs op on the open project's store in a command.
func (e *Edits) storeOp(req tea.Msg, c EditCtx, op func(s *memstore.Store, o memstore.WriteOptions) (memstore.Change, error)) tea.Cmd {
	if c.ReadOnly {
		return status("the home is read-only: editing is off", true)
	}
	if e.busy {
		return status("another change is still being written", true)
	}
	s := e.proj.Cur().Store
	if s == nil {
		return status("editing needs a project with a memory folder on disk", true)
	}
	e.busy = true
	now := e.env.Now()
	_, force := req.(Force)
	return func() tea.Msg {
		ch, err := op(s, memstore.WriteOptions{Now: now, Force: force})
		return EditDone{change: ch, err: err, req: req}
	}
}

// noteChange notes the summary of a change that landed, for the
// footer's "u undo <what>"; an undo leaves the change before it, which
// the journal names once the project reloads (JournalCmd).
func (e *Edits) noteChange(d EditDone) {
	if d.err != nil {
		return
	}
	if _, wasUndo := unwrapForce(d.req).(msgs.Undo); wasUndo || d.change.ID == "" {
		e.last = ""
	} else {
		e.last = d.change.Summary
	}
}

// done reports a finished change and reads the project again.
func (e *Edits) done(d EditDone) EditOut {
	if r, ok := unwrapForce(d.req).(editorSave); ok {
		return e.editorDone(r, d)
	}
	var blocked *memstore.ScanBlockedError
	switch {
	case errors.As(d.err, &blocked):
		return EditOut{Ask: &Question{Text: "write anyway? y/n — " + d.err.Error(), Yes: Force{Msg: unwrapForce(d.req)}}}
	case errors.Is(d.err, memstore.ErrNothingToUndo):
		return EditOut{Status: &msgs.Status{Text: d.err.Error()}}
	case d.err != nil:
		return EditOut{Status: &msgs.Status{Text: d.err.Error(), Error: true}, Reload: ReloadProject}
	}
	text := d.change.Summary
	if n := len(d.change.Findings); n > 0 {
		text += fmt.Sprintf(" (written with %d security finding(s))", n)
	}
	if _, wasUndo := unwrapForce(d.req).(msgs.Undo); wasUndo {
		text += " — u undoes the change before it"
	} else if d.change.ID != "" {
		text += " — u undoes it"
	}
	out := EditOut{Status: &msgs.Status{Text: text}, Reload: ReloadProject}
	if d.thenEdit != "" {
		out.Cmd = e.openEditor(d.thenEdit, false)
	}
	return out
}

func unwrapForce(msg tea.Msg) tea.Msg {
	if f, ok := msg.(Force); ok {
		return f.Msg
	}
	return msg
}

// removeLeftovers removes the leftovers the open project's load found
// (in every memory folder of the home and beside restored files), each
// checked again first (leftover.Remove).
func (e *Edits) removeLeftovers(c EditCtx) tea.Cmd {
	items := e.proj.Cur().Leftovers.Items
	switch {
	case c.ReadOnly:
		return status("the home is read-only: nothing can be removed", true)
	case e.busy:
		return status("another change is still being written", true)
	case len(items) == 0:
		return status("no leftovers of interrupted memscope writes here", false)
	}
	e.busy = true
	w := e.env.Writes
	return func() tea.Msg {
		removed, err := leftover.Remove(w, items, nil, nil)
		return leftoversRemoved{removed: removed, err: err}
	}
}

// leftoversRemoved says what was removed and reads the project again.
func (e *Edits) leftoversRemoved(r leftoversRemoved) EditOut {
	n, kept := 0, 0
	for _, x := range r.removed {
		if x.Skipped == "" {
			n++
		} else {
			kept++
		}
	}
	text := fmt.Sprintf("removed %d leftover(s) of interrupted memscope writes", n)
	if kept > 0 {
		text += fmt.Sprintf("; %d left (in use or changed since)", kept)
	}
	st := &msgs.Status{Text: text}
	if r.err != nil {
		st = &msgs.Status{Text: fmt.Sprintf("%v (%s)", r.err, text), Error: true}
	}
	// The walk's listing had what was just removed, some of it where no
	// file event reaches (a project tree a restore named): walk again.
	e.proj.Walk().Invalidate()
	return EditOut{Status: st, Reload: ReloadProject}
}

// undoStores returns, for a command, the stores u undoes in (newest
// change first, store.UndoNewest): the project's memory store s, and the
// folder of each CLAUDE.md or rule of its prompt saved from the editor
// (their journals are in the home). Opening the documents reads the
// home, so it runs in the command.
func (e *Edits) undoStores(c EditCtx) func(s *memstore.Store) []*memstore.Store {
	home, w := e.env.Home.Dir, e.env.Writes
	// The home's own journal holds restores from the rescue vault; the
	// prompt's folders, CLAUDE.md and rules saved from the editor; the
	// keep folders, lines Replay kept in a rules file or CLAUDE.md.
	folders := map[string]bool{home: true}
	for _, p := range c.PromptFiles() {
		folders[filepath.Dir(p)] = true
	}
	for _, f := range e.keepFolders(c.Open) {
		folders[f] = true
	}
	keep := func(f string) bool { return folders[f] }
	return func(s *memstore.Store) []*memstore.Store {
		return append([]*memstore.Store{s}, memstore.OpenDocuments(home, w, keep)...)
	}
}

// JournalCmd reads what u would undo in the open project, so the footer
// names it even when an earlier run made the change (this run knows only
// its own); nil when the project has no store on disk.
func (e *Edits) JournalCmd(c EditCtx) tea.Cmd {
	s := e.proj.Cur().Store
	if s == nil {
		return nil
	}
	slug, open := c.Open, e.undoStores(c)
	return func() tea.Msg {
		_, en, err := memstore.Newest(open(s))
		if err != nil {
			return undoJournal{slug: slug}
		}
		return undoJournal{slug: slug, summary: en.Summary}
	}
}
