// Package replay is the Replay pane: a project's sessions, and for one
// session its compaction timeline with token bars. Step through turns and
// boundaries and see what the model saw at each step: the context by
// category and the messages of the resume chain.
package replay

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/engine/timeline"
	ctxwindow "github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
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
	First      time.Time
	Last       time.Time
	Title      string
}

// Model is the Replay pane.
type Model struct {
	keys     keymap.KeyMap
	styles   style.Styles
	sessions list.Model[Session]
	steps    list.Model[timeline.Step]
	tl       *timeline.Timeline
	state    *timeline.Resume
	stateFor int
	loading  string
	now      time.Time
	width    int
	height   int

	// The pipeline view: the five stages run on the state at step
	// pipeFor, in window windows[window].
	pipe      *compact.Result
	pipeErr   error
	pipeFor   int
	pipeStage int
	showPipe  bool
	window    int
	// autocompactOff: the settings turn autocompact off for this session.
	autocompactOff bool
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

// PipelineMsg carries a pipeline run on one step's state.
type PipelineMsg struct {
	k      int
	tl     *timeline.Timeline
	window int
	res    compact.Result
	err    error
}

// pipelineCmd runs the five-stage pipeline on what the model saw at the
// selected step, off the update loop. Nothing is written anywhere.
func (m *Model) pipelineCmd() tea.Cmd {
	tl, k, wi, now, off := m.tl, m.steps.Index(), m.window, m.now, m.autocompactOff
	if tl == nil || k < 0 {
		return nil
	}
	return func() tea.Msg {
		st := tl.State(k)
		in := compact.InputFromResume(tl.Transcript(), st)
		cfg := compact.DefaultConfig(windows[wi].w)
		cfg.NewUUID = func() string { return "00000000-0000-4000-8000-000000000000" }
		cfg.AutocompactOff = off
		res, err := compact.Run(in, cfg, &compact.State{}, now)
		return PipelineMsg{k: k, tl: tl, window: wi, res: res, err: err}
	}
}

// StateMsg carries the resume state at a step, computed off the update
// loop; the root routes it back to the pane.
type StateMsg struct {
	k     int
	tl    *timeline.Timeline
	state timeline.Resume
}

// New returns an empty Replay pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: keys, styles: st, stateFor: -1}
	m.sessions = list.New(keys, st, func(s Session) string { return s.File.SessionID + " " + s.Title }, m.renderSession)
	m.sessions.Empty = "no sessions for this project"
	m.steps = list.New(keys, st, func(s timeline.Step) string { return string(s.Kind) }, m.renderStep)
	m.steps.Empty = "this session has no turns"
	return m
}

// Title names the pane.
func (m Model) Title() string { return "Replay" }

// SetSessions shows a project's sessions and leaves any open timeline.
func (m *Model) SetSessions(ss []Session, now time.Time) {
	m.now = now
	m.sessions.Render = m.renderSession
	m.sessions.SetItems(ss)
}

// SetTimeline opens a session's timeline at its last step. autocompactOff
// is settings.json's autoCompactEnabled: false for the session, which the
// pipeline view honours.
func (m *Model) SetTimeline(tl *timeline.Timeline, autocompactOff bool) tea.Cmd {
	m.tl, m.loading, m.state, m.stateFor = tl, "", nil, -1
	m.autocompactOff = autocompactOff
	m.steps.Render = m.renderStep
	m.steps.SetItems(tl.Steps)
	m.steps.Select(len(tl.Steps) - 1)
	return m.stateCmd()
}

// SetLoading says a timeline is being read.
func (m *Model) SetLoading(path string) { m.loading = path }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.sessions.SetStyles(st)
	m.steps.SetStyles(st)
	m.sessions.Render = m.renderSession
	m.steps.Render = m.renderStep
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
	m.sessions.SetSize(w, h-2)
	lh := h - 3
	if w < 100 {
		lh = max(h/2-2, 3)
	}
	m.steps.SetSize(m.listWidth(), lh)
}

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away.
func (m *Model) Blur() {}

// Filtering reports whether a filter line has the keyboard.
func (m Model) Filtering() bool { return m.sessions.Filtering() || m.steps.Filtering() }

// ClickRow moves the cursor to the clicked row.
func (m *Model) ClickRow(y int) {
	if m.tl == nil {
		m.sessions.ClickRow(y - 2)
		return
	}
	m.steps.ClickRow(y - 3)
}

// Help lists the pane's own bindings.
func (m Model) Help() []key.Binding {
	if m.tl == nil {
		return []key.Binding{m.keys.Open, m.keys.Export, m.keys.ExportHTML}
	}
	if m.showPipe {
		return []key.Binding{m.keys.StepNext, m.keys.StepPrev, m.keys.Window, m.keys.Pipeline, m.keys.Back}
	}
	return []key.Binding{m.keys.StepNext, m.keys.StepPrev, m.keys.NextBoundary, m.keys.PrevBoundary, m.keys.Pipeline, m.keys.Window, m.keys.Export, m.keys.ExportHTML, m.keys.Back}
}

// exportCmd asks the root to export the session at path: Markdown for
// the Export key, HTML for ExportHTML.
func exportCmd(k tea.KeyPressMsg, keys keymap.KeyMap, path string) tea.Cmd {
	format := "md"
	if key.Matches(k, keys.ExportHTML) {
		format = "html"
	}
	return func() tea.Msg { return msgs.ExportSession{Path: path, Format: format} }
}

// stateCmd computes what the model saw at the selected step.
func (m *Model) stateCmd() tea.Cmd {
	tl, k := m.tl, m.steps.Index()
	if tl == nil || k < 0 || k == m.stateFor {
		return nil
	}
	return func() tea.Msg { return StateMsg{k: k, tl: tl, state: tl.State(k)} }
}

// Update handles keys and computed states.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch s := msg.(type) {
	case StateMsg:
		if s.tl == m.tl {
			m.state, m.stateFor = &s.state, s.k
		}
		return m, nil
	case PipelineMsg:
		if s.tl == m.tl && s.window == m.window {
			m.pipe, m.pipeErr, m.pipeFor, m.pipeStage = &s.res, s.err, s.k, 0
		}
		return m, nil
	}
	if m.tl == nil {
		var cmd tea.Cmd
		var handled bool
		m.sessions, cmd, handled = m.sessions.Update(msg)
		if handled {
			return m, cmd
		}
		if k, ok := msg.(tea.KeyPressMsg); ok && (key.Matches(k, m.keys.Export) || key.Matches(k, m.keys.ExportHTML)) {
			if s, ok := m.sessions.Selected(); ok {
				return m, exportCmd(k, m.keys, s.File.Path)
			}
		}
		if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.keys.Open) {
			if s, ok := m.sessions.Selected(); ok {
				p := s.File.Path
				m.loading = p
				return m, func() tea.Msg { return msgs.ReplaySession{Path: p} }
			}
		}
		return m, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, m.keys.Back) && m.showPipe:
			m.showPipe = false
			return m, nil
		case key.Matches(k, m.keys.Back) && m.steps.FilterValue() == "":
			m.tl, m.state, m.stateFor, m.pipe = nil, nil, -1, nil
			return m, nil
		case (key.Matches(k, m.keys.Export) || key.Matches(k, m.keys.ExportHTML)) && m.tl.Path != "":
			return m, exportCmd(k, m.keys, m.tl.Path)
		case key.Matches(k, m.keys.Pipeline):
			m.showPipe = !m.showPipe
			if m.showPipe {
				m.pipe = nil
				return m, m.pipelineCmd()
			}
			return m, nil
		case key.Matches(k, m.keys.Window):
			m.window = (m.window + 1) % len(windows)
			m.pipe = nil
			if m.showPipe {
				return m, m.pipelineCmd()
			}
			return m, nil
		case m.showPipe && key.Matches(k, m.keys.StepNext):
			if m.pipe != nil && m.pipeStage < len(m.pipe.Stages)-1 {
				m.pipeStage++
			}
			return m, nil
		case m.showPipe && key.Matches(k, m.keys.StepPrev):
			if m.pipeStage > 0 {
				m.pipeStage--
			}
			return m, nil
		case key.Matches(k, m.keys.StepNext):
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case key.Matches(k, m.keys.StepPrev):
			msg = tea.KeyPressMsg{Code: tea.KeyUp}
		case key.Matches(k, m.keys.NextBoundary):
			m.jumpBoundary(+1)
			return m, m.stateCmd()
		case key.Matches(k, m.keys.PrevBoundary):
			m.jumpBoundary(-1)
			return m, m.stateCmd()
		}
	}
	var cmd tea.Cmd
	before := m.steps.Index()
	m.steps, cmd, _ = m.steps.Update(msg)
	if m.showPipe && m.steps.Index() != before {
		m.pipe = nil
		return m, tea.Batch(cmd, m.stateCmd(), m.pipelineCmd())
	}
	return m, tea.Batch(cmd, m.stateCmd())
}

// jumpBoundary moves to the next (+1) or previous (-1) boundary step.
func (m *Model) jumpBoundary(dir int) {
	steps := m.steps.Items()
	for i := m.steps.Index() + dir; i >= 0 && i < len(steps); i += dir {
		if steps[i].Kind == timeline.StepBoundary {
			m.steps.Select(i)
			return
		}
	}
}

func (m Model) renderSession(s Session, selected bool, width int) string {
	title := s.Title
	if title == "" {
		title = s.File.SessionID
	}
	if s.File.Kind != model.TranscriptMain {
		title = "[" + string(s.File.Kind) + "] " + title
	}
	info := fmt.Sprintf("%8s %6d rec %3d compact %3d micro  %9s  ", text.Bytes(s.File.Size), s.Records, s.Boundaries, s.Micro, text.Ago(m.now, s.Last))
	return info + text.Truncate(model.SanitizeForTerminal(title), max(width-lipgloss.Width(info), 8))
}

// tokenBar draws v against the window, marking the autocompact level.
func (m Model) tokenBar(v ctxwindow.Tokens, width int) string {
	if m.tl == nil || width <= 0 {
		return ""
	}
	window := int64(m.tl.Window.ContextWindow)
	bar := m.styles.Bar(int64(v), window, width)
	return bar
}

func (m Model) renderStep(s timeline.Step, selected bool, width int) string {
	when := s.Timestamp.Local().Format("15:04:05")
	barW := max(min(width-48, 40), 5)
	if s.Kind == timeline.StepBoundary && m.tl != nil {
		b := m.tl.Boundaries[s.Boundary]
		label := fmt.Sprintf("⟲ %s %s %s→%s", b.Kind, b.Trigger, fmtTok(b.PreTokens), fmtTok(b.PostTokens))
		if b.Preserved != nil {
			label += " partial"
		}
		if b.PreservedBroken != "" {
			label += " (links broken)"
		}
		return m.styles.Warn.Render(fmt.Sprintf("%4d %s %s", s.Index+1, when, text.Truncate(label, max(width-15, 8))))
	}
	lvl := ""
	if m.tl != nil && s.Turn >= 0 {
		switch m.tl.Turns[s.Turn].Level {
		case ctxwindow.LevelWarning:
			lvl = m.styles.Warn.Render(" warn")
		case ctxwindow.LevelAutocompact:
			lvl = m.styles.Error.Render(" compact!")
		case ctxwindow.LevelBlocked:
			lvl = m.styles.Error.Render(" blocked")
		}
	}
	return fmt.Sprintf("%4d %s %7s %s%s", s.Index+1, when, fmtK(int(s.Measured)), m.tokenBar(s.Measured, barW), lvl)
}

func fmtTok(p *int) string {
	if p == nil {
		return "?"
	}
	return fmtK(*p)
}

// fmtK formats a token count as 1.2k / 168k.
func fmtK(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d", n)
	case n < 10000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%dk", n/1000)
}

// View draws the session list, or the timeline and the state at the step.
func (m Model) View() string {
	if m.tl == nil {
		head := "Sessions of this project — enter to replay one"
		if m.loading != "" {
			head = "reading " + m.loading + "…"
		}
		return m.styles.Dim.Render(text.Truncate(head, m.width)) + "\n" +
			m.styles.Header.Render(text.Truncate(fmt.Sprintf("%8s %10s %11s %9s  %9s  %s", "SIZE", "RECORDS", "COMPACT", "MICRO", "LAST", "TITLE"), m.width)) + "\n" +
			m.sessions.View()
	}
	th := m.tl.Thresholds
	head := fmt.Sprintf("%s · %d records · %d compactions · window %s: warn %s, autocompact %s, blocked %s",
		m.tl.Session, m.tl.Records, len(m.tl.Boundaries), fmtK(int(m.tl.Window.ContextWindow)), fmtK(int(th.Warning)), fmtK(int(th.Autocompact)), fmtK(int(th.Blocked)))
	nav := "step " + m.steps.Position() + " · ←/→ step, [ ] compactions, p pipeline, esc sessions"
	if m.showPipe {
		nav = "step " + m.steps.Position() + " · pipeline in a " + windows[m.window].name + " window · ←/→ stage, ↑/↓ step, w window, esc close"
	}
	left := m.styles.Dim.Render(text.Truncate(head, m.listWidth())) + "\n" +
		m.styles.Dim.Render(text.Truncate(nav, m.listWidth())) + "\n" +
		m.steps.View()
	right := m.stateView()
	if m.showPipe {
		right = m.pipelineView()
	}
	if m.width < 100 {
		return m.styles.Divided(m.width, left, right)
	}
	left = lipgloss.NewStyle().Width(m.listWidth()).Render(left)
	sep := m.styles.Dim.Render(strings.TrimRight(strings.Repeat("│\n", max(m.height, 1)), "\n"))
	return lipgloss.JoinHorizontal(lipgloss.Top, left, sep, right)
}

// stateView shows what the model saw at the selected step.
func (m Model) stateView() string {
	w := m.width - m.listWidth() - 1
	if m.width < 100 {
		w = m.width
	}
	s, ok := m.steps.Selected()
	if !ok {
		return ""
	}
	var lines []string
	title := fmt.Sprintf("Step %d: after a response", s.Index+1)
	if s.Kind == timeline.StepBoundary {
		b := m.tl.Boundaries[s.Boundary]
		title = fmt.Sprintf("Step %d: after a %s compaction (%s)", s.Index+1, b.Kind, b.Trigger)
	}
	lines = append(lines, m.styles.Bold.Render(text.Truncate(title, w)))
	lines = append(lines, m.styles.Dim.Render(text.Truncate(fmt.Sprintf("measured %d tokens (client figure) · estimated %d by category:", s.Measured, s.Context.Total()), w)))
	c := s.Context
	barW := max(min(w-30, 30), 5)
	total := max(int64(c.Total()), 1)
	for _, cat := range []struct {
		name string
		v    ctxwindow.Tokens
	}{{"system+tools", c.System}, {"instructions", c.Instructions}, {"memory", c.Memory}, {"conversation", c.Conversation}, {"tool results", c.ToolResults}} {
		lines = append(lines, fmt.Sprintf("%-13s %7s %s", cat.name, fmtK(int(cat.v)), m.styles.Bar(int64(cat.v), total, barW)))
	}
	if s.Kind == timeline.StepBoundary {
		lines = append(lines, "")
		lines = append(lines, m.boundaryLines(m.tl.Boundaries[s.Boundary], w)...)
	}
	lines = append(lines, "")
	if m.state == nil || m.stateFor != s.Index {
		lines = append(lines, m.styles.Dim.Render("walking the chain…"))
	} else {
		lines = append(lines, m.chainLines(*m.state, w)...)
	}
	h := m.height
	if m.width < 100 {
		h = m.height - m.height/2 - 1
	}
	if len(lines) > h {
		lines = lines[:max(h, 1)]
	}
	return strings.Join(lines, "\n")
}

func (m Model) boundaryLines(b timeline.BoundaryInfo, w int) []string {
	var out []string
	out = append(out, m.styles.Warn.Render(text.Truncate(fmt.Sprintf("compacted %s → %s tokens in %s", fmtTok(b.PreTokens), fmtTok(b.PostTokens), fmtDur(b.DurationMs)), w)))
	if b.CumulativeDroppedTokens != nil {
		out = append(out, text.Truncate(fmt.Sprintf("dropped so far in this session: %s tokens", fmtK(*b.CumulativeDroppedTokens)), w))
	}
	if b.TokensSaved != nil {
		out = append(out, text.Truncate(fmt.Sprintf("microcompact cleared old tool results: %s tokens saved", fmtK(*b.TokensSaved)), w))
	}
	if b.SummaryUUID != "" {
		out = append(out, text.Truncate(fmt.Sprintf("summary message: %d bytes", b.SummaryBytes), w))
	}
	if b.Preserved != nil {
		out = append(out, text.Truncate("partial: a preserved segment is relinked after the summary on resume", w))
	}
	if b.PreservedBroken != "" {
		out = append(out, m.styles.Error.Render(text.Truncate("preserved links broken: "+b.PreservedBroken+" — resume loads the full history", w)))
	}
	return out
}

func fmtDur(ms *int) string {
	if ms == nil {
		return "? ms"
	}
	return (time.Duration(*ms) * time.Millisecond).String()
}

// chainLines lists the messages the model saw, newest last.
func (m Model) chainLines(r timeline.Resume, w int) []string {
	var out []string
	from := "the start of the session"
	if r.FromBoundary != "" {
		from = "the compaction boundary"
	}
	out = append(out, m.styles.Bold.Render(text.Truncate(fmt.Sprintf("The model saw %d messages, from %s:", len(r.Messages), from), w)))
	if r.Fallback {
		out = append(out, m.styles.Error.Render(text.Truncate("fallback: "+r.FallbackReason, w)))
	}
	if len(r.Preserved) > 0 {
		out = append(out, m.styles.Dim.Render(text.Truncate(fmt.Sprintf("%d preserved message(s) relinked after the summary", len(r.Preserved)), w)))
	}
	msgs := r.Messages
	const show = 12
	if len(msgs) > show {
		out = append(out, m.styles.Dim.Render(fmt.Sprintf("… %d earlier", len(msgs)-show)))
		msgs = msgs[len(msgs)-show:]
	}
	for _, rec := range msgs {
		out = append(out, text.Truncate(describe(rec), w))
	}
	return out
}

// describe is a one-line view of a chain record.
func describe(r *model.Record) string {
	kind := r.Type
	switch {
	case r.IsCompactBoundary():
		return "── compact boundary ──"
	case r.IsMicrocompactBoundary():
		return "── microcompact boundary ──"
	case r.IsCompactSummary:
		kind = "summary"
	}
	body := ""
	if r.Message != nil {
		for _, b := range r.Message.Content {
			switch b.Type {
			case model.BlockText:
				if body == "" {
					body = b.Text
				}
			case model.BlockToolUse:
				body += " [" + b.Name + "]"
			case model.BlockToolResult:
				body += fmt.Sprintf(" [result %s]", text.Bytes(int64(b.Bytes)))
			}
		}
	}
	if body == "" && r.AttachmentType != "" {
		body = r.AttachmentType
	}
	return fmt.Sprintf("%-9s %s", kind, text.OneLine(model.SanitizeForTerminal(strings.TrimSpace(body))))
}

// pipelineView shows the five stages run on the selected step's state.
func (m Model) pipelineView() string {
	w := m.width - m.listWidth() - 1
	if m.width < 100 {
		w = m.width
	}
	s, ok := m.steps.Selected()
	if !ok {
		return ""
	}
	lines := []string{m.styles.Bold.Render(text.Truncate(fmt.Sprintf("Pipeline on step %d, %s window (nothing is written)", s.Index+1, windows[m.window].name), w))}
	if m.pipe == nil || m.pipeFor != s.Index {
		if m.pipeErr != nil {
			return strings.Join(append(lines, m.styles.Error.Render(m.pipeErr.Error())), "\n")
		}
		return strings.Join(append(lines, m.styles.Dim.Render("running…")), "\n")
	}
	r := m.pipe
	wc := windows[m.window].w
	lines = append(lines, text.Truncate(fmt.Sprintf("context %s → %s · autocompact at %s · %s", fmtK(int(r.Before)), fmtK(int(r.After)), fmtK(int(wc.AutocompactAt())), fitsText(r)), w))
	if len(r.Stages) == 0 {
		lines = append(lines, m.styles.OK.Render(text.Truncate("under the autocompact threshold: no stage runs", w)))
	}
	barW := max(min(w-44, 30), 5)
	for i, st := range r.Stages {
		mark := "  "
		if i == m.pipeStage {
			mark = "▸ "
		}
		acted := m.styles.Dim.Render("no change")
		if st.Acted {
			acted = m.styles.OK.Render(fmt.Sprintf("freed %s", fmtK(int(st.Freed))))
		}
		lines = append(lines, fmt.Sprintf("%s%d %-18s %7s %s %s", mark, i+1, st.Stage, fmtK(int(st.After)), m.styles.Bar(int64(st.After), int64(wc.ContextWindow), barW), acted))
	}
	if m.pipeStage < len(r.Stages) {
		st := r.Stages[m.pipeStage]
		lines = append(lines, "")
		lines = append(lines, m.styles.Bold.Render(text.Truncate(fmt.Sprintf("%s: %s → %s tokens, %d item(s)", st.Stage, fmtK(int(st.Before)), fmtK(int(st.After)), st.Items), w)))
		for _, l := range strings.Split(text.Wrap(st.Detail, w), "\n") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

func fitsText(r *compact.Result) string {
	if r.Fits {
		return "fits"
	}
	return "still over"
}
