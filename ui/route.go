package ui

import (
	"github.com/memscope/memscope/views/prompt"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/health"
	"github.com/memscope/memscope/views/msgs"
	"github.com/memscope/memscope/views/replay"
)

// Init starts loading the home and, when asked, watching it.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.feeds.home.Init(), m.feeds.history.Init(), m.checkWritableCmd(), m.lv.Next(), m.lazyLoadCmd()}
	if m.opts.Watch {
		cmds = append(cmds, startWatchCmd(m.opts.Home.Dir))
	}
	return tea.Batch(cmds...)
}

// dataHandlers handle the data messages, each a switch on the message's
// type; the first that takes a message owns it.
var dataHandlers = []func(Model, tea.Msg) (Model, tea.Cmd, bool){Model.handleLive, Model.handleEdit, Model.handleLoaded, Model.handleHome, Model.handleHistory, Model.handleRequest, Model.handleWatch, Model.handleStores, Model.handleRetention, Model.handleFiles, Model.handleExport, Model.handleReview, Model.handleSecurity, Model.handleSearch, Model.handleOverview, Model.handleOpenPane, Model.handleVault, Model.handleStatusExpired}

// handleData hands a data message to the first of dataHandlers that
// owns its type; ok is false for messages nobody owns. The root is a few
// hundred bytes (its state is behind pointers), so trying the handlers in
// turn costs a few small copies, and no table by reflect.Type is kept.
func (m Model) handleData(msg tea.Msg) (Model, tea.Cmd, bool) {
	for _, h := range dataHandlers {
		if next, cmd, ok := h(m, msg); ok {
			return next, cmd, true
		}
	}
	return m, nil, false
}

// handleLoaded takes what a loading command read and hands it to its panes.
func (m Model) handleLoaded(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case feed.ProjectLoaded:
		delete(m.loading, "project")
		ok, next := m.feeds.project.Loaded(msg, m.data.open)
		next = m.projectCmd(next)
		if !ok {
			return m, next, true // the user moved on to another project or store
		}
		m.applyProject(m.feeds.project.Cur())
		// The Overview's lint and prompt lines take what the load
		// computed.
		m.feeds.overview.ProjectChecked(m.feeds.project.Cur().Checked())
		if m.focus == paneOverview {
			next = tea.Batch(next, m.overviewLoad())
		}
		next = tea.Batch(next, m.selectPendingHit(), m.renderCmd(), m.loadedPreviewCmd(), m.loadReviewCmd(), m.feeds.project.LoadsCmd(msg.Slug), m.feeds.edits.JournalCmd(m.editCtx()))
		return m, next, true
	case feed.LoadsRead:
		cur := m.feeds.project.Cur()
		was := cur.LoadsComplete()
		next := m.projectCmd(m.feeds.project.LoadsDone(msg, m.data.open))
		if !was && cur.LoadsComplete() {
			// The load's loads were all there: its lint is the Lint line's.
			m.feeds.overview.ProjectChecked(cur.Checked())
			if m.focus == paneOverview {
				next = tea.Batch(next, m.overviewLoad())
			}
		}
		return m, next, true
	case feed.PlanMade:
		if m.feeds.project.PlanMade(msg) {
			paneTable[paneHealth].update(m.p, health.PlanMsg{Plan: m.feeds.project.Cur().Plan})
		}
		return m, nil, true
	case feed.Rendered:
		m.applyRendered(msg)
		return m, nil, true
	case replay.StateMsg, replay.PipelineMsg:
		var cmd tea.Cmd
		m.p.replay, cmd = m.p.replay.Update(msg)
		return m, cmd, true
	case previewMsg:
		if msg.project == m.previewProject() {
			m.p.prompt, _ = m.p.prompt.Update(prompt.PreviewMsg{Preview: msg.preview})
			m.applyPromptHit()
		}
		return m, nil, true
	case feed.SessionsLoaded:
		next := m.sessionsDone()
		if msg.Slug == m.data.open {
			next = tea.Batch(next, m.feeds.vault.SessionsAfter(msg.Slug, msg.Sessions))
			m.feeds.sessions.Loaded(msg)
			m.p.replay, _ = m.p.replay.Update(replay.SessionsMsg{Sessions: msg.Sessions, Now: m.opts.Now()})
			// A session that started or wrote an attachment record may
			// have loaded files.
			if msg.MayLoad {
				next = tea.Batch(next, m.feeds.project.LoadsCmd(msg.Slug))
			}
		}
		return m, next, true
	case writableMsg:
		m.applyWritable(msg)
		return m, nil, true
	}
	return m, nil, false
}

// handleRequest serves the panes' requests and shows status messages.
func (m Model) handleRequest(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case msgs.RecallQuery:
		return m, m.previewOrExplainCmd(msg.Query), true
	case msgs.ReplaySession:
		return m, m.openTimelineCmd(msg.Path, nil), true
	case errMsg:
		m.setStatus(msg.err.Error(), true)
		return m, nil, true
	case msgs.Status:
		m.setStatus(msg.Text, msg.Error)
		return m, nil, true
	case msgs.SelectProject:
		m.openProject(msg.Slug)
		m.setStatus("opened "+m.openPath(), false)
		cmd := m.loadOpenProject()
		return m, cmd, true
	case msgs.PasteResolved:
		var c1, c2 tea.Cmd
		m.p.history, c1 = m.p.history.Update(msg)
		m.p.pastes, c2 = m.p.pastes.Update(msg)
		return m, tea.Batch(c1, c2), true
	case msgs.SwitchPane:
		return m, m.setFocus(msg.Index), true
	case msgs.NextMemoryStore:
		return m, m.nextStore(), true
	}
	return m, nil, false
}

// nextStore shows the open project's next memory store (after the last,
// its auto memory again) in the Memories and Index panes.
func (m *Model) nextStore() tea.Cmd {
	p := m.feeds.project.Cur()
	if p.Slug != m.data.open || len(p.Stores) < 2 {
		m.setStatus("this project has only its own memory: no agent defines memory: user|project|local, and no agent-memory folder", false)
		return nil
	}
	next := p.Stores[(p.StoreIdx+1)%len(p.Stores)]
	m.feeds.project.SetStore(next.Dir)
	if next.Dir == p.Stores[0].Dir {
		// The home's auto memory folder (an auto memory folder moved
		// out of the home is another store).
		m.feeds.project.SetStore("")
	}
	m.setStatus("showing "+next.Label+": "+next.Dir, false)
	return m.requestProject(m.data.open)
}
