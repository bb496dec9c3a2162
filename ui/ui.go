// Package ui is memscope's root Bubble Tea model: the layout, the focus
// ring over the panes, routing (keys to the focused pane, data to its
// owner), all file I/O as commands, file watching, and the theme.
package ui

import (
	"errors"
	"fmt"
	"github.com/memscope/memscope/ui/feed"
	"io/fs"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/overview"
	engsearch "github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	livepane "github.com/memscope/memscope/views/live"
	"github.com/memscope/memscope/views/memories"
)

// Options configure the app.
type Options struct {
	// Home is the Claude home to show.
	Home *model.Home
	// Project is the folder to open on ("" picks the newest project).
	Project string
	// Demo says Home is the embedded demo (shown in the banner).
	Demo bool
	// DemoAsked says the demo was asked for (--demo); otherwise it is
	// shown because no Claude home was found, and the banner says that.
	DemoAsked bool
	// Now is the clock; time.Now in production.
	Now func() time.Time
	// Getenv reads the environment (EDITOR, NO_COLOR).
	Getenv func(string) string
	// Watch turns on live reload with fsnotify.
	Watch bool
	// Writes is what edits write through; nil is the real OS (tests
	// inject faults: faultfs.FS, internal/faultfs).
	Writes model.WriteFS
	// ExportDir is where exports from the panes go (x, X); the current
	// folder when empty.
	ExportDir string
	// Root is the machine's file system from "/" (names as model.RootName
	// gives them): project folders, their CLAUDE.md and settings, git
	// roots and the managed settings are read through it, with Home
	// mounted at Home.Dir. main passes model.DirFS("/"); nil shows nothing
	// but the home, which is what tests want.
	Root fs.FS
	// Alive reports whether a process exists, for the Live pane's
	// sessions/<pid>.json files; nil asks the OS (tests inject it).
	Alive func(pid int) bool
	// Cache keeps the paste files' verdicts across runs (see
	// engine/diskcache), so a start does not hash every paste again; nil
	// keeps nothing.
	Cache *diskcache.Store
	// The user's settings (memscope's config.yaml): Keys replaces the
	// default bindings when set; Theme's colours go over memscope's;
	// MouseOff turns mouse reporting off; Staleness are the thresholds
	// (nil: the defaults); LiveWarnPercent and LiveAlertPercent colour the
	// Live pane (0: the client's levels); Notice is said in the status
	// line at start (a problem with the settings file).
	Keys                              *keymap.KeyMap
	Theme                             style.Theme
	MouseOff                          bool
	Staleness                         memindex.StalenessThresholds
	LiveWarnPercent, LiveAlertPercent float64
	Notice                            string
}

// Model is the root model.
type Model struct {
	opts   Options
	keys   *keymap.KeyMap
	styles style.Styles
	help   *help.Model

	width, height int
	focus         int
	// modals are the open overlays and questions (help, the last error,
	// a y/n question), which take the keys first (modal.go).
	modals     modalStack
	helpOffset int // the help overlay's first line on screen
	readOnly   bool
	status     string
	statusErr  bool
	statusSeq  int // numbers the status messages, for their expiry (statusexpiry.go)
	// lastError is the last error shown, in full; ! opens it.
	lastError string
	loading   map[string]bool

	// homeRO and projectRO are why editing is off: the home, or the open
	// project's memory folder, refuses writes (see readonly.go).
	homeRO, projectRO error

	data homeData

	// p holds the panes (the pane table's) and the search overlay.
	p *paneSet

	// pendingHit is a memory hit waiting for its project to load
	// (search.go).
	pendingHit *engsearch.Hit
	// pendingStore says the Memories pane was switched to the hit's
	// store already (it is tried once).
	pendingStore bool
	// promptHit is a CLAUDE.md hit waiting for its file and its
	// project's preview (searchjump.go).
	promptHit *promptHit

	// lv feeds the Live pane (live.go); follow is the Replay pane's open
	// session, followed as it is written, and followGen numbers the
	// sessions opened (follow.go).
	lv        *feed.Live
	follow    *timelineFollow
	followGen int

	// fl runs the sessions' loads one at a time (the feeds hold their
	// own flights).
	fl flights

	watch     *watcher
	reloadTag int
	// gen numbers this state for View's memo (see viewGens); quiet says
	// the last Update changed nothing on the screen, so the memo of the
	// state before it, when it has this gen, is this state's view.
	gen   uint64
	quiet bool
	memo  *viewMemo
	// pending is what the file events since the last reload changed.
	pending change
	// feeds are the feeds of ui/feed (the stores they read, their
	// requests, caches and invalidation).
	feeds *feeds
	// burst numbers the current run of file events; burstOpen is set
	// while one waits for its reload (see maxReloadDelay).
	burst     int
	burstOpen bool
	// leftoversAnnounced is set once the status line said that
	// interrupted memscope writes left something.
	leftoversAnnounced bool
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
	st := style.NewThemed(true, noColor, opts.Theme)
	km := keymap.Default()
	if opts.Keys != nil {
		km = *opts.Keys
	}
	m := Model{
		opts:    opts,
		keys:    &km,
		styles:  st,
		help:    new(help.New()),
		loading: map[string]bool{"home": true, "history": true},
		feeds:   &feeds{overview: feed.NewFedOverview(), retention: feed.NewRetention(), secrets: feed.NewSecrets(), files: feed.NewFiles(), sessions: feed.NewSessionsOn(opts.Home, opts.Cache), history: feed.NewHistory(opts.Home, opts.Cache), home: feed.NewHome(opts.Home, opts.Cache), markdown: feed.NewMarkdown()},
		p:       newPanes(km, st),
	}
	m.lv = m.newLive()
	m.lv.ListFrom(opts.Home, m.feeds.overview.Listed)
	// The Replay list takes the followers the Overview's pass builds.
	m.feeds.sessions.TakeFrom(m.feeds.overview.Followers())
	m.feeds.sessions.TakeActiveFrom(m.feeds.overview.ActiveHandoff())
	m.feeds.home.TakeActiveFrom(m.feeds.overview.ActiveHandoff(), opts.Project)
	m.feeds.home.ListFrom(m.feeds.overview.Listed)
	m.feeds.retention.SetVaultDir(m.places().VaultDir)
	m.feeds.vault = feed.NewVault(m.places().VaultDir, feed.Mount(opts.Root, opts.Home), opts.Home, m.writes())
	m.memo = &viewMemo{}
	m.feeds.search = feed.NewSearch(feed.SearchEnv{Home: opts.Home, Machine: opts.Root, Getenv: opts.Getenv})
	m.feeds.project = feed.NewProject(feed.ProjectEnv{Home: opts.Home, Machine: opts.Root, Writes: opts.Writes, Getenv: opts.Getenv, Now: opts.Now, Staleness: opts.Staleness, Watch: opts.Watch, Cache: opts.Cache, GateLog: m.places().GateLog}, m.feeds.home)
	m.feeds.project.ListFrom(m.feeds.overview.Held)
	m.feeds.edits = feed.NewEdits(feed.EditsEnv{Home: opts.Home, Machine: opts.Root, Writes: opts.Writes, Now: opts.Now, Getenv: opts.Getenv, KeepElsewhere: km.KeepLostTo.Help().Key}, m.feeds.project)
	m.help.Styles = helpStyles(true, noColor)
	paneTable[paneLive].update(m.p, livepane.LevelsMsg{WarnPct: opts.LiveWarnPercent, AlertPct: opts.LiveAlertPercent})
	m.p.memories, _ = m.p.memories.Update(memories.StalenessMsg{Thresholds: opts.Staleness})
	if opts.Notice != "" {
		m.setStatus(opts.Notice, true)
	}
	m.paneAt(m.focus).Focus()
	return m
}

// Update routes a message (see update) and says whether the screen may
// have changed: the program draws the screen after every message, and a
// busy session sends file events and debounce ticks that change nothing
// on it; View draws those from its memo.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	before := m.chrome()
	next, cmd := m.update(msg)
	if nm, ok := next.(Model); ok {
		nm.quiet = (watchMsg(msg) || unseenMsg(msg, nm.focus)) && nm.chrome() == before && !nm.modals.has(modalHelp)
		if !nm.quiet {
			nm.gen = viewGens.Add(1)
		}
		cmd = tea.Batch(cmd, nm.expireStatus(before))
		next = nm
	}
	return next, cmd
}

// chrome is what handling a file event or a debounce tick can change on
// the screen: the status line (a reload says how many sources it reads).
type chrome struct {
	loading   int
	status    string
	statusErr bool
}

func (m Model) chrome() chrome {
	return chrome{loading: len(m.loading), status: m.status, statusErr: m.statusErr}
}

// watchMsg reports the messages of file watching, which change the
// screen only through chrome (their loads' results come as other
// messages).
func watchMsg(msg tea.Msg) bool {
	switch msg.(type) {
	case fileChangedMsg, reloadTickMsg, reloadDeadlineMsg:
		return true
	}
	return false
}

// unseenMsg reports data messages that change only panes other than the
// focused one (a busy session sends them every second): the screen shows
// them only through chrome. The Live pane's snapshots show in the Live
// pane (and, as an announcement, in the status line); the paste
// inventory in the Pastes and History panes.
func unseenMsg(msg tea.Msg, focus int) bool {
	switch msg.(type) {
	case feed.LiveSnap, feed.LivePoll:
		return focus != paneLive
	case feed.PastesChecked:
		return focus != panePastes && focus != paneHistory
	}
	return false
}

// viewGens numbers model states that may look different: every Update
// that may change the screen takes a new number, unique across models
// (tests branch models from one another).
var viewGens atomic.Uint64

// viewMemo is the last view drawn and the number of the state it shows.
type viewMemo struct {
	gen  uint64
	view tea.View
	ok   bool
	// frame keeps the framing of the body and the screen (frameMemo).
	frame frameMemo
}

// update routes a message: global keys and data messages first, then
// keys and mouse to the focused pane.
func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
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
		if m.modals.has(modalHelp) {
			if msg.Mouse().Button == tea.MouseWheelUp {
				m.helpOffset = max(m.helpOffset-3, 0)
			} else {
				m.helpOffset = min(m.helpOffset+3, m.helpMaxOffset())
			}
			return m, nil
		}
		if m.p.search.IsOpen() {
			return m, nil // the overlay covers the pane
		}
		return m.routeToFocused(m.inPane(msg))
	}
	if next, cmd, ok := m.handleData(msg); ok {
		return next, cmd
	}
	return m, nil
}

// setStatus shows a message in the status bar. An error is shown cause
// first ("no space left on device: write the undo journal: …"): the
// line is cut at the terminal's width, and the cause is what the user
// needs. The full text stays openable (LastError).
func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr = s, isErr
	if isErr {
		m.lastError = s
		m.status = causeFirst(s)
	}
}

// View draws tabs, the focused pane, the help line and the status bar
// (or returns the last drawing, when the model has not changed since).
func (m Model) View() tea.View {
	if m.quiet && m.memo != nil && m.memo.ok && m.memo.gen == m.gen {
		return m.memo.view
	}
	v := m.view()
	if m.memo != nil {
		m.memo.gen, m.memo.view, m.memo.ok = m.gen, v, true
	}
	return v
}

func (m Model) view() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	if m.opts.MouseOff {
		v.MouseMode = tea.MouseModeNone
	}
	v.WindowTitle = "memscope — " + model.SanitizeLine(m.openPath())
	if n := m.feeds.project.Unreviewed(); n > 0 {
		v.WindowTitle += fmt.Sprintf(" · %d to review", n)
	}
	return v
}

// openPath is the open project's real path (or its slug when unknown).
func (m *Model) openPath() string {
	if p := m.feeds.home.Path(m.data.open); p != "" {
		return p
	}
	return m.data.open
}

// loadingText counts the sources still being read, for the status line.
func (m Model) loadingText() string {
	if len(m.loading) == 0 {
		return ""
	}
	return "loading " + text.Count(len(m.loading), "source", "") + "…"
}

// homeDirOf is the home's folder, "" when there is no home.
func homeDirOf(h *model.Home) string {
	if h == nil {
		return ""
	}
	return h.Dir
}

// places are the rescue vault and the gate's record (none for the demo).
func (m Model) places() overview.Places {
	userHome := func() (string, error) {
		if h := m.opts.Getenv("HOME"); h != "" {
			return h, nil
		}
		return "", errors.New("HOME is not set")
	}
	return overview.FindPlaces(m.opts.Getenv, userHome, m.opts.Home, m.opts.Demo)
}
