package ui

import (
	"fmt"
	"github.com/memscope/memscope/ui/feed"
	"path"
	"strings"

	tea "charm.land/bubbletea/v2"

	engsearch "github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
	searchview "github.com/memscope/memscope/views/search"
)

// The Search overlay (ctrl+f) searches every store through the Search
// feed (feed.Search), which streams the hits in as it finds them.

// handleSearch handles the overlay's requests and the search's results.
func (m Model) handleSearch(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case searchview.Start:
		return m, m.startSearch(msg), true
	case searchview.Cancel:
		m.stopSearch()
		return m, nil, true
	case searchview.Jump:
		return m, m.openHit(msg), true
	case promptHitReadMsg:
		m.promptHitRead(msg)
		return m, nil, true
	case feed.SearchBatch:
		if !m.feeds.search.Current(msg) {
			return m, nil, true // a search the user replaced
		}
		if len(msg.Hits) > 0 && !m.p.search.Add(msg.Hits) {
			m.stopSearch() // enough hits to read: the query is too wide
		}
		if msg.Fin != nil {
			m.p.search.Finish(msg.Fin.Summary, msg.Fin.Err)
			return m, nil, true
		}
		return m, m.feeds.search.Next(msg), true
	}
	return m, nil, false
}

// stopSearch cancels the running search; its last message still comes,
// with what was found.
func (m *Model) stopSearch() { m.feeds.search.Stop() }

// startSearch compiles the query and starts the search in the
// background (in the open project when asked).
func (m *Model) startSearch(s searchview.Start) tea.Cmd {
	m.stopSearch()
	q, err := engsearch.Compile(s.Query, engsearch.QueryOptions{Regex: s.Regex, Case: s.Case})
	if err != nil {
		m.p.search.Failed(err)
		return nil
	}
	var project *engsearch.Project
	if s.Project && m.data.open != "" {
		project = &engsearch.Project{Slug: m.data.open}
		if p := m.openPath(); strings.HasPrefix(p, "/") {
			project.Dir = p
		}
	}
	return m.feeds.search.Start(q, project, m.places().VaultDir)
}

// openSearch opens the Search overlay (ctrl+f).
func (m *Model) openSearch() tea.Cmd {
	return m.p.search.Open(m.openPath())
}

// openHit shows a hit in the pane that holds it: Replay at the turn (the
// hit marked), History at the prompt, Pastes at the paste, Memories at
// the file, Prompt at the CLAUDE.md file and Files at the backup's
// version (both with the file's text at the hit's line, marked; see
// searchjump.go).
func (m *Model) openHit(j searchview.Jump) tea.Cmd {
	h := j.Hit
	file := h.File
	if h.Store == engsearch.StoreFileHistory && h.Label != "" {
		file = h.Label // "backup v1 of <the file's path>": the backup's own name is a hash
	}
	where := fmt.Sprintf("hit %d/%d: %s line %d", j.Index+1, j.Of, model.SanitizeLine(file), h.Line)
	step := " · " + m.keys.NextHit.Help().Key + "/" + m.keys.PrevHit.Help().Key + " next/previous hit, " + m.keys.Search.Help().Key + " the list"
	m.setStatus(where+step, false)
	switch h.Store {
	case engsearch.StoreTranscripts:
		return m.openTranscriptHit(h)
	case engsearch.StoreHistory:
		cmd := m.openProjectOf(h)
		focus := m.setFocus(paneHistory)
		if !m.p.history.SelectLine(h.Line) {
			m.setStatus(where+": the History pane lists the open project's prompts, and this one is not among them"+step, false)
		}
		return tea.Batch(cmd, focus)
	case engsearch.StorePastes:
		focus := m.setFocus(panePastes)
		if !m.p.pastes.SelectHash(model.PasteHash(h.Label)) {
			m.setStatus(where+": the Pastes pane does not list this paste yet"+step, false)
		}
		return focus
	case engsearch.StoreMemory:
		cmd := m.openProjectOf(h)
		m.pendingHit, m.pendingStore = &h, false
		focus := m.setFocus(paneMemories)
		if m.feeds.project.Cur().Slug == m.data.open {
			cmd = tea.Batch(cmd, m.selectPendingHit())
		}
		return tea.Batch(cmd, focus)
	case engsearch.StoreClaudeMd:
		return m.openClaudeMdHit(h, where)
	case engsearch.StoreFileHistory:
		return m.openFileHistoryHit(h, where)
	}
	return nil
}

// openTranscriptHit opens the session in the Replay pane at the turn
// holding the hit.
func (m *Model) openTranscriptHit(h engsearch.Hit) tea.Cmd {
	file := h.File
	hl := &msgs.Highlight{UUID: h.UUID, Line: h.Line, Where: h.Where, Seeing: h.Seeing(), Snippet: h.Snippet, Match: h.Match}
	if !strings.HasSuffix(file, ".jsonl") {
		// A tool result the client saved to a file beside its session
		// (projects/<slug>/<session>/tool-results/…): open the session.
		dir := path.Dir(path.Dir(file))
		file = dir + ".jsonl"
		hl.UUID, hl.Line, hl.Where = "", 1<<30, "tool result saved to "+path.Base(h.File)
	}
	var cmds []tea.Cmd
	if parts := strings.Split(file, "/"); len(parts) > 3 && parts[0] == "projects" && parts[1] != m.data.open {
		// A subagent's transcript: its project first (replayAt opens the
		// project of a main transcript itself).
		m.openProject(parts[1])
		cmds = append(cmds, m.loadOpenProject())
	}
	replay := m.replayAt
	if h.Vault {
		replay = m.replayVaultAt // a session only the rescue vault holds
	}
	cmds = append(cmds, replay(msgs.ReplayAt{Path: file, Hit: hl}))
	return tea.Batch(cmds...)
}

// openProjectOf opens the project a history or memory hit belongs to,
// when it is known and not open, and returns its load.
func (m *Model) openProjectOf(h engsearch.Hit) tea.Cmd {
	slug := ""
	if parts := strings.Split(h.File, "/"); len(parts) > 2 && parts[0] == "projects" {
		slug = parts[1]
	}
	for _, r := range m.feeds.home.Rows() {
		if slug == "" && h.Project != "" && (r.Project.Path == h.Project || r.Project.Slug == h.Project) {
			slug = r.Project.Slug
		}
	}
	if slug == "" || slug == m.data.open {
		return nil
	}
	m.openProject(slug)
	return m.loadOpenProject()
}

// selectPendingHit selects the memory hit waiting for its project's
// memory to load. A hit in another of the project's stores (an agent's
// memory) switches the Memories pane to that store, once, and waits for
// it to load.
func (m *Model) selectPendingHit() tea.Cmd {
	h := m.pendingHit
	if h == nil {
		return nil
	}
	abs := h.File
	if !strings.HasPrefix(abs, "/") {
		abs = feed.JoinAbs(m.opts.Home.Dir, h.File)
	}
	if m.p.memories.SelectPath(abs) {
		m.pendingHit = nil
		return nil
	}
	p := m.feeds.project.Cur()
	// The store holding the hit: the deepest folder that holds it (team
	// memory is inside the auto memory folder).
	in := -1
	for i, st := range p.Stores {
		if strings.HasPrefix(abs, strings.TrimSuffix(st.Dir, "/")+"/") && (in < 0 || len(st.Dir) > len(p.Stores[in].Dir)) {
			in = i
		}
	}
	if !m.pendingStore && in >= 0 && in != p.StoreIdx {
		m.pendingStore = true
		m.feeds.project.SetStore(p.Stores[in].Dir)
		if in == 0 {
			m.feeds.project.SetStore("") // the home's auto memory folder
		}
		return m.requestProject(m.data.open)
	}
	m.pendingHit = nil
	m.setStatus(model.SanitizeLine(h.File)+" line "+fmt.Sprint(h.Line)+": "+h.Label+", which the Memories pane does not list (it lists the project's memory stores)", false)
	return nil
}
