// Package projects is the Projects pane: every project of the home with its
// real path, memory size and last activity. Enter opens a project in the
// other panes.
package projects

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/engine/inventory"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// Row is one project as the pane shows it.
type Row struct {
	Project model.Project
	// Memory counts the project's memory files (inventory.CountMemory,
	// the count every pane shows).
	Memory inventory.MemoryCount
	// LastActive is the newest of its transcripts' last activity
	// (sessions.LastActive, as Replay shows each session's).
	LastActive sessions.Active
	// Current marks the project memscope was opened on.
	Current bool
	// Unreviewed counts the memories waiting in the review inbox; -1
	// until counted.
	Unreviewed int
}

// Model is the Projects pane.
type Model struct {
	keys    *keymap.KeyMap
	styles  style.Styles
	list    list.Model[Row]
	now     time.Time
	width   int
	height  int
	focused bool
	open    string // slug of the project shown in the other panes
}

// New returns an empty Projects pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: &keys, styles: st}
	m.list = list.New(keys, st, func(r Row) string { return r.Project.Path + " " + r.Project.Slug })
	m.list.Empty = "reading the projects…"
	return m
}

// Title names the pane.
func (m Model) Title() string { return "Projects" }

// The pane's data, as its feed sends it: the project list (RowsMsg), the
// review counts (UnreviewedMsg), the project open in the other panes
// (OpenMsg).

// RowsMsg replaces the projects; Now is the clock for "last activity".
type RowsMsg struct {
	Rows []Row
	Now  time.Time
}

// UnreviewedMsg sets the review counts, by slug (projects not in the map
// keep theirs).
type UnreviewedMsg struct{ Counts map[string]int }

// OpenMsg marks the project shown in the other panes and moves the
// cursor to it.
type OpenMsg struct{ Slug string }

func (m *Model) setRows(rows []Row, now time.Time) {
	m.now = now
	m.list.Empty = "no projects in this home yet (Claude Code has not run here) — memscope --demo shows the built-in example"
	m.list.SetItems(rows)
	for i, r := range rows {
		if r.Project.Slug == m.open {
			m.list.Select(i)
		}
	}
}

func (m *Model) setUnreviewed(counts map[string]int) {
	items := m.list.Items()
	for i := range items {
		if n, ok := counts[items[i].Project.Slug]; ok {
			items[i].Unreviewed = n
		}
	}
	m.list.SetItems(items)
}

func (m *Model) setOpen(slug string) {
	m.open = slug
	for i, r := range m.list.Items() {
		if r.Project.Slug == slug {
			m.list.Select(i)
		}
	}
}

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.list.SetStyles(st)
}

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.list.SetSize(w, h-1)
}

// Focus gives the pane the keyboard.
func (m *Model) Focus() { m.focused = true }

// Blur takes the keyboard away.
func (m *Model) Blur() { m.focused = false }

// Filtering reports whether the filter line has the keyboard.
func (m Model) Filtering() bool { return m.list.Filtering() }

// Help lists the pane's own bindings.
func (m Model) Help() []key.Binding { return []key.Binding{m.keys.Open} }

// ClickRow moves the cursor to the clicked row (y relative to the list).
func (m *Model) ClickRow(y int) tea.Cmd {
	m.list.ClickRow(y - 1)
	return nil
}

// Update handles keys and the mouse wheel.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case RowsMsg:
		m.setRows(msg.Rows, msg.Now)
		return m, nil
	case UnreviewedMsg:
		m.setUnreviewed(msg.Counts)
		return m, nil
	case OpenMsg:
		m.setOpen(msg.Slug)
		return m, nil
	}
	var cmd tea.Cmd
	var handled bool
	m.list, cmd, handled = m.list.Update(msg)
	if handled {
		return m, cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.keys.Open) {
		if r, ok := m.list.Selected(); ok {
			slug := r.Project.Slug
			return m, func() tea.Msg { return msgs.SelectProject{Slug: slug} }
		}
	}
	return m, nil
}

// View draws the header and the list, and under it the selected
// project's folder whole when its row cuts it.
func (m Model) View() string {
	header := m.styles.Header.Render(fmt.Sprintf("%-3s%-*s %8s %9s %6s %10s", "", max(m.width-41, 10), "PROJECT", "SESSIONS", "MEMORY", "REVIEW", "ACTIVE"))
	whole := m.pathLines()
	if len(whole) == 0 {
		return header + "\n" + m.list.View(m.renderRow)
	}
	l := m.list
	l.SetSize(m.width, max(m.height-1-len(whole), 1))
	return header + "\n" + l.View(m.renderRow) + "\n" + m.styles.Dim.Render(strings.Join(whole, "\n"))
}

// pathLines are the selected project's folder, wrapped (inside a name
// too), when its row cuts it at the left; nil when the row shows it
// whole.
func (m Model) pathLines() []string {
	r, ok := m.list.Selected()
	if !ok || r.Project.Path == "" {
		return nil
	}
	name := model.SanitizeLine(r.Project.Path)
	if lipgloss.Width(name) <= max(m.width-41, 10) {
		return nil
	}
	return strings.Split(ansi.Wrap(name, max(m.width, 1), ""), "\n")
}

func (m Model) renderRow(r Row, selected bool, width int) string {
	mark := "  "
	if r.Project.Slug == m.open {
		mark = "▸ "
	}
	if r.Current {
		mark = mark[:len(mark)-1] + "*"
	}
	name := r.Project.Path
	if name == "" {
		name = r.Project.Slug + " (path unknown)"
	}
	name = model.SanitizeLine(name)
	mem := "—"
	if r.Project.HasMemory {
		mem = fmt.Sprintf("%d·%s", r.Memory.Files, text.Bytes(r.Memory.Bytes))
	}
	review := "·"
	switch {
	case r.Unreviewed > 0:
		review = fmt.Sprintf("%d", r.Unreviewed)
	case r.Unreviewed == 0 && r.Project.HasMemory:
		review = "✓"
	}
	nameW := max(width-41, 10)
	return fmt.Sprintf("%-3s%-*s %8d %9s %6s %10s", mark, nameW, text.TruncateLeft(name, nameW), r.Project.Sessions, mem, review, format.Ago(m.now, r.LastActive.Time))
}

// Legend explains the pane's marks and columns.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "▸", Means: "the open project: the other panes show it (enter opens another)"},
		{Mark: "*", Means: "the project of the folder memscope was started in"},
		{Mark: "MEMORY", Means: "memory files (topic files, not MEMORY.md) · their size; — no memory folder"},
		{Mark: "REVIEW", Means: "memories Claude Code wrote or changed since you last reviewed them (R opens the inbox); ✓ none; · not counted yet"},
		{Mark: "ACTIVE", Means: "last active: the newest record timestamp at the end of the project's transcripts (a transcript without one: its mtime); Replay's ACTIVE is the same clock per session"},
	}
}
