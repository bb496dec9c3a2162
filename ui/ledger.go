package ui

import (
	"errors"
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/views/msgs"
)

// handleLedger keeps a rule a compaction lost (the Replay pane's s, or t
// and a place chosen) where the client re-reads it every turn: a feedback
// memory of the open project, through its store like every edit, or a
// line of the project's rules file or CLAUDE.md, through the store of its
// folder (whose journal is in the home). Scanned, journaled, u undoes it;
// ok is false for other messages.
func (m Model) handleLedger(msg tea.Msg) (Model, tea.Cmd, bool) {
	req := msg
	if f, ok := msg.(forceRequest); ok {
		req = f.msg
	}
	r, ok := req.(msgs.KeepLost)
	if !ok {
		return m, nil, false
	}
	to := r.To
	if to.Kind == "" {
		to.Kind = ledger.ToMemory
	}
	if to.Kind == ledger.ToMemory {
		elsewhere := m.keys.KeepLostTo.Help().Key
		return m, m.storeOp(msg, "", func(s *store.Store, o store.WriteOptions) (store.Change, error) {
			o.SessionID = r.Session
			k, err := ledger.Keep(r.Item, to, ledger.KeepInput{Session: r.Session, Memory: s, Options: o})
			return k.Change, keepRefusal(err, elsewhere)
		}), true
	}
	return m, m.keepLineCmd(msg, r, to), true
}

// keepLineCmd keeps the item as a line of the open project's rules file or
// CLAUDE.md (ledger.Keep), as the editor's save writes a file outside the
// memory folder.
func (m *Model) keepLineCmd(msg tea.Msg, r msgs.KeepLost, to ledger.Target) tea.Cmd {
	project := m.projectPath(m.data.open)
	switch {
	case m.readOnly:
		return func() tea.Msg { return errMsg{errors.New("the home is read-only: editing is off")} }
	case m.busy:
		return func() tea.Msg { return msgs.Status{Text: "another change is still being written", Error: true} }
	case project == "":
		return func() tea.Msg {
			return msgs.Status{Text: "not kept: the open project's folder is not known (its transcripts name no cwd)", Error: true}
		}
	}
	_, force := msg.(forceRequest)
	m.busy = true
	in := ledger.KeepInput{Session: r.Session, Project: project, Root: m.root(), HomeDir: m.opts.Home.Dir, Writes: m.writes(),
		Options: store.WriteOptions{Now: m.opts.Now(), Force: force, SessionID: r.Session}}
	slug, elsewhere := m.data.open, m.keys.KeepLostTo.Help().Key
	return func() tea.Msg {
		k, err := ledger.Keep(r.Item, to, in)
		return opDoneMsg{slug: slug, change: k.Change, err: keepRefusal(err, elsewhere), retry: msg}
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
func (m Model) keepFolders() []string {
	p := m.projectPath(m.data.open)
	if p == "" {
		return nil
	}
	return []string{p, filepath.Join(p, ".claude", "rules")}
}
