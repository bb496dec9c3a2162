// Package ui is memscope's root Bubble Tea model: the layout, the focus
// ring over the panes, routing (keys to the focused pane, data to its
// owner), all file I/O as commands, file watching, and the theme.
package ui

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/markdown"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/files"
	"github.com/memscope/memscope/views/health"
	"github.com/memscope/memscope/views/history"
	"github.com/memscope/memscope/views/index"
	"github.com/memscope/memscope/views/memories"
	"github.com/memscope/memscope/views/msgs"
	"github.com/memscope/memscope/views/pastes"
	"github.com/memscope/memscope/views/projects"
	"github.com/memscope/memscope/views/prompt"
	"github.com/memscope/memscope/views/replay"
	"github.com/memscope/memscope/views/retention"
)

// Options configure the app.
type Options struct {
	// Home is the Claude home to show.
	Home *model.Home
	// Project is the folder to open on ("" picks the newest project).
	Project string
	// Demo says Home is the embedded demo (shown in the banner).
	Demo bool
	// Now is the clock; time.Now in production.
	Now func() time.Time
	// Getenv reads the environment (EDITOR, NO_COLOR).
	Getenv func(string) string
	// Watch turns on live reload with fsnotify.
	Watch bool
	// Writes is what edits write through; nil is the real OS (tests
	// inject faults: model.FaultFS).
	Writes model.WriteFS
	// ExportDir is where exports from the panes go (x, X); the current
	// folder when empty.
	ExportDir string
	// Root is the machine's file system from "/" (names as model.RootName
	// gives them): project folders, their CLAUDE.md and settings, git
	// roots and the managed settings are read through it, with Home
	// mounted at Home.Dir. main passes os.DirFS("/"); nil shows nothing
	// but the home, which is what tests want.
	Root fs.FS
}

// Pane indexes, in focus-ring order (keymap.PaneNames).
const (
	paneProjects = iota
	paneIndex
	paneMemories
	paneHistory
	panePastes
	paneReplay
	panePrompt
	paneHealth
	paneRetention
	paneFiles
	paneCount
)

// pane is what the root needs of every pane to lay it out and route to it.
// The root stores concrete pane types; this interface is for iterating.
type pane interface {
	Title() string
	SetSize(w, h int)
	Focus()
	Blur()
	View() string
	Help() []key.Binding
	Filtering() bool
	// ClickRow moves the cursor to row y of the pane and returns what
	// the new selection needs computed or loaded.
	ClickRow(y int) tea.Cmd
}

// Model is the root model.
type Model struct {
	opts   Options
	keys   keymap.KeyMap
	styles style.Styles
	help   help.Model

	width, height int
	focus         int
	showHelp      bool
	readOnly      bool
	status        string
	statusErr     bool
	loading       map[string]bool

	// homeRO and projectRO are why editing is off: the home, or the open
	// project's memory folder, refuses writes (see readonly.go).
	homeRO, projectRO error

	data homeData

	md *markdown.Renderer

	projects  projects.Model
	index     index.Model
	memories  memories.Model
	history   history.Model
	pastes    pastes.Model
	replay    replay.Model
	prompt    prompt.Model
	health    health.Model
	retention retention.Model
	files     files.Model

	watch     *watcher
	reloadTag int
	// stale marks the panes whose data is read only while they are
	// focused (the cleanup forecast walks the whole home, file history
	// reads a transcript): on focus, and on a reload while focused.
	stale map[int]bool
	// burst numbers the current run of file events; burstOpen is set
	// while one waits for its reload (see maxReloadDelay).
	burst     int
	burstOpen bool

	// busy is set while a store operation runs; confirm is a pending
	// yes/no question.
	busy    bool
	confirm *confirmState
}

// New builds the root model. Nothing is read until Init's commands run, so
// the first frame comes before any data.
func New(opts Options) Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	noColor := opts.Getenv("NO_COLOR") != ""
	st := style.New(true, noColor)
	km := keymap.Default()
	m := Model{
		opts:      opts,
		keys:      km,
		styles:    st,
		help:      help.New(),
		loading:   map[string]bool{"home": true, "history": true},
		stale:     map[int]bool{paneRetention: true, paneFiles: true},
		md:        markdown.NewRenderer(),
		projects:  projects.New(km, st),
		index:     index.New(km, st),
		memories:  memories.New(km, st),
		history:   history.New(km, st),
		pastes:    pastes.New(km, st),
		replay:    replay.New(km, st),
		prompt:    prompt.New(km, st),
		health:    health.New(km, st),
		retention: retention.New(km, st),
		files:     files.New(km, st),
	}
	m.help.Styles = helpStyles(true, noColor)
	m.paneAt(m.focus).Focus()
	return m
}

// Init starts loading the home and, when asked, watching it.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.loadHomeCmd(), m.loadHistoryCmd(), m.checkWritableCmd()}
	if m.opts.Watch {
		cmds = append(cmds, startWatchCmd(m.opts.Home.Dir))
	}
	return tea.Batch(cmds...)
}

// paneAt returns pane i for iteration.
func (m *Model) paneAt(i int) pane {
	switch i {
	case paneProjects:
		return &m.projects
	case paneIndex:
		return &m.index
	case paneMemories:
		return &m.memories
	case paneHistory:
		return &m.history
	case panePastes:
		return &m.pastes
	case paneReplay:
		return &m.replay
	case panePrompt:
		return &m.prompt
	case paneRetention:
		return &m.retention
	case paneFiles:
		return &m.files
	}
	return &m.health
}

// Update routes a message: global keys and data messages first, then keys
// and mouse to the focused pane.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, m.renderCmd()
	case tea.BackgroundColorMsg:
		m.setTheme(msg.IsDark())
		return m, m.renderCmd()
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseClickMsg:
		return m.handleClick(msg)
	case tea.MouseWheelMsg:
		return m.routeToFocused(msg)
	}
	if next, cmd, ok := m.handleData(msg); ok {
		return next, cmd
	}
	return m, nil
}

// handleKey handles global keys unless the focused pane is taking text
// (a filter line or a form), then hands the key to the focused pane.
func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.showHelp {
		m.showHelp = false
		return m, nil
	}
	if c := m.confirm; c != nil {
		switch {
		case key.Matches(msg, m.keys.Confirm):
			m.confirm = nil
			next, cmd, _ := m.handleEdit(c.onYes)
			return next, cmd
		case key.Matches(msg, m.keys.Cancel):
			m.confirm = nil
			m.setStatus("cancelled: nothing was written", false)
		}
		return m, nil
	}
	if !m.paneAt(m.focus).Filtering() {
		switch {
		case key.Matches(msg, m.keys.Quit):
			return m, tea.Quit
		case key.Matches(msg, m.keys.Help):
			m.showHelp = true
			return m, nil
		case key.Matches(msg, m.keys.NextPane):
			return m, m.setFocus((m.focus + 1) % paneCount)
		case key.Matches(msg, m.keys.PrevPane):
			return m, m.setFocus((m.focus + paneCount - 1) % paneCount)
		case key.Matches(msg, m.keys.Reload):
			return m, m.reloadAll()
		case key.Matches(msg, m.keys.Undo) && m.focus == paneFiles:
			return m, m.filesUndo()
		case key.Matches(msg, m.keys.Undo):
			next, cmd, _ := m.handleEdit(msgs.Undo{})
			return next, cmd
		}
		for i, b := range m.keys.Panes {
			if key.Matches(msg, b) {
				return m, m.setFocus(i)
			}
		}
	}
	return m.routeToFocused(msg)
}

// routeToFocused hands a key or mouse message to the focused pane.
func (m Model) routeToFocused(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch m.focus {
	case paneProjects:
		m.projects, cmd = m.projects.Update(msg)
	case paneIndex:
		m.index, cmd = m.index.Update(msg)
	case paneMemories:
		m.memories, cmd = m.memories.Update(msg)
	case paneHistory:
		m.history, cmd = m.history.Update(msg)
	case panePastes:
		m.pastes, cmd = m.pastes.Update(msg)
	case paneReplay:
		m.replay, cmd = m.replay.Update(msg)
	case panePrompt:
		m.prompt, cmd = m.prompt.Update(msg)
	case paneHealth:
		m.health, cmd = m.health.Update(msg)
	case paneRetention:
		m.retention, cmd = m.retention.Update(msg)
	case paneFiles:
		m.files, cmd = m.files.Update(msg)
	}
	return m, cmd
}

// setFocus focuses pane i and returns the load it waits for, if any
// (lazyLoadCmd).
func (m *Model) setFocus(i int) tea.Cmd {
	m.paneAt(m.focus).Blur()
	m.focus = i
	m.paneAt(m.focus).Focus()
	return m.lazyLoadCmd()
}

// handleClick focuses a pane by its tab, or moves a list's cursor.
func (m Model) handleClick(msg tea.MouseClickMsg) (tea.Model, tea.Cmd) {
	mouse := msg.Mouse()
	if mouse.Y == m.tabsRow() {
		if i := m.tabAt(mouse.X); i >= 0 {
			return m, m.setFocus(i)
		}
		return m, nil
	}
	top := m.bodyTop()
	if mouse.Y > top && mouse.Y < top+m.bodyHeight()+1 {
		return m, m.paneAt(m.focus).ClickRow(mouse.Y - top - 1)
	}
	return m, nil
}

func (m *Model) setTheme(isDark bool) {
	st := style.New(isDark, m.styles.NoColor)
	m.styles = st
	m.help.Styles = helpStyles(isDark, m.styles.NoColor)
	m.projects.SetStyles(st)
	m.index.SetStyles(st)
	m.memories.SetStyles(st)
	m.history.SetStyles(st)
	m.pastes.SetStyles(st)
	m.replay.SetStyles(st)
	m.prompt.SetStyles(st)
	m.health.SetStyles(st)
	m.retention.SetStyles(st)
	m.files.SetStyles(st)
}

// helpStyles are bubbles' help styles, plain under NO_COLOR.
func helpStyles(isDark, noColor bool) help.Styles {
	if noColor {
		return help.Styles{}
	}
	return help.DefaultStyles(isDark)
}

// setStatus shows a message in the status bar.
func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr = s, isErr
}

// handleData handles data messages by type; ok is false for messages
// nobody owns.
func (m Model) handleData(msg tea.Msg) (Model, tea.Cmd, bool) {
	for _, h := range []func(Model, tea.Msg) (Model, tea.Cmd, bool){Model.handleEdit, Model.handleEditor, Model.handleLoaded, Model.handleRequest, Model.handleWatch, Model.handleRetention, Model.handleFiles, Model.handleExport} {
		if next, cmd, ok := h(m, msg); ok {
			return next, cmd, true
		}
	}
	return m, nil, false
}

// handleLoaded takes what a loading command read and hands it to its panes.
func (m Model) handleLoaded(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case homeLoadedMsg:
		delete(m.loading, "home")
		m.applyHome(msg)
		return m, tea.Batch(m.loadProjectCmd(m.data.open), m.loadSessionsCmd(m.data.open)), true
	case historyLoadedMsg:
		delete(m.loading, "history")
		if msg.err != nil {
			m.setStatus(msg.err.Error(), true)
			return m, nil, true
		}
		m.data.history = msg.history
		m.data.inventory = msg.inventory
		m.data.pasteRefs = msg.refs
		m.applyHistory()
		return m, nil, true
	case projectLoadedMsg:
		delete(m.loading, "project")
		if msg.slug != m.data.open {
			return m, nil, true // the user moved on to another project
		}
		m.applyProject(msg)
		return m, tea.Batch(m.renderCmd(), m.previewCmd(m.prompt.Query())), true
	case renderedMsg:
		m.applyRendered(msg)
		return m, nil, true
	case replay.StateMsg, replay.PipelineMsg:
		var cmd tea.Cmd
		m.replay, cmd = m.replay.Update(msg)
		return m, cmd, true
	case previewMsg:
		if msg.project == m.data.openPath() {
			m.prompt.SetPreview(msg.preview)
		}
		return m, nil, true
	case sessionsLoadedMsg:
		if msg.slug == m.data.open {
			m.replay.SetSessions(msg.sessions, m.opts.Now())
		}
		return m, nil, true
	case timelineMsg:
		if msg.err != nil {
			m.setStatus(msg.err.Error(), true)
			return m, nil, true
		}
		return m, m.replay.SetTimeline(msg.tl, msg.autocompactOff), true
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
		return m, m.previewCmd(msg.Query), true
	case msgs.ReplaySession:
		m.replay.SetLoading(msg.Path)
		return m, m.loadTimelineCmd(msg.Path), true
	case errMsg:
		m.setStatus(msg.err.Error(), true)
		return m, nil, true
	case msgs.Status:
		m.setStatus(msg.Text, msg.Error)
		return m, nil, true
	case msgs.SelectProject:
		m.openProject(msg.Slug)
		m.setStatus("opened "+m.data.openPath(), false)
		return m, tea.Batch(m.loadProjectCmd(msg.Slug), m.loadSessionsCmd(msg.Slug)), true
	case msgs.ResolvePaste:
		return m, m.resolvePasteCmd(msg.Hash), true
	case msgs.PasteResolved:
		var c1, c2 tea.Cmd
		m.history, c1 = m.history.Update(msg)
		m.pastes, c2 = m.pastes.Update(msg)
		return m, tea.Batch(c1, c2), true
	case msgs.OpenEditor:
		p := msg.Path
		if !filepath.IsAbs(p) {
			// Lint findings name files relative to the memory folder.
			p = filepath.Join(m.memoryDirAbs(), filepath.FromSlash(p))
		}
		return m, m.openEditorCmd(p), true
	case msgs.SwitchPane:
		return m, m.setFocus(msg.Index), true
	}
	return m, nil, false
}

// handleWatch turns file events into one debounced reload.
func (m Model) handleWatch(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case watchStartedMsg:
		m.watch = msg.w
		if msg.err != nil {
			m.setStatus("live reload off: "+msg.err.Error(), true)
			return m, nil, true
		}
		return m, m.watch.next(), true
	case fileChangedMsg:
		m.reloadTag++
		tag := m.reloadTag
		cmds := []tea.Cmd{m.watch.next(), tea.Tick(debounce, func(time.Time) tea.Msg { return reloadTickMsg{tag: tag, what: msg.what} })}
		if !m.burstOpen {
			m.burstOpen = true
			m.burst++
			cmds = append(cmds, reloadDeadline(m.burst))
		}
		return m, tea.Batch(cmds...), true
	case reloadTickMsg:
		if msg.tag != m.reloadTag {
			return m, nil, true
		}
		m.burstOpen = false
		return m, m.reloadAll(), true
	case reloadDeadlineMsg:
		if !m.burstOpen || msg.burst != m.burst {
			return m, nil, true
		}
		m.burstOpen = false
		return m, m.reloadAll(), true
	}
	return m, nil, false
}

// reloadAll re-reads everything (after a file change or ctrl+r).
func (m *Model) reloadAll() tea.Cmd {
	m.loading["home"] = true
	m.loading["history"] = true
	m.stale[paneRetention], m.stale[paneFiles] = true, true
	// The project list's arrival loads the open project and its sessions.
	return tea.Batch(m.loadHomeCmd(), m.loadHistoryCmd(), m.lazyLoadCmd())
}

// View draws tabs, the focused pane, the help line and the status bar.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "memscope — " + model.SanitizeForTerminal(m.data.openPath())
	return v
}

func (m Model) loadingText() string {
	if len(m.loading) == 0 {
		return ""
	}
	return fmt.Sprintf("loading %d source(s)…", len(m.loading))
}

// lazyLoadCmd reads the focused pane's data when it is stale: the
// Retention and Files panes are not read at start-up nor on every live
// reload, only when someone looks at them.
func (m *Model) lazyLoadCmd() tea.Cmd {
	if !m.stale[m.focus] {
		return nil
	}
	m.stale[m.focus] = false
	switch m.focus {
	case paneRetention:
		m.loading["retention"] = true
		return m.loadRetentionCmd()
	case paneFiles:
		m.loading["files"] = true
		return m.loadFileSessionsCmd()
	}
	return nil
}
