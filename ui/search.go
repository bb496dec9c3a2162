package ui

import (
	"context"
	"fmt"
	"path"
	"strings"

	tea "charm.land/bubbletea/v2"

	engsearch "github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
	searchview "github.com/memscope/memscope/views/search"
)

// The Search overlay (ctrl+f) searches every store with engine/search.
// The search runs in a goroutine that hands each file's hits, in the
// engine's order (transcripts newest first, then history, pastes, memory,
// CLAUDE.md, file history), to a channel; a command pumps the channel
// and returns what is ready as one message, and Update re-issues it until
// the channel closes (the streaming pattern of STYLE.md). esc cancels the
// search's context. A newer search supersedes an older one: messages
// carry the search's number, and the older context is cancelled.

// maxSearchBatch bounds the hits one message carries, so a query that
// matches everywhere still draws as it goes.
const maxSearchBatch = 2000

// searchRun is the search under way (or the last one): its number and
// how to stop it.
type searchRun struct {
	gen    int
	cancel context.CancelFunc
}

// searchFinish is how a search ended.
type searchFinish struct {
	sum engsearch.Summary
	err error
}

// searchBatchMsg is what a search found since the last message; fin is
// set when it ended.
type searchBatchMsg struct {
	gen  int
	hits []engsearch.Hit
	fin  *searchFinish
	ch   <-chan []engsearch.Hit
	done <-chan searchFinish
}

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
	case searchBatchMsg:
		if m.srch == nil || msg.gen != m.srch.gen {
			return m, nil, true // a search the user replaced
		}
		if len(msg.hits) > 0 && !m.p.search.Add(msg.hits) {
			m.stopSearch() // enough hits to read: the query is too wide
		}
		if msg.fin != nil {
			m.p.search.Finish(msg.fin.sum, msg.fin.err)
			return m, nil, true
		}
		return m, pumpSearch(msg.gen, msg.ch, msg.done), true
	}
	return m, nil, false
}

// stopSearch cancels the running search; its last message still comes,
// with what was found.
func (m *Model) stopSearch() {
	if m.srch != nil && m.srch.cancel != nil {
		m.srch.cancel()
	}
}

// startSearch compiles the query and starts the search in the
// background.
func (m *Model) startSearch(s searchview.Start) tea.Cmd {
	m.stopSearch()
	q, err := engsearch.Compile(s.Query, engsearch.QueryOptions{Regex: s.Regex, Case: s.Case})
	if err != nil {
		m.p.search.Failed(err)
		return nil
	}
	o := engsearch.Options{Home: m.opts.Home.FS, HomeDir: m.opts.Home.Dir, Root: m.root(), UserHome: m.opts.Getenv("HOME"), Getenv: m.opts.Getenv, Query: q}
	if s.Project && m.data.open != "" {
		o.Project = &engsearch.Project{Slug: m.data.open}
		if p := m.data.openPath(); strings.HasPrefix(p, "/") {
			o.Project.Dir = p
		}
	}
	gen := 1
	if m.srch != nil {
		gen = m.srch.gen + 1
	}
	vaultDir, root, home := m.places().VaultDir, m.root(), m.opts.Home
	ctx, cancel := context.WithCancel(context.Background())
	m.srch = &searchRun{gen: gen, cancel: cancel}
	ch := make(chan []engsearch.Hit, 64)
	done := make(chan searchFinish, 1)
	go func() {
		defer close(ch)
		sum, err := searchHomeAndVault(ctx, o, vaultDir, root, home.FS, func(b engsearch.Batch) error {
			if len(b.Hits) == 0 {
				return nil
			}
			select {
			case ch <- b.Hits:
				return nil
			case <-ctx.Done():
				return nil // Run sees the cancel and says so in the summary
			}
		})
		done <- searchFinish{sum: sum, err: err}
	}()
	return pumpSearch(gen, ch, done)
}

// pumpSearch waits for the search's next hits and returns them with
// whatever else is ready, or its end.
func pumpSearch(gen int, ch <-chan []engsearch.Hit, done <-chan searchFinish) tea.Cmd {
	return func() tea.Msg {
		msg := searchBatchMsg{gen: gen, ch: ch, done: done}
		hits, ok := <-ch
		for ok {
			msg.hits = append(msg.hits, hits...)
			if len(msg.hits) >= maxSearchBatch {
				return msg
			}
			select {
			case hits, ok = <-ch:
			default:
				return msg
			}
		}
		f := <-done
		msg.fin = &f
		return msg
	}
}

// openSearch opens the Search overlay (ctrl+f).
func (m *Model) openSearch() tea.Cmd {
	return m.p.search.Open(m.data.openPath())
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
		if m.data.project.slug == m.data.open {
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
	for _, r := range m.data.projects {
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
		abs = joinAbs(m.opts.Home.Dir, h.File)
	}
	if m.p.memories.SelectPath(abs) {
		m.pendingHit = nil
		return nil
	}
	p := m.data.project
	// The store holding the hit: the deepest folder that holds it (team
	// memory is inside the auto memory folder).
	in := -1
	for i, st := range p.stores {
		if strings.HasPrefix(abs, strings.TrimSuffix(st.Dir, "/")+"/") && (in < 0 || len(st.Dir) > len(p.stores[in].Dir)) {
			in = i
		}
	}
	if !m.pendingStore && in >= 0 && in != p.storeIdx {
		m.pendingStore = true
		m.data.storeDir = p.stores[in].Dir
		if in == 0 {
			m.data.storeDir = "" // the home's auto memory folder
		}
		return m.requestProject(m.data.open)
	}
	m.pendingHit = nil
	m.setStatus(model.SanitizeLine(h.File)+" line "+fmt.Sprint(h.Line)+": "+h.Label+", which the Memories pane does not list (it lists the project's memory stores)", false)
	return nil
}
