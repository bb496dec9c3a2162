// Package overview is the Overview pane, memscope's first screen: "what
// needs me?" for the open project and the whole home. Each row is one
// line of engine/overview: a count, a one-line why, and the key of the
// pane that fixes it; enter opens that pane at the row or filter the line
// names. Lines arrive one at a time from the pane's feed (ui/feed), each
// showing "counting…" until its own count is in.
package overview

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	engov "github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// LineMsg brings the pane one computed line (from its feed).
type LineMsg struct{ Line engov.Line }

// CountingMsg says the lines IDs are being counted again (a file they
// read changed, or the open project did): they show "counting…" until
// their LineMsg.
type CountingMsg struct{ IDs []engov.ID }

// ProjectMsg names the open project (its folder), for the header.
type ProjectMsg struct{ Path string }

// Row is one line of the pane: its spec, and the line once counted.
type Row struct {
	Spec engov.Spec
	// Line is the counted line; nil while counting.
	Line *engov.Line
}

// Counting reports whether the row waits for its count.
func (r Row) Counting() bool { return r.Line == nil }

// Model is the Overview pane.
type Model struct {
	keys    *keymap.KeyMap
	styles  style.Styles
	list    list.Model[Row]
	project string
	width   int
	height  int
}

// New returns the pane with every line counting.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: &keys, styles: st, list: list.New(keys, st, rowText)}
	rows := make([]Row, len(engov.Specs))
	for i, sp := range engov.Specs {
		rows[i] = Row{Spec: sp}
	}
	m.list.SetItems(rows)
	return m
}

// rowText is a row's filter text: its id, its pane and its text.
func rowText(r Row) string {
	s := string(r.Spec.ID) + " " + r.Spec.Pane
	if r.Line != nil {
		s += " " + r.Line.Text
	}
	return s
}

// Title names the pane.
func (m Model) Title() string { return "Overview" }

// Rows are the pane's rows, in order.
func (m Model) Rows() []Row { return m.list.Items() }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.list.SetStyles(st)
}

// SetSize sets the pane's inner size: the header, the list, and under it
// the selected line in full.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.list.SetSize(w, m.listHeight())
}

// listHeight leaves the header's two lines and the detail's lines.
func (m Model) listHeight() int {
	return max(min(len(engov.Specs), m.height-2-detailLines), 3)
}

// detailLines is the room under the list for the selected line in full.
const detailLines = 5

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes it away.
func (m *Model) Blur() {}

// Filtering reports whether the list's filter line takes the keys.
func (m Model) Filtering() bool { return m.list.Filtering() }

// ClickRow selects the clicked row (the header takes two lines).
func (m *Model) ClickRow(y int) tea.Cmd {
	m.list.ClickRow(y - 2)
	return nil
}

// Help lists the pane's own key: enter opens the line's pane.
func (m Model) Help() []key.Binding {
	return []key.Binding{m.keys.Open}
}

// Legend explains the marks.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "●", Means: "the line needs you"},
		{Mark: "counting…", Means: "the line's count is still being read; the others do not wait for it"},
		{Mark: "[key] Pane", Means: "the pane enter opens (or its key): it shows the same count"},
	}
}

// Update takes the feed's lines and the keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case LineMsg:
		m.setLine(msg.Line)
		return m, nil
	case CountingMsg:
		m.setCounting(msg.IDs)
		return m, nil
	case ProjectMsg:
		m.project = msg.Path
		return m, nil
	case tea.KeyPressMsg:
		if !m.list.Filtering() && key.Matches(msg, m.keys.Open) {
			return m, m.open()
		}
	}
	var cmd tea.Cmd
	m.list, cmd, _ = m.list.Update(msg)
	return m, cmd
}

// setLine fills the row of l.
func (m *Model) setLine(l engov.Line) {
	m.edit(func(r *Row) {
		if r.Spec.ID == l.ID {
			r.Line = &l
		}
	})
}

// setCounting marks the rows ids as counting.
func (m *Model) setCounting(ids []engov.ID) {
	m.edit(func(r *Row) {
		if slices.Contains(ids, r.Spec.ID) {
			r.Line = nil
		}
	})
}

// edit changes a copy of the rows (copies of the pane share the old
// ones) and keeps the cursor where it was.
func (m *Model) edit(change func(*Row)) {
	at := m.list.Index()
	rows := slices.Clone(m.list.Items())
	for i := range rows {
		change(&rows[i])
	}
	m.list.SetItems(rows)
	m.list.Select(at)
}

// open asks the root for the selected line's pane, at its row or filter.
func (m Model) open() tea.Cmd {
	r, ok := m.list.Selected()
	if !ok {
		return nil
	}
	if r.Line == nil {
		return func() tea.Msg {
			return msgs.Status{Text: string(r.Spec.ID) + " is still counting: " + PaneName(r.Spec.Pane) + " shows it as it is"}
		}
	}
	open := msgs.OpenPane{Pane: r.Line.Pane, Show: r.Line.Filter}
	if open.Pane == "" {
		cmd := r.Line.Command
		return func() tea.Msg { return msgs.Status{Text: "no pane shows this line: " + cmd + " does"} }
	}
	return func() tea.Msg { return open }
}

// PaneName is the pane table's name of the pane a line names (any case).
func PaneName(pane string) string {
	if i := keymap.PaneIndex(pane); i >= 0 {
		return keymap.Panes[i].Name
	}
	return pane
}

// paneKey is the key of the line's pane, in the user's bindings.
func (m Model) paneKey(pane string) string {
	i := keymap.PaneIndex(pane)
	if i < 0 {
		return ""
	}
	return m.keys.Panes[i].Help().Key
}

// View draws the header, the lines and the selected line in full.
func (m Model) View() string {
	needs, counting := 0, 0
	for _, r := range m.list.Items() {
		switch {
		case r.Line == nil:
			counting++
		case r.Line.Needs:
			needs++
		}
	}
	head := "what needs you: " + text.Count(needs, "line", "lines")
	if counting > 0 {
		head += fmt.Sprintf(" so far, %d counting…", counting)
	}
	proj := "no project open"
	if m.project != "" {
		proj = "project " + model.SanitizeLine(m.project)
	}
	var b strings.Builder
	b.WriteString(text.Truncate(m.styles.Bold.Render(head)+m.styles.Dim.Render(" · "+proj), m.width))
	b.WriteString("\n\n")
	b.WriteString(m.list.View(m.renderRow))
	b.WriteString("\n\n")
	b.WriteString(m.detail())
	return b.String()
}

// Column widths of a row: the mark, the line's id, its count.
const (
	idWidth    = 12
	countWidth = 7
)

// renderRow draws one line: mark, id, count, why, and the key and pane
// that fix it at the right.
func (m Model) renderRow(r Row, selected bool, width int) string {
	mark := " "
	count := ""
	why := m.styles.Dim.Render("counting…")
	if l := r.Line; l != nil {
		if l.Needs {
			mark = m.styles.Warn.Render("●")
		}
		count = fmt.Sprint(l.Count)
		why = model.SanitizeLine(l.Text)
	}
	fix := ""
	if k := m.paneKey(r.Spec.Pane); k != "" {
		fix = "[" + k + "] " + PaneName(r.Spec.Pane)
	}
	left := mark + " " + text.Pad(string(r.Spec.ID), idWidth) + fmt.Sprintf("%*s", countWidth, count) + "  "
	room := width - lipgloss.Width(left) - lipgloss.Width(fix) - 2
	if room < 10 {
		fix, room = "", width-lipgloss.Width(left)
	}
	why = text.Truncate(why, room)
	gap := strings.Repeat(" ", max(width-lipgloss.Width(left)-lipgloss.Width(why)-lipgloss.Width(fix), 1))
	return left + why + gap + m.styles.Dim.Render(fix)
}

// detail is the selected line in full: its text wrapped, where enter goes,
// and the command that prints the same count.
func (m Model) detail() string {
	r, ok := m.list.Selected()
	if !ok {
		return ""
	}
	if r.Line == nil {
		return m.styles.Dim.Render(text.Truncate(string(r.Spec.ID)+": counting…", m.width))
	}
	l := r.Line
	var lines []string
	lines = append(lines, strings.Split(text.Wrap(model.SanitizeLine(l.Text), max(m.width, 20)), "\n")...)
	to := "enter opens " + PaneName(l.Pane)
	if l.Filter != "" {
		to += " at " + model.SanitizeLine(l.Filter)
	}
	if l.Pane == "" {
		to = "no pane shows it"
	}
	if l.Command != "" {
		to += " · the same count: " + l.Command
	}
	lines = append(lines, m.styles.Dim.Render(text.Truncate(to, m.width)))
	if len(lines) > detailLines {
		lines = append(lines[:detailLines-1], lines[len(lines)-1])
	}
	return strings.Join(lines, "\n")
}
