// Package replay is the Replay pane: a project's sessions, and for one
// session its compaction timeline with token bars. Step through turns and
// boundaries and see what the model saw at each step: the context by
// category and the messages of the resume chain; or run the five-stage
// compaction pipeline on that step in a window of your choice.
//
// The pane is in one of three modes (Mode): the session list, a
// session's timeline, or the timeline with the pipeline view. It does no
// I/O: opening a session asks the root (msgs.ReplaySession) and the root
// hands the timeline over with SetTimeline; the resume state and the
// pipeline are pure computations run in the pane's own commands.
package replay

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/engine/timeline"
	ctxwindow "github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// Session is one transcript of the project, as the session list shows it.
type Session struct {
	File       model.TranscriptFile
	Records    int
	Boundaries int
	Micro      int
	// Title is the session's name (custom title, AI title, else its
	// first prompt); empty when it has none of them.
	Title sessions.Title
	// Active is when the transcript was last active (the clock the
	// Projects pane's ACTIVE column uses too).
	Active sessions.Active
	// Agent labels a subagent's transcript from its meta file (type and
	// task, model.SubagentMeta.Label); "" when there is none.
	Agent string
	// Vault marks a session only the rescue vault holds (vault.go).
	Vault bool
}

// Mode is what the pane shows and what its keys do.
type Mode int

// The modes, outermost first. esc goes one mode out.
const (
	// ModeSessions lists the project's sessions; enter opens one.
	ModeSessions Mode = iota
	// ModeTimeline shows one session's steps and, beside them, what the
	// model saw at the selected step.
	ModeTimeline
	// ModePipeline shows the steps and, beside them, the five compaction
	// stages run on the selected step's state in the chosen window.
	ModePipeline
)

// String names the mode (for tests and debugging).
func (md Mode) String() string {
	switch md {
	case ModeSessions:
		return "sessions"
	case ModeTimeline:
		return "timeline"
	case ModePipeline:
		return "pipeline"
	}
	return fmt.Sprintf("Mode(%d)", int(md))
}

// badMode is the panic for a Mode outside the enum: a programming error.
func badMode(md Mode) string { return "replay: unknown mode " + md.String() }

// Model is the Replay pane.
type Model struct {
	keys   *keymap.KeyMap
	styles style.Styles
	mode   Mode
	// loading names the transcript asked for and not yet handed over;
	// listing is the project whose sessions are being read ("" when
	// none is) and listed the one the list shows.
	loading         string
	listing, listed string
	// following says the open timeline follows its transcript as lines
	// are appended (the root re-reads it on file events).
	following bool
	now       time.Time
	width     int
	height    int

	sessions list.Model[Session]
	// det scrolls and zooms the side of the timeline: the state at the
	// selected step, or the pipeline run on it.
	det detail.Model

	// The timeline (ModeTimeline and ModePipeline; nil in ModeSessions)
	// and the resume state computed for step stateFor.
	tl       *timeline.Timeline
	steps    list.Model[timeline.Step]
	state    *timeline.Resume
	stateFor int
	// autocompactOff: the settings turn autocompact off for this session.
	autocompactOff bool
	// lost caches each compaction's loss ledger (lost.go); lostSel is the
	// keepable item selected at the step shown.
	lost    *lostCache
	lostSel int
	// vault holds the vault-only sessions merged into the list (vault.go).
	vault *vaultRows
	// jump is the lost item o opened at its turn (lostjump.go); nil
	// when none is.
	jump *lostJump
	// chooser is where t keeps the selected lost item (keepto.go).
	chooser keepChooser

	// The pipeline (ModePipeline): the five stages run on the state at
	// step pipeFor, in window windows[window]; pipeStage is the stage
	// whose detail is shown. The window choice is kept across modes.
	pipe      *compact.Result
	pipeErr   error
	pipeFor   int
	pipeStage int
	window    int

	// hit is the search hit the pane was opened at (SelectHit): shown
	// marked above the step's detail, its message marked in the chain.
	hit *msgs.Highlight
}

// windows are the windows the pipeline can be tried in: the session's own
// and smaller ones, to see what each stage would do under pressure.
var windows = []struct {
	name string
	w    ctxwindow.Config
}{
	{"200k", ctxwindow.Size200k()},
	{"128k", ctxwindow.Config{ContextWindow: 128000, MaxOutputTokens: 32000}},
	{"64k", ctxwindow.Config{ContextWindow: 64000, MaxOutputTokens: 16000}},
	{"1M", ctxwindow.Size1M()},
}

// New returns an empty Replay pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: &keys, styles: st, stateFor: -1, det: detail.New(keys, st), lost: &lostCache{}}
	m.sessions = list.New(keys, st, func(s Session) string { return s.File.SessionID + " " + s.Title.Text + " " + s.Agent })
	m.sessions.Empty = "loading sessions…"
	m.steps = list.New(keys, st, func(s timeline.Step) string { return string(s.Kind) })
	m.steps.Empty = "this session has no turns"
	return m
}

// Title names the pane.
func (m Model) Title() string { return "Replay" }

// Mode returns what the pane shows.
func (m Model) Mode() Mode { return m.mode }

// SessionsLoadingMsg says the sessions of Project (any key naming it)
// are being read: the list says so, and it empties when it showed
// another project's.
type SessionsLoadingMsg struct{ Project string }

// SessionsMsg brings a project's sessions, listed at Now; any open
// timeline is left.
type SessionsMsg struct {
	Sessions []Session
	Now      time.Time
}

// UnavailableMsg says why there are no sessions to list (no project
// yet), instead of loading.
type UnavailableMsg struct{ Why string }

// TimelineMsg opens a session's timeline at its last step.
// AutocompactOff is settings.json's autoCompactEnabled: false for the
// session, which the pipeline view honours.
type TimelineMsg struct {
	Timeline       *timeline.Timeline
	AutocompactOff bool
}

// FollowingMsg says whether the open timeline follows its transcript.
type FollowingMsg struct{ On bool }

// LoadingMsg says a timeline is being read (Path; "" none).
type LoadingMsg struct{ Path string }

// setSessionsLoading handles SessionsLoadingMsg.
func (m *Model) setSessionsLoading(project string) {
	m.listing = project
	m.sessions.Empty = "loading sessions…"
	if project != m.listed {
		m.sessions.SetItems(nil)
	}
}

// setSessions shows a project's sessions and leaves any open timeline.
func (m *Model) setSessions(ss []Session, now time.Time) {
	m.now = now
	m.listed, m.listing = m.listing, ""
	m.sessions.Empty = "no sessions for this project"
	m.sessions.SetItems(m.withVault(ss))
}

// setUnavailable handles UnavailableMsg.
func (m *Model) setUnavailable(why string) {
	m.listed, m.listing = "", ""
	m.sessions.Empty = why
	m.sessions.SetItems(nil)
}

// setTimeline handles TimelineMsg.
func (m *Model) setTimeline(tl *timeline.Timeline, autocompactOff bool) tea.Cmd {
	m.mode = ModeTimeline
	m.tl, m.loading, m.state, m.stateFor, m.pipe, m.hit = tl, "", nil, -1, nil, nil
	m.jump, m.chooser.open = nil, false
	m.autocompactOff = autocompactOff
	m.steps.SetItems(tl.Steps)
	m.steps.Select(len(tl.Steps) - 1)
	return m.stateCmd()
}

// UpdateTimeline swaps in a newer timeline of the open session (lines
// were appended): the mode and the selected step stay, except that a
// selection on the last step moves on to the new last step, so the view
// follows the session as it is written.
func (m *Model) UpdateTimeline(tl *timeline.Timeline) tea.Cmd {
	if m.tl == nil || tl.Path != m.tl.Path {
		return nil
	}
	defer m.layout()
	k, last := m.steps.Index(), m.steps.Index() == len(m.tl.Steps)-1
	m.tl, m.state, m.stateFor = tl, nil, -1
	m.steps.SetItems(tl.Steps)
	switch {
	case last || k >= len(tl.Steps):
		m.steps.Select(len(tl.Steps) - 1)
	default:
		m.steps.Select(k)
	}
	if m.mode == ModePipeline {
		if m.pipe == nil || m.pipeFor != m.steps.Index() {
			m.pipe = nil
			return tea.Batch(m.stateCmd(), m.pipelineCmd())
		}
		// The steps before the new lines did not change: the run stands,
		// re-tagged with the new timeline so its messages still apply.
	}
	return m.stateCmd()
}

// SelectBoundary selects the step of the compaction with uuid (or, for
// one without a uuid, at line) and reports whether there is one.
func (m *Model) SelectBoundary(uuid string, line int) (tea.Cmd, bool) {
	if m.tl == nil {
		return nil, false
	}
	defer m.layout()
	for i, s := range m.tl.Steps {
		if s.Kind != timeline.StepBoundary {
			continue
		}
		if b := m.tl.Boundaries[s.Boundary]; uuid != "" && b.UUID == uuid || uuid == "" && b.Line == line {
			m.steps.Select(i)
			return m.stateCmd(), true
		}
	}
	return nil, false
}

// SelectHit selects the step that holds the search hit h (as
// SelectMessage: the turn its record belongs to) and shows the hit
// marked until another session opens.
func (m *Model) SelectHit(h msgs.Highlight) tea.Cmd {
	if m.tl == nil || len(m.tl.Steps) == 0 {
		return nil
	}
	m.hit = &h
	cmd, _ := m.SelectMessage(h.UUID, h.Line)
	return cmd
}

// Hit is the search hit shown, if any.
func (m Model) Hit() *msgs.Highlight { return m.hit }

// SelectMessage selects the step of the record with uuid: the step that
// ends with it, else the first step at or after line (the turn the record
// belongs to), else the last; it reports whether a step holds it.
func (m *Model) SelectMessage(uuid string, line int) (tea.Cmd, bool) {
	if m.tl == nil || len(m.tl.Steps) == 0 {
		return nil, false
	}
	defer m.layout()
	pick, ok := len(m.tl.Steps)-1, false
	for i, s := range m.tl.Steps {
		if uuid != "" && s.Leaf == uuid {
			pick, ok = i, true
			break
		}
		if !ok && line > 0 && s.Line >= line {
			pick, ok = i, true
		}
	}
	m.steps.Select(pick)
	return m.stateCmd(), ok
}

// Step is the index of the selected step; -1 in the session list.
func (m Model) Step() int {
	if m.tl == nil {
		return -1
	}
	return m.steps.Index()
}

// Timeline is the open timeline; nil in the session list.
func (m Model) Timeline() *timeline.Timeline { return m.tl }

// closeTimeline goes back to the session list.
func (m *Model) closeTimeline() {
	m.mode = ModeSessions
	m.tl, m.state, m.stateFor, m.pipe, m.hit = nil, nil, -1, nil, nil
	m.jump, m.chooser.open = nil, false
}

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.sessions.SetStyles(st)
	m.steps.SetStyles(st)
	m.det.SetStyles(st)
}

func (m Model) listWidth() int {
	if m.width < 100 {
		return m.width
	}
	return m.width * 11 / 20
}

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layout()
}

// layout sizes the session list, and the steps under the timeline's
// summary and nav as they are now (they wrap, so their lines change with
// the width, the session and the step): beside the detail the steps take
// the rest of the height, above it they and the header take half of it.
func (m *Model) layout() {
	// The session list leaves the rows of the selected session's title
	// when its row cuts it.
	m.sessions.SetSize(m.width, max(m.height-2-len(m.titleLines()), 1))
	n := max(m.headRows(), 2)
	lh := m.height - 1 - n
	if m.width < 100 {
		lh = m.height/2 - n
	}
	m.steps.SetSize(m.listWidth(), max(lh, 3))
}

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away.
func (m *Model) Blur() {}

// Filtering reports whether a filter line has the keyboard.
func (m Model) Filtering() bool {
	return m.sessions.Filtering() || m.steps.Filtering() || m.chooser.open
}

// ClickRow moves the cursor to the clicked row (under the two header
// lines of the session list, or the timeline's summary and nav, which
// wrap: headRows) and computes
// what the step it lands on needs, as the list keys do.
func (m *Model) ClickRow(y int) tea.Cmd {
	if m.mode != ModeSessions && m.det.Zoomed() {
		return nil
	}
	switch m.mode {
	case ModeSessions:
		m.sessions.ClickRow(y - 2)
		return nil
	case ModeTimeline:
		m.steps.ClickRow(y - m.headRows())
		return m.stateCmd()
	case ModePipeline:
		before := m.steps.Index()
		m.steps.ClickRow(y - m.headRows())
		return m.pipelineIfMoved(before, nil)
	}
	panic(badMode(m.mode))
}

// Help lists the pane's own bindings for the mode shown.
func (m Model) Help() []key.Binding {
	switch m.mode {
	case ModeSessions:
		return append(m.vaultHelp(), m.keys.Open, m.keys.Export, m.keys.ExportHTML)
	case ModeTimeline:
		if m.chooser.open {
			return m.chooserHelp()
		}
		keys := append(m.vaultHelp(), m.keys.StepNext, m.keys.StepPrev, m.keys.NextBoundary, m.keys.PrevBoundary, m.keys.Pipeline, m.keys.Window, m.keys.Export, m.keys.ExportHTML, m.keys.Back)
		keys = append(keys, m.lostHelp()...)
		return append(keys, m.det.Help()...)
	case ModePipeline:
		// The step keys move between stages here (updatePipeline): the
		// footer says so, with whatever keys the settings bound.
		return append([]key.Binding{retitled(m.keys.StepNext, "next stage"), retitled(m.keys.StepPrev, "previous stage"), m.keys.Window, m.keys.Pipeline, m.keys.Back}, m.det.Help()...)
	}
	panic(badMode(m.mode))
}

// retitled is b with its help text saying what it does in this mode.
func retitled(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// Legend explains the pane's marks.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "[kind]", Means: "a transcript that is not the main session: [subagent] an agent's (its type and task from agent-<id>.meta.json), [seed] sessions/<id>/transcript.jsonl"},
		{Mark: "compact / micro", Means: "compactions and micro-compactions recorded in the session"},
		{Mark: "▸", Means: "in the pipeline, the stage shown (←/→)"},
		{Mark: "TITLE", Means: "the name given with /rename, else the client's AI title, else the first prompt (“in quotes”)"},
		{Mark: "ACTIVE", Means: "last active: the newest record timestamp at the end of the transcript (its mtime when it has none), the Projects pane's clock"},
		m.det.Legend(),
	}
}
