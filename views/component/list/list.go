// Package list is the scrolling, filterable list every pane uses. It
// renders only the rows on screen, so a list of 100 000 history entries
// costs the same per keypress as a list of ten.
package list

import (
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
)

// RenderFunc draws one item as a row of the given width.
type RenderFunc[T any] func(item T, selected bool, width int) string

// Model is a list of T. Text gives an item's filter text. The list keeps
// no renderer: the pane passes its row renderer to View on each frame.
// A renderer stored in the list would be a method value of the pane, and
// a method value on a value receiver copies the pane, list and items
// included: every reload would keep the previous one's whole data alive
// through it, a chain that grows with each reload. Text is a function of
// the item alone, set once in New; it must not capture the pane either.
type Model[T any] struct {
	items   []T
	visible []int // indexes into items after filtering
	cursor  int   // index into visible
	offset  int   // first visible row on screen
	width   int
	height  int
	// keys and filter are held by pointer: a text input is 8 KB and a
	// keymap 3 KB, and the app's root model, which holds a dozen lists,
	// is copied on every message (a model over 64 KB lives on the heap).
	// keys is never changed; filter is replaced, never changed in place
	// (editFilter), so copies of a list do not share edits.
	keys     *keymap.KeyMap
	styles   style.Styles
	filter   *textinput.Model
	editing  bool
	Text     func(T) string
	Empty    string
	lowered  []string // lower-cased filter text per item, built lazily
	filtered string
	// before is the item under the cursor when the filter line opened
	// (-1 for none): esc while typing puts the cursor back on it.
	before int
}

// New returns an empty list whose items filter by text(item).
func New[T any](keys keymap.KeyMap, st style.Styles, text func(T) string) Model[T] {
	f := style.Input("/", "filter")
	return Model[T]{keys: &keys, styles: st, filter: &f, Text: text, Empty: "(nothing here)"}
}

// editFilter changes a copy of the filter input and keeps the copy.
func (m *Model[T]) editFilter(change func(f *textinput.Model)) {
	f := *m.filter
	change(&f)
	m.filter = &f
}

// SetItems replaces the items, keeping the filter and, where possible, the
// cursor position.
func (m *Model[T]) SetItems(items []T) {
	m.items = items
	m.lowered = nil
	m.applyFilter()
}

// SetStyles replaces the styles (after a background colour change).
func (m *Model[T]) SetStyles(st style.Styles) { m.styles = st }

// Items returns all items, unfiltered.
func (m Model[T]) Items() []T { return m.items }

// Len is the number of items shown after filtering.
func (m Model[T]) Len() int { return len(m.visible) }

// SetSize sets the list's width and height in cells (the filter line, when
// shown, is part of the height).
func (m *Model[T]) SetSize(w, h int) {
	m.width, m.height = w, h
	if fw := max(w-2, 1); m.filter.Width() != fw {
		m.editFilter(func(f *textinput.Model) { f.SetWidth(fw) })
	}
	m.clamp()
}

// Selected returns the item under the cursor.
func (m Model[T]) Selected() (T, bool) {
	var zero T
	if len(m.visible) == 0 {
		return zero, false
	}
	return m.items[m.visible[m.cursor]], true
}

// Index returns the cursor's index into Items, or -1.
func (m Model[T]) Index() int {
	if len(m.visible) == 0 {
		return -1
	}
	return m.visible[m.cursor]
}

// Select moves the cursor to the item with index i in Items, if visible.
func (m *Model[T]) Select(i int) {
	for vi, idx := range m.visible {
		if idx == i {
			m.cursor = vi
			m.clamp()
			return
		}
	}
}

// SelectWhere moves the cursor to the first item ok accepts, clearing a
// filter that hides it, and reports whether there is one (a search hit
// opened in a pane).
func (m *Model[T]) SelectWhere(ok func(T) bool) bool {
	for i, it := range m.items {
		if !ok(it) {
			continue
		}
		if !slices.Contains(m.visible, i) {
			m.SetFilter("")
		}
		m.Select(i)
		return true
	}
	return false
}

// Filtering reports whether the filter line has the keyboard.
func (m Model[T]) Filtering() bool { return m.editing }

// FilterValue is the current filter text.
func (m Model[T]) FilterValue() string { return m.filter.Value() }

// SetFilter sets the filter text (for tests and restoring state).
func (m *Model[T]) SetFilter(s string) {
	m.editFilter(func(f *textinput.Model) { f.SetValue(s) })
	m.applyFilter()
}

func (m Model[T]) rows() int {
	r := m.height
	if m.editing || m.filter.Value() != "" {
		r--
	}
	return max(r, 1)
}

func (m *Model[T]) clamp() {
	if m.cursor >= len(m.visible) {
		m.cursor = len(m.visible) - 1
	}
	if m.cursor < 0 {
		m.cursor = 0
	}
	rows := m.rows()
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+rows {
		m.offset = m.cursor - rows + 1
	}
	if m.offset > max(len(m.visible)-rows, 0) {
		m.offset = max(len(m.visible)-rows, 0)
	}
	if m.offset < 0 {
		m.offset = 0
	}
}

func (m *Model[T]) applyFilter() {
	q := strings.ToLower(strings.TrimSpace(m.filter.Value()))
	prev := m.Index()
	m.visible = m.visible[:0]
	if q == "" {
		for i := range m.items {
			m.visible = append(m.visible, i)
		}
	} else {
		if m.lowered == nil && m.Text != nil {
			m.lowered = make([]string, len(m.items))
			for i, it := range m.items {
				m.lowered[i] = strings.ToLower(m.Text(it))
			}
		}
		for i := range m.items {
			if m.lowered != nil && strings.Contains(m.lowered[i], q) {
				m.visible = append(m.visible, i)
			}
		}
	}
	m.filtered = q
	m.cursor = 0
	if prev >= 0 {
		m.Select(prev)
	}
	m.clamp()
}

// Update handles list keys. handled is false for keys the list does not
// use, so the pane can act on them.
func (m Model[T]) Update(msg tea.Msg) (Model[T], tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if m.editing {
			switch {
			case key.Matches(msg, m.keys.Open):
				m.editing = false
				m.editFilter((*textinput.Model).Blur)
				return m, nil, true
			case key.Matches(msg, m.keys.Back):
				m.editing = false
				m.editFilter(func(f *textinput.Model) {
					f.Blur()
					f.SetValue("")
				})
				m.applyFilter()
				// Typing moved the cursor onto matches; esc cancels the
				// filter, so the cursor goes back where it was.
				if m.before >= 0 {
					m.Select(m.before)
				}
				return m, nil, true
			}
			var cmd tea.Cmd
			m.editFilter(func(f *textinput.Model) { *f, cmd = f.Update(msg) })
			if strings.ToLower(strings.TrimSpace(m.filter.Value())) != m.filtered {
				m.applyFilter()
			}
			return m, cmd, true
		}
		switch {
		case key.Matches(msg, m.keys.Up):
			m.cursor--
		case key.Matches(msg, m.keys.Down):
			m.cursor++
		case key.Matches(msg, m.keys.Top):
			m.cursor = 0
		case key.Matches(msg, m.keys.Bottom):
			m.cursor = len(m.visible) - 1
		case key.Matches(msg, m.keys.PageUp):
			m.cursor -= m.rows()
		case key.Matches(msg, m.keys.PageDown):
			m.cursor += m.rows()
		case key.Matches(msg, m.keys.Filter):
			m.editing = true
			m.before = m.Index()
			m.clamp()
			var cmd tea.Cmd
			m.editFilter(func(f *textinput.Model) { cmd = f.Focus() })
			return m, cmd, true
		case key.Matches(msg, m.keys.Back) && m.filter.Value() != "":
			m.editFilter(func(f *textinput.Model) { f.SetValue("") })
			m.applyFilter()
		default:
			return m, nil, false
		}
		m.clamp()
		return m, nil, true
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			m.cursor -= 3
		case tea.MouseWheelDown:
			m.cursor += 3
		default:
			return m, nil, false
		}
		m.clamp()
		return m, nil, true
	}
	return m, nil, false
}

// ClickRow moves the cursor to the row at y (0 = the list's first line).
func (m *Model[T]) ClickRow(y int) {
	if m.editing || m.filter.Value() != "" {
		y--
	}
	if y < 0 {
		return
	}
	if i := m.offset + y; i < len(m.visible) {
		m.cursor = i
	}
}

// View renders the filter line (when used) and the rows on screen, each
// drawn by render.
func (m Model[T]) View(render RenderFunc[T]) string {
	var b strings.Builder
	lines := 0
	if m.editing || m.filter.Value() != "" {
		if m.editing {
			b.WriteString(m.filter.View())
		} else {
			b.WriteString(m.styles.Dim.Render("/" + m.filter.Value() + "  (esc clears)"))
		}
		lines++
	}
	if len(m.visible) == 0 {
		if lines > 0 {
			b.WriteByte('\n')
		}
		empty := m.Empty
		if q := strings.TrimSpace(m.filter.Value()); q != "" && len(m.items) > 0 {
			// The list has rows; the filter hides them all.
			empty = "no row matches /" + q + " (esc clears)"
		}
		// The reason there is nothing may be long (a refused file's
		// path): it wraps at the list's width rather than being cut.
		if m.width > 0 {
			empty = ansi.Wrap(empty, m.width, "")
		}
		b.WriteString(m.styles.Dim.Render(empty))
		return b.String()
	}
	end := min(m.offset+m.rows(), len(m.visible))
	for vi := m.offset; vi < end; vi++ {
		if lines > 0 {
			b.WriteByte('\n')
		}
		sel := vi == m.cursor
		row := render(m.items[m.visible[vi]], sel, m.width)
		// A row wider than the list is cut with "…" (escape sequences
		// kept whole), so a cut never looks like the row's end.
		row = ansi.Truncate(row, m.width, "…")
		if sel {
			row = m.styles.Selected.Render(padRight(row, m.width))
		}
		b.WriteString(row)
		lines++
	}
	return b.String()
}

// Position describes where the cursor is ("12/340").
func (m Model[T]) Position() string {
	if len(m.visible) == 0 {
		return "0/0"
	}
	return strconv.Itoa(m.cursor+1) + "/" + strconv.Itoa(len(m.visible))
}

func padRight(s string, w int) string {
	if n := lipgloss.Width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
