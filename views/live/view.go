package live

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	englive "github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/text"
)

// recent is how long a compaction is news: the row marks it and the
// detail says it in the warning colour.
const recent = 5 * time.Minute

// project is the session's folder as the row shows it.
func project(r Row) string {
	if r.Run.CWD != "" {
		return r.Run.CWD
	}
	if r.Status != nil && r.Status.Project != "" {
		return r.Status.Project
	}
	if parts := strings.Split(r.Run.Transcript, "/"); len(parts) == 3 {
		return parts[1]
	}
	return "?"
}

const headerFormat = "  %-8s  %-15s %5s  %-11s %-10s %8s  %s"

func (v *view) renderRow(r Row, selected bool, width int) string {
	if r.Agent != nil {
		return v.renderAgent(*r.Agent, width)
	}
	proc := "-p run"
	if r.Run.Kind == englive.RunInteractive {
		proc = fmt.Sprintf("pid %d", r.Run.PID)
		if r.Run.Status != "" {
			proc += " " + model.SanitizeLine(string(r.Run.Status))
		}
	}
	ctx, level, next, active := "—", "no turn yet", "", format.Ago(v.now, r.Run.LastWrite)
	mark := "  "
	if st := r.Status; st != nil {
		if st.ContextKnown {
			ctx = fmt.Sprintf("%.0f%%", 100*st.Fill)
			level = string(st.Level)
		} else {
			level = "unknown"
		}
		next = forecastShort(st.Forecast)
		if st.AutocompactOff {
			// No autocompact: the column says so; the detail has the
			// turns left before the blocking limit.
			next = "off"
		}
		if !st.LastActivity.IsZero() {
			active = format.Ago(v.now, st.LastActivity)
		}
		if c, ok := lastCompaction(st); ok && v.now.Sub(c.Time) < recent {
			mark = "⟲ "
		}
	}
	head := fmt.Sprintf(headerFormat, short(r.Run.SessionID), text.Truncate(proc, 15), ctx, level, next, active, "")
	head = mark + head[2:]
	line := head + text.TruncateLeft(model.SanitizeLine(project(r)), max(width-lipgloss.Width(head), 8))
	if r.Status != nil && r.Status.ContextKnown {
		switch v.alarm(r.Status) {
		case window.LevelWarning:
			return v.styles.Warn.Render(line)
		case window.LevelAutocompact:
			return v.styles.Error.Render(line)
		}
	}
	return line
}

// renderAgent is a running subagent's row, under its session's: its
// type and task, its own context, tokens and last write.
func (v *view) renderAgent(a englive.Subagent, width int) string {
	name := a.AgentType
	if name == "" {
		name = "agent " + short(a.AgentID)
	}
	ctx := "—"
	if a.Responses > 0 {
		ctx = text.Tokens(int64(a.Context))
	}
	head := fmt.Sprintf("    └ %-18s ctx %-6s %6s tokens %8s  ", text.Truncate(model.SanitizeLine(name), 18), ctx,
		text.Tokens(a.Tokens), format.Ago(v.now, a.LastWrite))
	return v.styles.Dim.Render(head + text.Truncate(model.SanitizeLine(a.Description), max(width-lipgloss.Width(head), 8)))
}

// agentLines are the session's subagents in the detail: how many ran,
// and the selected (else each running) one's figures.
func (m Model) agentLines(r Row) []string {
	st, s := m.v.styles, r.Status
	if len(s.Subagents) == 0 {
		return nil
	}
	running := 0
	for _, a := range s.Subagents {
		if a.Running {
			running++
		}
	}
	lines := []string{fmt.Sprintf("subagents: %d running, %d in all", running, len(s.Subagents))}
	for _, a := range s.Subagents {
		if !a.Running || r.Agent != nil && a.AgentID != r.Agent.AgentID {
			continue
		}
		line := fmt.Sprintf("  %s %s · %s · context %s · %s tokens · started %s · last write %s",
			model.SanitizeLine(orDash(a.AgentType)), short(a.AgentID), text.Count(a.Responses, "response", ""), text.Tokens(int64(a.Context)), text.Tokens(a.Tokens),
			format.Ago(m.v.now, a.Started), format.Ago(m.v.now, a.LastWrite))
		if a.Model != "" {
			line += " · " + model.SanitizeLine(a.Model)
		}
		lines = append(lines, line)
		if a.Description != "" {
			lines = append(lines, st.Dim.Render("    "+model.SanitizeLine(a.Description)))
		}
	}
	return lines
}

func lastCompaction(st *englive.SessionStatus) (englive.Compaction, bool) {
	if len(st.Compactions) == 0 {
		return englive.Compaction{}, false
	}
	return st.Compactions[len(st.Compactions)-1], true
}

// forecastShort is the forecast in a column: "~9 turns", "due", or ""
// when there is none.
func forecastShort(f englive.Forecast) string {
	switch {
	case !f.OK:
		return ""
	case f.Turns == 0:
		return "due"
	case f.Turns == 1:
		return "~1 turn"
	}
	return fmt.Sprintf("~%d turns", f.Turns)
}

// View draws the block line, the sessions, and the selected session's
// detail.
func (m Model) View() string {
	st := m.v.styles
	if !m.loaded {
		return st.Dim.Render("reading the running sessions…")
	}
	top := m.top()
	if len(m.data.Rows) == 0 {
		return top + "\n\n" + st.Dim.Render(text.Wrap(m.emptyText(), max(m.width, 10)))
	}
	return m.det.Under(top, m.detailContent(), m.width, m.height)
}

// top is the block line, the header and the sessions.
func (m Model) top() string {
	st := m.v.styles
	return text.Truncate(m.blockLine(), m.width) + "\n" +
		st.Header.Render(text.Truncate(fmt.Sprintf(headerFormat, "SESSION", "PROCESS", "CTX", "LEVEL", "COMPACT IN", "ACTIVE", "PROJECT"), m.width)) + "\n" +
		m.list.View(m.v.renderRow)
}

// detailContent is the selected session in full.
func (m Model) detailContent() detail.Content {
	r, _ := m.list.Selected()
	lines := m.detail(r)
	if m.data.Stale > 0 {
		lines = append(lines, m.v.styles.Dim.Render(text.Truncate(format.Count(m.data.Stale, "process file", "process files")+" in sessions/ "+verb(m.data.Stale, "names", "name")+" a process that is gone", m.width)))
	}
	return detail.Content{ID: r.Run.SessionID + " " + r.Run.Transcript, Lines: lines}
}

func (m Model) emptyText() string {
	s := "Interactive sessions are found by their sessions/<pid>.json (while the process lives), `claude -p` runs by a transcript written in the last 5 minutes."
	if m.data.Stale > 0 {
		s += " " + format.Count(m.data.Stale, "process file", "process files") + " " + verb(m.data.Stale, "names", "name") + " a process that is gone."
	}
	return s
}

// blockLine is the current 5-hour usage block, as ccusage's `blocks`
// shows it.
func (m Model) blockLine() string {
	b := m.data.Block
	if b == nil {
		return m.v.styles.Dim.Render("5-hour block: none active")
	}
	s := fmt.Sprintf("5-hour block %s–%s · %s tokens · %s/min", b.Start.Local().Format("15:04"), b.End.Local().Format("15:04"),
		text.Tokens(englive.TotalTokens(b.Tokens)), text.Tokens(int64(b.TokensPerMinute)))
	if left := b.End.Sub(m.v.now); left > 0 {
		s += " · " + duration(left) + " left"
	}
	if b.ProjectedTokens > 0 {
		s += " · projected " + text.Tokens(b.ProjectedTokens)
	}
	return s
}

// duration formats a span as 2h13m, 45m or 30s.
func duration(d time.Duration) string {
	switch {
	case d >= time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}

// detail is the selected session, line by line.
func (m Model) detail(r Row) []string {
	st, w := m.v.styles, m.width
	head := model.SanitizeLine(r.Run.SessionID)
	if r.Run.Kind == englive.RunInteractive {
		head += fmt.Sprintf(" · pid %d", r.Run.PID)
	}
	s := r.Status
	if s == nil {
		return []string{head, st.Dim.Render("no transcript line yet: the session has not sent its first prompt")}
	}
	if s.Model != "" {
		head += " · " + model.SanitizeLine(s.Model)
	}
	if !s.Started.IsZero() {
		head += " · started " + format.Clock(m.v.now, s.Started)
	}
	head += " · " + text.Count(s.Records, "record", "")
	// The row cuts the project's folder at its left; here it is whole.
	lines := []string{head, "in " + model.SanitizeLine(project(r))}
	if r.Run.Evidence != "" {
		lines = append(lines, st.Dim.Render("running: "+r.Run.Evidence))
	}

	win := "window " + text.Tokens(int64(s.Window.ContextWindow))
	if s.WindowGuessed {
		win += " (guessed)"
	}
	if s.ContextKnown {
		lines = append(lines, fmt.Sprintf("context %s of %s (%.0f%%) · %s", text.Tokens(int64(s.Context)), text.Tokens(int64(s.Window.ContextWindow)), 100*s.Fill, s.Level))
	} else {
		lines = append(lines, st.Dim.Render("context unknown: no response since the last compaction"))
	}
	lines = append(lines, m.meter(s, max(w-2, 10)))
	th := s.Thresholds
	ac := "autocompact " + text.Tokens(int64(th.Autocompact))
	if s.AutocompactOff {
		ac = "no autocompact"
	}
	lines = append(lines, st.Dim.Render(fmt.Sprintf("%s: warning %s │ %s │ blocked %s", win,
		text.Tokens(int64(th.Warning)), ac, text.Tokens(int64(th.Blocked)))))
	if l := s.Limits; l != nil {
		lines = append(lines, st.Dim.Render(limitsLine(l)))
	}
	if s.AutocompactOff {
		why := "autocompact is off (autoCompactEnabled: false"
		switch {
		case s.Limits != nil && s.Limits.Off:
			why = "autocompact is off (" + model.SanitizeLine(s.Limits.OffSource)
		case s.AutocompactOffIn != "":
			why += " in " + model.SanitizeLine(s.AutocompactOffIn)
		}
		lines = append(lines, st.Warn.Render(text.Truncate(why+"): the client will not compact on its own; /compact by hand before the blocking limit", w)))
	}

	turns := fmt.Sprintf("%s · %d since the last compaction · %s", text.Count(s.Turns, "turn", ""), s.TurnsSinceCompaction, forecastLong(s.Forecast))
	lines = append(lines, turns)
	rate := fmt.Sprintf("%s tokens/min over the last %d minutes · cost so far %s", text.Tokens(int64(s.TokensPerMinute)), int(englive.DefaultRateWindow.Minutes()), format.USD(s.CostUSD))
	if s.CostPartial {
		rate += " (some responses of a model without a price)"
	}
	lines = append(lines, rate)

	if c, ok := lastCompaction(s); ok {
		kind := "compacted"
		if c.Kind != "compact" {
			kind = "microcompacted"
		}
		line := fmt.Sprintf("⟲ %s %s at line %d (%s, %s → %s tokens) · c replays it", kind, format.Ago(m.v.now, c.Time), c.Line,
			orDash(model.SanitizeLine(string(c.Trigger))), tokens(c.PreTokens), tokens(c.PostTokens))
		if m.v.now.Sub(c.Time) < recent {
			line = st.Warn.Render(line)
		}
		lines = append(lines, line)
	} else {
		lines = append(lines, st.Dim.Render("no compaction yet"))
	}
	lines = append(lines, m.agentLines(r)...)
	return append(lines, m.memoryLines(r)...)
}

// meter draws the context against the window, the three levels marked.
func (m Model) meter(s *englive.SessionStatus, width int) string {
	st := m.v.styles
	win := int64(max(s.Window.ContextWindow, 1))
	at := func(t window.Tokens) int { return min(int(int64(t)*int64(width)/win), width-1) }
	marks := map[int]bool{at(s.Thresholds.Warning): true, at(s.Thresholds.Blocked): true}
	if !s.AutocompactOff {
		marks[at(s.Thresholds.Autocompact)] = true
	}
	fill := 0
	if s.ContextKnown {
		fill = min(int(int64(s.Context)*int64(width)/win), width)
	}
	fillStyle := st.BarFill
	switch m.v.alarm(s) {
	case window.LevelWarning:
		fillStyle = st.Warn
	case window.LevelAutocompact:
		fillStyle = st.Error
	}
	// Cells go out in runs of one style: a Render per run, not per cell.
	var b strings.Builder
	for i := 0; i < width; {
		cell, style := "░", st.BarEmpty
		switch {
		case marks[i]:
			cell, style = "│", st.Warn
		case i < fill:
			cell, style = "█", fillStyle
		}
		j := i + 1
		for j < width && !marks[j] && !marks[i] && (j < fill) == (i < fill) {
			j++
		}
		b.WriteString(style.Render(strings.Repeat(cell, j-i)))
		i = j
	}
	return "[" + b.String() + "]"
}

func forecastLong(f englive.Forecast) string {
	what := "autocompact"
	if f.Target == window.LevelBlocked {
		what = "the blocking limit"
	}
	switch {
	case !f.OK:
		return "no forecast: " + f.Reason
	case f.Turns == 0:
		return what + " is due before the next request"
	}
	turns := "turns"
	if f.Turns == 1 {
		turns = "turn"
	}
	return fmt.Sprintf("~%d %s to %s (median +%s a turn over %d)", f.Turns, turns, what, text.Tokens(int64(f.Growth)), f.Steps)
}

// memoryLines are the session's memory folder and the memory files it
// wrote.
func (m Model) memoryLines(r Row) []string {
	st, w, s := m.v.styles, m.width, r.Status
	if s.MemoryDir == "" {
		return []string{st.Dim.Render("memory: auto memory is off for this session, or its folder is unknown")}
	}
	head := "memory " + model.SanitizeLine(s.MemoryDir)
	if mem := r.Memory; mem != nil {
		switch {
		case !mem.Exists:
			head += " · no folder yet"
		case mem.Index == nil:
			head += " · " + text.Count(mem.TopicFiles(), "file", "") + " · no MEMORY.md"
		default:
			ix := mem.Index
			head += fmt.Sprintf(" · %s · MEMORY.md %d/%d lines", text.Count(mem.TopicFiles(), "file", ""), ix.Lines, ix.MaxLines)
			if ix.Over() {
				head += " ✂ cut when loaded"
			}
		}
	}
	lines := []string{head}
	if len(s.MemoryWrites) == 0 {
		return append(lines, st.Dim.Render("  this session wrote no memory file"))
	}
	var parts []string
	for _, wr := range s.MemoryWrites {
		p := model.SanitizeLine(wr.Name) + " (" + model.SanitizeLine(wr.Tool)
		if wr.Count > 1 {
			p += fmt.Sprintf(" ×%d", wr.Count)
		}
		if !wr.Time.IsZero() {
			p += ", " + format.Ago(m.v.now, wr.Time)
		}
		if wr.Failed {
			p += ", failed"
		}
		parts = append(parts, p+")")
	}
	return append(lines, strings.Split(text.Wrap("written by this session: "+strings.Join(parts, " · "), max(w, 10)), "\n")...)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func tokens(p *int) string {
	if p == nil {
		return "?"
	}
	return text.Tokens(int64(*p))
}

// limitsLine says where the window and the autocompact level came from,
// whose environment was read, and that an idle session may compact
// between turns.
func limitsLine(l *window.Resolved) string {
	parts := []string{"window " + window.Short(l.Window.Tokens) + " · " + l.Window.Source}
	if !l.Off {
		parts = append(parts, l.Line())
	}
	parts = append(parts, l.EnvNote)
	if n := l.IdleNote(); n != "" {
		parts = append(parts, n)
	}
	return model.SanitizeLine(strings.Join(parts, "; "))
}

// verb is the verb for a subject of n: one when n is 1, many otherwise.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
