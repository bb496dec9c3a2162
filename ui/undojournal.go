package ui

import (
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/store"
)

// undoJournalMsg is the summary of the change u would undo now, read
// from the journals `memscope undo` reads (store.Newest over undoStores);
// "" when there is none. slug is the project it was read for.
type undoJournalMsg struct {
	slug, summary string
}

// undoStores returns, for a command, the stores u undoes in (newest
// change first, store.UndoNewest): the project's memory store s, and the
// folder of each CLAUDE.md or rule of its prompt saved from the editor
// (their journals are in the home). Opening the documents reads the
// home, so it runs in the command; the model is read here, not there.
func (m Model) undoStores() func(s *store.Store) []*store.Store {
	home, w := m.opts.Home.Dir, m.writes()
	// The home's own journal holds restores from the rescue vault; the
	// prompt's folders, CLAUDE.md and rules saved from the editor; the
	// keep folders, lines Replay kept in a rules file or CLAUDE.md.
	folders := map[string]bool{home: true}
	for _, p := range m.p.prompt.Paths() {
		folders[filepath.Dir(p)] = true
	}
	for _, f := range m.keepFolders() {
		folders[f] = true
	}
	keep := func(f string) bool { return folders[f] }
	return func(s *store.Store) []*store.Store {
		return append([]*store.Store{s}, store.OpenDocuments(home, w, keep)...)
	}
}

// undoJournalCmd reads what u would undo in the open project, so the
// footer names it even when an earlier run made the change (this run
// knows only its own); nil when the project has no store on disk.
func (m Model) undoJournalCmd() tea.Cmd {
	s := m.feeds.project.Cur().Store
	if s == nil {
		return nil
	}
	slug, open := m.data.open, m.undoStores()
	return func() tea.Msg {
		_, e, err := store.Newest(open(s))
		if err != nil {
			return undoJournalMsg{slug: slug}
		}
		return undoJournalMsg{slug: slug, summary: e.Summary}
	}
}

// handleUndoJournal takes what the journal says u would undo.
func (m Model) handleUndoJournal(msg tea.Msg) (Model, tea.Cmd, bool) {
	u, ok := msg.(undoJournalMsg)
	if !ok {
		return m, nil, false
	}
	if u.slug == m.data.open && m.lastChange != nil {
		*m.lastChange = u.summary
	}
	return m, nil, true
}
