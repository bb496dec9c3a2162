package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/memscope/memscope/ui/feed"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/files"
	"github.com/memscope/memscope/views/health"
	"github.com/memscope/memscope/views/history"
	"github.com/memscope/memscope/views/index"
	livepane "github.com/memscope/memscope/views/live"
	"github.com/memscope/memscope/views/memories"
	ovpane "github.com/memscope/memscope/views/overview"
	"github.com/memscope/memscope/views/pastes"
	"github.com/memscope/memscope/views/projects"
	"github.com/memscope/memscope/views/prompt"
	"github.com/memscope/memscope/views/replay"
	"github.com/memscope/memscope/views/retention"
	reviewpane "github.com/memscope/memscope/views/review"
	searchview "github.com/memscope/memscope/views/search"
	"github.com/memscope/memscope/views/security"
)

// pane is what the shell needs of every pane to lay it out, theme it and
// route to it.
type pane interface {
	Title() string
	SetSize(w, h int)
	SetStyles(style.Styles)
	Focus()
	Blur()
	View() string
	Help() []key.Binding
	Filtering() bool
	// ClickRow moves the cursor to row y of the pane and returns what
	// the new selection needs computed or loaded.
	ClickRow(y int) tea.Cmd
	// Legend explains the symbols and badges the pane draws; the help
	// overlay (?) lists it under the keys.
	Legend() []text.LegendEntry
}

// readOnlyPane is a pane that edits: read-only turns its edits off.
type readOnlyPane interface{ SetReadOnly(bool) }

// paneSet holds the panes' values, behind one pointer in the root model
// (Bubble Tea copies the root on every message).
type paneSet struct {
	overview   ovpane.Model
	projects   projects.Model
	index      index.Model
	memories   memories.Model
	history    history.Model
	pastes     pastes.Model
	replay     replay.Model
	prompt     prompt.Model
	health     health.Model
	retention  retention.Model
	files      files.Model
	livePane   livepane.Model
	reviewPane reviewpane.Model
	security   security.Model
	// search is the Search overlay (ctrl+f), over every pane.
	search searchview.Model
}

// paneRow is one row of the pane table: the keymap's row of the same
// index names it (name, short name, key, group); the row says where the
// pane is, how to build it, and whether its data is read only while it is
// focused (lazy: on focus, and on a reload while focused; lazyLoadCmd
// reads nothing for a pane whose row says otherwise).
type paneRow struct {
	build  func(*paneSet, keymap.KeyMap, style.Styles)
	of     func(*paneSet) pane
	update func(*paneSet, tea.Msg) tea.Cmd
	lazy   bool
}

// paneUpdater is a pane type whose pointer is a pane and whose Update
// returns the pane's next value.
type paneUpdater[P any] interface {
	*P
	pane
	Update(tea.Msg) (P, tea.Cmd)
}

// row makes a pane table row for the pane at at, built by newPane.
func row[P any, PP paneUpdater[P]](at func(*paneSet) *P, newPane func(keymap.KeyMap, style.Styles) P, lazy bool) paneRow {
	return paneRow{
		build: func(s *paneSet, km keymap.KeyMap, st style.Styles) { *at(s) = newPane(km, st) },
		of:    func(s *paneSet) pane { return PP(at(s)) },
		update: func(s *paneSet, msg tea.Msg) tea.Cmd {
			p := at(s)
			var cmd tea.Cmd
			*p, cmd = PP(p).Update(msg)
			return cmd
		},
		lazy: lazy,
	}
}

// paneTable is the pane table, row i for keymap.Panes[i]. Everything
// generic (tabs, focus, routing, theme, read-only, help, lazy loading)
// iterates it.
var paneTable = [keymap.PaneCount]paneRow{
	row(func(s *paneSet) *ovpane.Model { return &s.overview }, ovpane.New, true),
	row(func(s *paneSet) *projects.Model { return &s.projects }, projects.New, false),
	row(func(s *paneSet) *index.Model { return &s.index }, index.New, false),
	row(func(s *paneSet) *memories.Model { return &s.memories }, memories.New, false),
	row(func(s *paneSet) *history.Model { return &s.history }, history.New, true),
	row(func(s *paneSet) *pastes.Model { return &s.pastes }, pastes.New, true),
	row(func(s *paneSet) *replay.Model { return &s.replay }, replay.New, false),
	row(func(s *paneSet) *prompt.Model { return &s.prompt }, prompt.New, false),
	row(func(s *paneSet) *health.Model { return &s.health }, health.New, false),
	row(func(s *paneSet) *retention.Model { return &s.retention }, retention.New, true),
	row(func(s *paneSet) *files.Model { return &s.files }, files.New, true),
	row(func(s *paneSet) *livepane.Model { return &s.livePane }, livepane.New, false),
	row(func(s *paneSet) *reviewpane.Model { return &s.reviewPane }, reviewpane.New, false),
	row(func(s *paneSet) *security.Model { return &s.security }, security.New, true),
}

// The panes the shell treats specially, by name (keymap.Panes).
var (
	paneOverview  = paneNamed("Overview")
	paneProjects  = paneNamed("Projects")
	paneIndex     = paneNamed("Index")
	paneMemories  = paneNamed("Memories")
	paneHistory   = paneNamed("History")
	panePastes    = paneNamed("Pastes")
	paneReplay    = paneNamed("Replay")
	panePrompt    = paneNamed("Prompt")
	paneHealth    = paneNamed("Health")
	paneRetention = paneNamed("Retention")
	paneFiles     = paneNamed("Files")
	paneLive      = paneNamed("Live")
	paneReview    = paneNamed("Review")
	paneSecurity  = paneNamed("Security")
)

// paneCount is the number of panes.
const paneCount = keymap.PaneCount

func paneNamed(name string) int {
	i := keymap.PaneIndex(name)
	if i < 0 {
		panic("ui: no pane named " + name)
	}
	return i
}

// newPanes builds every pane and the search overlay.
func newPanes(km keymap.KeyMap, st style.Styles) *paneSet {
	s := &paneSet{search: searchview.New(km, st)}
	for _, r := range paneTable {
		r.build(s, km, st)
	}
	return s
}

// paneAt returns pane i.
func (m *Model) paneAt(i int) pane { return paneTable[i].of(m.p) }

// feeds are the shell's feeds (ui/feed), by pointer.
type feeds struct {
	overview  *feed.Overview
	retention *feed.Retention
	secrets   *feed.Secrets
	files     *feed.Files
	sessions  *feed.Sessions
	history   *feed.History
	home      *feed.Home
	project   *feed.Project
	search    *feed.Search
	edits     *feed.Edits
	vault     *feed.Vault
	markdown  *feed.Markdown
}
