package files

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/text"
)

// clean makes text from transcripts and backups safe to print.
func clean(s string) string { return text.OneLine(model.SanitizeForTerminal(s)) }

func rowText(r Row) string {
	switch {
	case r.Session != nil:
		return string(r.Session.SessionID) + " " + r.Session.Transcript
	case r.Turn != nil:
		return r.Turn.MessageID + " " + r.Turn.Prompt
	case r.File != nil:
		return r.File.TrackingPath + " " + r.File.Target
	case r.Version != nil:
		return fmt.Sprintf("v%d %s", r.Version.Version, r.Version.BackupFileName)
	}
	return ""
}

func (m Model) renderRow(r Row, _ bool, width int) string {
	var line string
	switch {
	case r.Session != nil:
		s := r.Session
		tr := s.Transcript
		if tr == "" {
			tr = "(transcript gone)"
		}
		// "1 backup", "12 backups" in the 11 cells "%3d backups" took.
		n, noun, _ := strings.Cut(text.Count(s.Backups, "backup", ""), " ")
		line = fmt.Sprintf("%s  %s  %3s %-7s %9s  %s", format.ShortID(string(s.SessionID)), format.Timestamp(s.ModTime), n, noun, text.Bytes(s.Bytes), clean(tr))
	case r.Turn != nil:
		t := r.Turn
		prompt := clean(t.Prompt)
		if prompt == "" {
			prompt = m.styles.Dim.Render("(prompt not in the transcript)")
		}
		head := fmt.Sprintf("%s  %s  touched %2d  ", format.Timestamp(t.Time), format.ShortID(t.MessageID), len(t.Touched))
		line = head + prompt
		if t.Synthesized {
			line += m.styles.Warn.Render("  [snapshot record missing]")
		}
	case r.File != nil:
		line = m.fileRow(r.File)
	case r.Version != nil:
		line = m.versionRow(r.Version)
	}
	// The list cuts rows to its width (ANSI-aware).
	return line
}

// fileRow is a tracked file at the chosen turn: the version the turn's
// snapshot holds (or what /rewind would use) and whether the turn
// touched it.
func (m Model) fileRow(f *filehist.TrackedFile) string {
	mark, at := "  ", m.styles.Dim.Render("not in the snapshot: rewind uses v1")
	if m.turn != nil && m.session != nil && m.session.History != nil {
		if sn := m.session.History.Snapshot(m.turn.MessageID); sn != nil {
			if b, ok := sn.Files[f.TrackingPath]; ok {
				at = versionLabel(b.Version, b.FileAbsent)
			}
		}
		for _, t := range m.turn.Touched {
			if t.TrackingPath == f.TrackingPath {
				mark = m.styles.OK.Render("● ")
				at += "  " + string(t.How)
			}
		}
	}
	return fmt.Sprintf("%s%-32s %s", mark, clean(f.TrackingPath), at)
}

func versionLabel(v int, absent bool) string {
	if absent {
		return fmt.Sprintf("v%d (did not exist)", v)
	}
	return fmt.Sprintf("v%d", v)
}

func (m Model) versionRow(v *filehist.FileVersion) string {
	var state string
	switch {
	case v.Absent:
		state = "did not exist (restoring deletes the file)"
	case !v.BackupExists:
		state = m.styles.Error.Render("backup missing")
	default:
		state = text.Bytes(v.Size)
	}
	if v.Unreferenced {
		state += m.styles.Dim.Render("  no record names it")
	}
	mark := "  "
	if m.turn != nil {
		for _, t := range v.Turns {
			if t == m.turn.MessageID {
				mark = m.styles.OK.Render("● ")
			}
		}
	}
	return fmt.Sprintf("%sv%-3d %s  %s", mark, v.Version, format.Timestamp(v.BackupTime), state)
}

// crumbs says where the pane is.
func (m Model) crumbs() string {
	parts := []string{"sessions with file history"}
	if m.level >= LevelTurns {
		id := m.loading
		if m.session != nil {
			id = string(m.session.SessionID)
		}
		parts = append(parts, "session "+format.ShortID(id))
	}
	if m.level >= LevelFiles && m.turn != nil {
		parts = append(parts, "turn "+format.ShortID(m.turn.MessageID))
	}
	if m.level >= LevelVersions && m.file != nil {
		parts = append(parts, clean(m.file.TrackingPath))
	}
	return strings.Join(parts, " › ")
}

// View draws the header, the list and the detail of the selected row.
func (m Model) View() string {
	// The detail takes every row the list leaves (a short list leaves
	// more room for a diff), less the divider.
	return m.det.Under(m.top(), m.detailContent(), m.width, m.height)
}

// top is the crumbs (or the question) over the list.
func (m Model) top() string {
	return m.head() + "\n" + m.list.View(m.renderRow)
}

// head is the crumbs and the position, or the restore question, wrapped
// at the pane's width (inside a long path too) rather than cut.
func (m Model) head() string {
	if m.confirm && m.plan != nil {
		return m.wrapped(m.confirmLine(), m.styles.Warn)
	}
	head, pos := m.wrapped(m.crumbs(), lipgloss.NewStyle()), m.list.Position()
	if last := head[strings.LastIndex(head, "\n")+1:]; lipgloss.Width(last)+2+len(pos) > m.width {
		return head + "\n" + m.styles.Dim.Render(pos)
	}
	return head + "  " + m.styles.Dim.Render(pos)
}

// headRows is how many lines head takes above the list.
func (m Model) headRows() int { return strings.Count(m.head(), "\n") + 1 }

// wrapped is s broken into lines of the pane's width, each in st.
func (m Model) wrapped(s string, st lipgloss.Style) string {
	lines := strings.Split(ansi.Wrap(s, max(m.width, 1), ""), "\n")
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return strings.Join(lines, "\n")
}

func (m Model) confirmLine() string {
	p := m.plan
	if r := p.Refusals(); len(r) > 0 {
		return fmt.Sprintf("Refused: %s — any key to close", clean(r[0]))
	}
	if p.Writes() == 0 {
		return "Nothing to restore: every file already is as it would be. Any key to close."
	}
	return fmt.Sprintf("Restore %s as shown below? The current content is saved first; undo puts it back. y/n", text.Count(p.Writes(), "file", ""))
}

// detailContent is the selected row in full (a version's whole diff),
// or the restore plan being asked about.
func (m Model) detailContent() detail.Content {
	if m.confirm && m.plan != nil {
		return detail.Content{ID: "plan", Lines: m.planLines()}
	}
	r, ok := m.list.Selected()
	if !ok {
		return detail.Content{}
	}
	var lines []string
	id := fmt.Sprintf("%d %s", m.level, rowText(r))
	switch {
	case r.Session != nil:
		s := r.Session
		// Paths wrap (the detail wraps long lines): the row cuts them.
		lines = append(lines, m.styles.Bold.Render(clean(string(s.SessionID))),
			"transcript "+clean(orNone(s.Transcript)),
			fmt.Sprintf("%s, %s; folder modified %s (cleanup goes by this)", text.Count(s.Backups, "backup", ""), text.Bytes(s.Bytes), format.Timestamp(s.ModTime)),
			m.styles.Dim.Render("enter: turns and files"))
		return detail.Content{ID: id, Lines: lines}
	case r.Turn != nil:
		lines = m.turnLines(r.Turn)
	case r.File != nil:
		f := r.File
		lines = append(lines, m.styles.Bold.Render(clean(f.TrackingPath)), "→ "+clean(f.Target))
		for _, v := range f.Versions {
			lines = append(lines, "  "+m.versionRow(&v))
		}
		return detail.Content{ID: id, Lines: lines}
	case r.Version != nil && m.base == showContent:
		var top int
		lines, top = m.contentLines(r.Version)
		id += fmt.Sprintf(" %d %s %v", m.base, m.diff.Request.TrackingPath, m.diff.Loaded)
		if h := m.hitIn(r.Version); h != nil {
			id += fmt.Sprintf(" hit %d", h.Spot.Line)
		}
		// The text's lines are cut to the width already (not in the zoom).
		return detail.Content{ID: id, Lines: lines, Top: top}
	case r.Version != nil:
		lines = m.diffLines()
		id += fmt.Sprintf(" %d %s", m.base, m.diff.Request.TrackingPath)
	}
	for i, l := range lines {
		// Styled lines too: ansi.Truncate keeps escape sequences whole.
		lines[i] = ansi.Truncate(l, m.cutWidth(), "…")
	}
	return detail.Content{ID: id, Lines: lines}
}

// fit cuts plain text to the pane's width; styling comes after, so a cut
// never lands inside an escape sequence.
func (m Model) fit(s string) string { return text.Truncate(s, m.cutWidth()) }

// cutWidth is where the detail's lines are cut: the pane's width, and in
// the zoom nowhere (the detail wraps them, so a long diff or file line
// is read whole with z).
func (m Model) cutWidth() int {
	if m.det.Zoomed() {
		return 1 << 20
	}
	return m.width
}

func orNone(s string) string {
	if s == "" {
		return "(gone: only the backups remain)"
	}
	return s
}

func (m Model) turnLines(t *filehist.FileTurn) []string {
	prompt := clean(t.Prompt)
	if prompt == "" {
		prompt = "(prompt not in the transcript)"
	}
	lines := []string{m.styles.Bold.Render(m.fit(format.ShortID(t.MessageID) + "  " + prompt))}
	if t.Synthesized {
		lines = append(lines, m.styles.Warn.Render(m.fit("the snapshot record never reached the transcript: rebuilt from the previous snapshot and this turn's deltas")))
	}
	lines = append(lines, m.fit(fmt.Sprintf("%d tracked files before this turn; it touched %d:", t.Tracked, len(t.Touched))))
	for _, f := range t.Touched {
		lines = append(lines, m.fit(fmt.Sprintf("  %-9s %s  %s", f.How, clean(f.TrackingPath), versionLabel(f.Version, f.Absent))))
	}
	return append(lines, m.styles.Dim.Render(m.fit("enter: files at this turn · a: rewind every file to before it")))
}

func (m Model) diffLines() []string {
	d := m.diff
	head := fmt.Sprintf("%s  %s → %s", clean(d.Request.TrackingPath), d.Request.From, d.Request.To)
	lines := []string{m.styles.Bold.Render(m.fit(head))}
	switch {
	case d.Err != nil:
		return append(lines, m.styles.Error.Render(m.fit(clean(d.Err.Error()))))
	case d.Diff == "" && d.Request.TrackingPath == "":
		return append(lines, m.styles.Dim.Render("loading the diff…"))
	case d.Diff == "":
		return append(lines, m.styles.Dim.Render("no difference"))
	}
	for _, l := range strings.Split(strings.TrimSuffix(d.Diff, "\n"), "\n") {
		lines = append(lines, m.diffLine(m.fit(text.FileLine(l))))
	}
	return lines
}

func (m Model) planLines() []string {
	var lines []string
	for _, s := range m.plan.Steps {
		what := clean(s.Describe())
		line := m.fit(fmt.Sprintf("%s  %s", clean(s.TrackingPath), what))
		if s.Refused != "" {
			line = m.styles.Error.Render(line)
		}
		lines = append(lines, line)
		if s.Refused == "" && s.Diff != "" {
			for _, l := range strings.Split(strings.TrimSuffix(s.Diff, "\n"), "\n") {
				lines = append(lines, "  "+m.diffLine(text.FileLine(l)))
			}
		}
	}
	return lines
}

func (m Model) diffLine(l string) string { return m.styles.DiffLine(l) }
