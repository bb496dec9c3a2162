package feed

import (
	"errors"
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/ledger"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/views/msgs"
)

// keep keeps a rule a compaction lost (the Replay pane's s, or t and a
// place chosen) where the client re-reads it every turn: a feedback
// memory of the open project, through its store like every edit, or a
// line of the project's rules file or CLAUDE.md, through the store of its
// folder (whose journal is in the home). Scanned, journaled, u undoes it.
func (e *Edits) keep(msg tea.Msg, r msgs.KeepLost, c EditCtx) tea.Cmd {
	to := r.To
	if to.Kind == "" {
		to.Kind = ledger.ToMemory
	}
	elsewhere := e.env.KeepElsewhere
	if to.Kind == ledger.ToMemory {
		return e.storeOp(msg, c, func(s *memstore.Store, o memstore.WriteOptions) (memstore.Change, error) {
			o.SessionID = r.Session
			k, err := ledger.Keep(r.Item, to, ledger.KeepInput{Session: r.Session, Memory: s, Options: o})
			return k.Change, keepRefusal(err, elsewhere)
		})
	}
	return e.keepLine(msg, r, to, c)
}

// keepLine keeps the item as a line of the open project's rules file or
// CLAUDE.md (ledger.Keep), as the editor's save writes a file outside the
// memory folder.
func (e *Edits) keepLine(msg tea.Msg, r msgs.KeepLost, to ledger.Target, c EditCtx) tea.Cmd {
	project := e.proj.home.Path(c.Open)
	switch {
	case c.ReadOnly:
		return status("the home is read-only: editing is off", true)
	case e.busy:
		return status("another change is still being written", true)
	case project == "":
		return status("not kept: the open project's folder is not known (its transcripts name no cwd)", true)
	}
	_, force := msg.(Force)
	e.busy = true
	in := ledger.KeepInput{Session: r.Session, Project: project, Root: Mount(e.env.Machine, e.env.Home), HomeDir: e.env.Home.Dir, Writes: e.env.Writes,
		Options: memstore.WriteOptions{Now: e.env.Now(), Force: force, SessionID: r.Session}}
	elsewhere := e.env.KeepElsewhere
	return func() tea.Msg {
		k, err := ledger.Keep(r.Item, to, in)
		return EditDone{change: k.Change, err: keepRefusal(err, elsewhere), req: msg}
	}
}

// keptRefusal is a keep ledger.Keep refused, said for the pane: what to
// press instead.
type keptRefusal struct {
	err  error
	text string
}

func (e *keptRefusal) Error() string { return e.text }
func (e *keptRefusal) Unwrap() error { return e.err }

// keepRefusal words Keep's refusals for the status line: MEMORY.md at its
// cap names the key that keeps the rule elsewhere (elsewhere, the CLI's
// wording names --to), a near duplicate says where the rule already is.
func keepRefusal(err error, elsewhere string) error {
	var full *ledger.IndexFullError
	var dup *ledger.DuplicateError
	switch {
	case errors.As(err, &full):
		return &keptRefusal{err: err, text: fmt.Sprintf("not kept: MEMORY.md is full (%d lines, %d characters), so a new memory's line would not load — %s keeps it in a rules file or CLAUDE.md",
			full.Cap.Lines, full.Cap.Chars, elsewhere)}
	case errors.As(err, &dup):
		return &keptRefusal{err: err, text: "not kept: " + dup.Error()}
	}
	return err
}

// keepFolders are the folders a kept line can land in (the open project's
// folder for CLAUDE.md, its .claude/rules): u looks at their journals too,
// even before the Prompt pane lists the file.
func (e *Edits) keepFolders(open string) []string {
	p := e.proj.home.Path(open)
	if p == "" {
		return nil
	}
	return []string{p, filepath.Join(p, ".claude", "rules")}
}
