package replay

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/engine/timeline"
	ctxwindow "github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/hit"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

func (m Model) renderSession(s Session, selected bool, width int) string {
	info := m.sessionInfo(s)
	return info + text.Truncate(m.sessionTitle(s), max(width-lipgloss.Width(info), 8))
}

// sessionInfo is a session row's columns before its title.
func (m Model) sessionInfo(s Session) string {
	return fmt.Sprintf("%8s %6d rec %3d compact %3d micro  %9s  ", text.Bytes(s.File.Size), s.Records, s.Boundaries, s.Micro, format.Ago(m.now, s.Active.Time))
}

// titleLines are the selected session's title, wrapped (inside a word
// too), when its row cuts it; nil when the row shows it whole. The
// session list shows them under the rows.
func (m Model) titleLines() []string {
	s, ok := m.sessions.Selected()
	if !ok || m.mode != ModeSessions {
		return nil
	}
	title := m.sessionTitle(s)
	if lipgloss.Width(m.sessionInfo(s))+lipgloss.Width(title) <= m.width {
		return nil
	}
	return strings.Split(ansi.Wrap(title, max(m.width, 1), ""), "\n")
}

// sessionTitle is what a session row says the session is.
func (m Model) sessionTitle(s Session) string {
	title := model.SanitizeForTerminal(s.Title.Text)
	if s.Title.Source == sessions.TitlePrompt {
		title = "“" + title + "”"
	}
	if title == "" {
		title = m.styles.Dim.Render(format.ShortID(s.File.SessionID) + " (no title, no prompt)")
	}
	if s.File.Kind == model.TranscriptSubagent {
		title = "agent-" + s.File.AgentID + " of " + format.ShortID(s.File.SessionID)
		if s.Agent != "" {
			title += " · " + s.Agent
		}
	}
	switch s.File.Kind {
	case model.TranscriptMain:
	case model.TranscriptReplaced:
		// The client's local GC rewrote the session's transcript after a
		// compaction and kept the older copy: its earlier history.
		title = "[earlier history, .replaced copy] " + title
	default:
		title = "[" + string(s.File.Kind) + "] " + title
	}
	if s.Vault {
		title = vaultLabel + title
	}
	return title
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
		label := fmt.Sprintf("⟲ %s %s %s→%s", b.Kind, compactionName(b), fmtTok(b.PreTokens), fmtTok(b.PostTokens))
		switch {
		case b.Compaction == timeline.CompactionPartial:
			label += " " + summarizedShort(b)
		case b.Preserved != nil:
			label += " " + b.PreservesText()
		}
		if b.PreservedBroken != "" {
			label += " (links broken)"
		}
		label += m.lostLabel(s)
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

// fmtK formats a token count as 1.2k / 168k / 1.0M (text.Tokens).
func fmtK(n int) string { return text.Tokens(int64(n)) }

// View draws the session list, or the timeline beside the state at the
// selected step (ModeTimeline) or the pipeline run on it (ModePipeline).
func (m Model) View() string {
	switch m.mode {
	case ModeSessions:
		return m.sessionsView()
	case ModeTimeline, ModePipeline:
		return m.timelineView(m.nav())
	}
	panic(badMode(m.mode))
}

// followingMark says the open timeline follows its transcript's appends.
// It does not say the session is running: a session weeks old is
// followed too (Live says what runs).
const followingMark = "● following the file"

// timelineNav is the timeline's nav line; short leaves out ←/→, the
// footer's first keys.
func (m Model) timelineNav(short bool) string {
	keys := "←/→ step, [ ] compactions, p pipeline, esc sessions"
	if short {
		keys = "[ ] compactions, p pipeline, esc sessions"
	}
	nav := "step " + m.steps.Position() + " · " + keys
	if m.following && !m.isVault(m.tl.Path) {
		nav = followingMark + " · " + nav
	}
	return m.vaultNav(nav)
}

// pipelineNav is the pipeline's nav line; short leaves out ←/→, the
// footer's first keys.
func (m Model) pipelineNav(short bool) string {
	keys := "←/→ stage, ↑/↓ step, w window, esc close"
	if short {
		keys = "↑/↓ step, w window, esc close"
	}
	return "step " + m.steps.Position() + " · pipeline in a " + windows[m.window].name + " window · " + keys
}

// sideContent is what the side of the timeline shows, whole: the state
// at the selected step, or the pipeline run on it.
func (m Model) sideContent() detail.Content {
	step := m.steps.Index()
	if m.mode == ModePipeline {
		return detail.Content{ID: fmt.Sprintf("pipeline %d %d %d", step, m.window, m.pipeStage), Lines: m.pipelineLines()}
	}
	return detail.Content{ID: fmt.Sprintf("state %d", step), Lines: m.stateLines()}
}

// sideArea is where the side is drawn: beside the steps from 100
// columns, else under them; the whole pane when zoomed.
func (m Model) sideArea() detail.Area {
	if m.width < 100 {
		return m.det.Area(m.timelineLeft(m.nav()), m.width, m.height)
	}
	return m.det.BesideArea(m.listWidth(), m.width, m.height)
}

// sessionsView is the session list under its header.
func (m Model) sessionsView() string {
	head := "Sessions of this project — enter to replay one"
	if m.listing != "" {
		head = "Sessions of this project — loading sessions…"
	}
	if m.loading != "" {
		head = "reading " + m.loading + "…"
	}
	out := m.styles.Dim.Render(text.Truncate(head, m.width)) + "\n" +
		m.styles.Header.Render(text.Truncate(fmt.Sprintf("%8s %10s %11s %9s  %9s  %s", "SIZE", "RECORDS", "COMPACT", "MICRO", "ACTIVE", "TITLE"), m.width)) + "\n" +
		m.sessions.View(m.renderSession)
	if whole := m.titleLines(); len(whole) > 0 {
		// The list leaves their rows (layout).
		out += "\n" + m.styles.Dim.Render(strings.Join(whole, "\n"))
	}
	return out
}

// timelineView is the steps under the session's summary and nav (the
// keys of the mode), with the side (sideContent) beside them (under them
// on a narrow screen), scrollable and zoomable.
func (m Model) timelineView(nav string) string {
	if m.width < 100 {
		return m.det.Under(m.timelineLeft(nav), m.sideContent(), m.width, m.height)
	}
	return m.det.Beside(m.timelineLeft(nav), m.listWidth(), m.sideContent(), m.width, m.height)
}

// timelineLeft is the session's summary, nav and the steps.
func (m Model) timelineLeft(nav string) string {
	return m.timelineHead(nav) + "\n" + m.steps.View(m.renderStep)
}

// timelineHead is the session's summary and nav, each wrapped at the
// steps' width (not cut: the nav holds the mode's keys, the summary the
// window's levels), so it takes two lines or more: headRows counts them,
// and the steps and their clicks go under them.
func (m Model) timelineHead(nav string) string {
	th := m.tl.Thresholds
	head := fmt.Sprintf("%s · %s · %s · window %s: warn %s, autocompact %s, blocked %s",
		m.tl.Session, text.Count(m.tl.Records, "record", ""), text.Count(len(m.tl.Boundaries), "compaction", ""), fmtK(int(m.tl.Window.ContextWindow)), fmtK(int(th.Warning)), fmtK(int(th.Autocompact)), fmtK(int(th.Blocked)))
	if l := m.tl.Limits; l != nil && l.ShortSource() != "" {
		// The level moved from the default: say where it is and why
		// first.
		head = fmt.Sprintf("%s · window %s: warn %s, blocked %s · %s · %s · %s", l.Line(), fmtK(int(m.tl.Window.ContextWindow)), fmtK(int(th.Warning)), fmtK(int(th.Blocked)),
			m.tl.Session, text.Count(m.tl.Records, "record", ""), text.Count(len(m.tl.Boundaries), "compaction", ""))
	}
	// The session's name is the transcript's file name: any text.
	head = model.SanitizeLine(head)
	w := max(m.listWidth(), 1)
	h, _ := text.Head(head, w, m.styles.Dim)
	n, _ := text.Head(nav, w, m.styles.Dim)
	return h + "\n" + n
}

// nav is the open mode's nav line: where the cursor is and the keys,
// without ←/→ when the line does not fit the steps' width (the footer
// shows them first).
func (m Model) nav() string {
	nav := m.timelineNav
	if m.mode == ModePipeline {
		nav = m.pipelineNav
	}
	if full := nav(false); lipgloss.Width(full) <= m.listWidth() {
		return full
	}
	return nav(true)
}

// headRows is how many lines the timeline's summary and nav take above
// the steps (0 in the session list).
func (m Model) headRows() int {
	if m.tl == nil || m.mode == ModeSessions {
		return 0
	}
	return strings.Count(m.timelineHead(m.nav()), "\n") + 1
}

// detailWidth is the width of the side of the timeline that shows the
// selected step: beside the steps, or under them on a narrow screen; the
// whole pane when zoomed (its lines are made for the width they show at).
func (m Model) detailWidth() int {
	if m.width < 100 || m.det.Zoomed() {
		return m.width
	}
	return m.width - m.listWidth() - 1
}

// stateLines is what the model saw at the selected step.
func (m Model) stateLines() []string {
	w := m.detailWidth()
	s, ok := m.steps.Selected()
	if !ok {
		return nil
	}
	var lines []string
	title := fmt.Sprintf("Step %d: after a response", s.Index+1)
	if s.Kind == timeline.StepBoundary {
		b := m.tl.Boundaries[s.Boundary]
		title = fmt.Sprintf("Step %d: after a %s compaction (%s)", s.Index+1, b.Kind, compactionName(b))
	}
	lines = append(lines, m.styles.Bold.Render(title))
	if h := m.hit; h != nil {
		lines = append(lines, m.hitLines(*h, w)...)
	}
	lines = append(lines, m.jumpLines(w)...)
	lines = append(lines, m.styles.Dim.Render(fmt.Sprintf("measured %d tokens (client figure) · estimated %d by category:", s.Measured, s.Context.Total())))
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
		lines = append(lines, m.lostLines(s, w)...)
	}
	lines = append(lines, "")
	if m.state == nil || m.stateFor != s.Index {
		lines = append(lines, m.styles.Dim.Render("walking the chain…"))
	} else {
		lines = append(lines, m.chainLines(*m.state, w)...)
	}
	return lines
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
	if b.Compaction == timeline.CompactionPartial {
		out = append(out, text.Truncate("rewind-menu partial: "+summarizedCount(b)+" summarized", w))
		if d := b.DirectionText(); d != "" {
			out = append(out, text.Truncate(d, w))
		}
	}
	if b.Preserved != nil {
		out = append(out, text.Truncate(b.PreservesText()+", relinked after the summary on resume", w))
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
	out = append(out, m.styles.Bold.Render(text.Truncate(fmt.Sprintf("The model saw %s, from %s:", text.Count(len(r.Messages), "message", ""), from), w)))
	if r.Fallback {
		out = append(out, m.styles.Error.Render(text.Truncate("fallback: "+r.FallbackReason, w)))
	}
	if len(r.Preserved) > 0 {
		out = append(out, m.styles.Dim.Render(text.Truncate(text.Count(len(r.Preserved), "preserved message", "")+" relinked after the summary", w)))
	}
	recs := r.Messages
	const show = 12
	first := max(len(recs)-show, 0)
	marked := m.markedUUID()
	if marked != "" {
		// The search hit's (or the opened lost item's) message stays in
		// view.
		for i, rec := range recs {
			if rec.UUID == marked && i < first {
				first = max(i-show/2, 0)
			}
		}
	}
	if first > 0 {
		out = append(out, m.styles.Dim.Render(fmt.Sprintf("… %d earlier", first)))
	}
	end := min(first+show, len(recs))
	// A message a row cuts is read whole in the zoom: there each wraps.
	fit := func(line string) []string { return []string{text.Truncate(line, w)} }
	if m.det.Zoomed() {
		fit = func(line string) []string { return strings.Split(text.Wrap(line, w), "\n") }
	}
	for _, rec := range recs[first:end] {
		if marked != "" && rec.UUID == marked {
			for _, l := range fit("▶ " + describe(rec)) {
				out = append(out, m.styles.Warn.Render(l))
			}
			continue
		}
		out = append(out, fit(describe(rec))...)
	}
	if end < len(recs) {
		out = append(out, m.styles.Dim.Render(fmt.Sprintf("… %d later", len(recs)-end)))
	}
	return out
}

// hitLines show the search hit the pane was opened at: where it is, and
// its snippet with the match marked.
func (m Model) hitLines(h msgs.Highlight, w int) []string {
	return hit.Header(hit.Spot{Line: h.Line, Where: h.Where, Seeing: h.Seeing, Snippet: h.Snippet, Match: h.Match}, m.styles, w)
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

// pipelineLines are the five stages run on the selected step's state.
func (m Model) pipelineLines() []string {
	w := m.detailWidth()
	s, ok := m.steps.Selected()
	if !ok {
		return nil
	}
	lines := []string{m.styles.Bold.Render(fmt.Sprintf("Pipeline on step %d, %s window (nothing is written)", s.Index+1, windows[m.window].name))}
	if m.pipe == nil || m.pipeFor != s.Index {
		if m.pipeErr != nil {
			return append(lines, m.styles.Error.Render(m.pipeErr.Error()))
		}
		return append(lines, m.styles.Dim.Render("running…"))
	}
	r := m.pipe
	wc := windows[m.window].w
	lines = append(lines, fmt.Sprintf("context %s → %s · autocompact at %s · %s", fmtK(int(r.Before)), fmtK(int(r.After)), fmtK(int(wc.AutocompactAt())), fitsText(r)))
	if len(r.Stages) == 0 {
		lines = append(lines, m.styles.OK.Render("under the autocompact threshold: no stage runs"))
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
		lines = append(lines, m.styles.Bold.Render(fmt.Sprintf("%s: %s → %s tokens, %s", st.Stage, fmtK(int(st.Before)), fmtK(int(st.After)), text.Count(st.Items, "item", ""))))
		for _, l := range strings.Split(text.Wrap(st.Detail, w), "\n") {
			lines = append(lines, l)
		}
	}
	return lines
}

func fitsText(r *compact.Result) string {
	if r.Fits {
		return "fits"
	}
	return "still over"
}

// compactionName is a compact boundary's kind (auto, manual, partial), or
// its trigger when the kind is unknown.
func compactionName(b timeline.BoundaryInfo) string {
	if b.Compaction != "" {
		return string(b.Compaction)
	}
	return string(b.Trigger)
}

// summarizedCount says how many messages a partial compaction summarized.
func summarizedCount(b timeline.BoundaryInfo) string {
	if b.MessagesSummarized == nil {
		return "an unrecorded number of messages"
	}
	return text.Count(*b.MessagesSummarized, "message", "")
}

// summarizedShort is a partial compaction's direction and count for a row.
func summarizedShort(b timeline.BoundaryInfo) string {
	n := "?"
	if b.MessagesSummarized != nil {
		n = fmt.Sprint(*b.MessagesSummarized)
	}
	switch b.Direction {
	case model.SummarizeFrom:
		return "from here: " + n + " summarized"
	case model.SummarizeUpTo:
		return "up to here: " + n + " summarized"
	}
	return n + " summarized"
}
