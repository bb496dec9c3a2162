// Package detail is the scrollable detail a pane shows beside or under
// its list: a prune diff, a file's text, a paste. The pane hands it the
// lines of the selected row on every call (the detail keeps no copy of
// the pane's data, only where it is scrolled to); J/K and the mouse wheel
// over it scroll it without moving the list, and z zooms it to the whole
// pane, where the list keys scroll it too. Every line can be reached: a
// detail longer than its rows ends in a line that says which lines are
// shown and how to see the others, never in a "… N more lines" the user
// cannot open.
package detail

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
)

// Content is what the detail shows: the lines of the selected row, and
// an ID that changes when the selection does (a new row starts at its
// top).
type Content struct {
	ID    string
	Lines []string
	// Top is the line a new ID opens at (a search hit's, with a little
	// context above it); 0 is the first.
	Top int
}

// Area is where the pane draws the detail, in cells relative to the
// pane's top-left corner: the wheel scrolls the detail only over it.
type Area struct{ X, Y, W, H int }

func (a Area) contains(x, y int) bool {
	return x >= a.X && x < a.X+a.W && y >= a.Y && y < a.Y+a.H
}

// Model is the detail's scroll position and zoom.
type Model struct {
	// keys is held by pointer, as in list.Model: a keymap is 3 KB and
	// every pane's detail sits in the app's root model, copied on every
	// message.
	keys   *keymap.KeyMap
	styles style.Styles
	// vp is held by pointer and replaced, never changed in place: a
	// viewport is 2.6 KB, and the root model holds a detail per pane.
	// Update and View sync a copy (the content and size come with each
	// call); Update keeps its copy.
	vp     *viewport.Model
	id     string
	zoomed bool
}

// New returns a detail at the top of nothing.
func New(keys keymap.KeyMap, st style.Styles) Model {
	vp := newViewport()
	return Model{keys: &keys, styles: st, vp: &vp}
}

func newViewport() viewport.Model {
	vp := viewport.New()
	vp.SoftWrap = false
	vp.MouseWheelEnabled = true
	return vp
}

// viewport is a copy of the viewport to change.
func (m Model) viewport() viewport.Model {
	if m.vp == nil {
		return newViewport()
	}
	return *m.vp
}

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) { m.styles = st }

// Zoomed reports whether the detail has the whole pane.
func (m Model) Zoomed() bool { return m.zoomed }

// Unzoom gives the pane back to the list.
func (m *Model) Unzoom() { m.zoomed = false }

// Legend explains the line a long detail ends in, for the pane's ?.
func (m Model) Legend() text.LegendEntry {
	return text.LegendEntry{Mark: "── lines A–B of N", Means: "the detail shows lines A to B of N: J/K (shift+↓/↑) or the wheel over it scroll it, z gives it the whole pane"}
}

// Offset is the first line shown (for tests).
func (m Model) Offset() int {
	if m.vp == nil {
		return 0
	}
	return m.vp.YOffset()
}

// Help is the detail's keys, for the pane's help: scrolling, and zoom.
func (m Model) Help() []key.Binding {
	return []key.Binding{m.keys.DetailDown, m.keys.DetailUp, m.zoomBinding()}
}

// UnzoomHelp is the zoom key's help while the detail is zoomed: the
// root's help line puts it first, so the way back is always shown.
const UnzoomHelp = "back to the list"

func (m Model) zoomBinding() key.Binding {
	if m.zoomed {
		return key.NewBinding(key.WithKeys(m.keys.Zoom.Keys()...), key.WithHelp(m.keys.Zoom.Help().Key, UnzoomHelp))
	}
	return m.keys.Zoom
}

// sync points vp, a copy of the viewport, at c in a w×h block: a new ID
// starts at its Top; the offset is kept within the lines.
func (m *Model) sync(vp *viewport.Model, c Content, w, h int) {
	fresh := c.ID != m.id
	if fresh {
		m.id = c.ID
		vp.SetYOffset(0)
	}
	lines, top := wrapLines(c.Lines, max(w, 1), c.Top)
	rows := max(h, 1)
	if len(lines) > rows && rows > 1 {
		rows-- // the last row says where the view is
	}
	vp.SetWidth(max(w, 1))
	vp.SetHeight(rows)
	vp.SetContentLines(lines)
	if fresh && top > 0 {
		vp.SetYOffset(top) // after the lines: the offset is kept within them
	}
}

// wrapLines wraps each line longer than w (at spaces, inside a word
// longer than w), so a detail shows every character of a long value
// instead of cutting it at the edge; zoomed, the same lines wrap at the
// zoomed width. top, an index into lines, becomes its index among the
// wrapped rows. The result is a new slice (SetContentLines splits a line
// holding a newline in place).
func wrapLines(lines []string, w, top int) ([]string, int) {
	out := make([]string, 0, len(lines))
	wrappedTop := top
	for i, l := range lines {
		if i == top {
			wrappedTop = len(out)
		}
		if ansi.StringWidth(l) <= w {
			out = append(out, l)
			continue
		}
		out = append(out, strings.Split(ansi.Wrap(l, w, ""), "\n")...)
	}
	return out, wrappedTop
}

// Update scrolls or zooms for a key or a wheel turn, given the content
// and where the pane draws it (y relative to the pane, as the root
// passes the wheel). handled is false for what the pane should handle.
func (m Model) Update(msg tea.Msg, c Content, a Area) (Model, bool) {
	vp := m.viewport()
	m.sync(&vp, c, a.W, a.H)
	m.vp = &vp
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, m.keys.Zoom):
			m.zoomed = !m.zoomed
		case key.Matches(msg, m.keys.DetailDown):
			m.vp.ScrollDown(1)
		case key.Matches(msg, m.keys.DetailUp):
			m.vp.ScrollUp(1)
		case !m.zoomed:
			return m, false
		// Zoomed, the list is hidden: its keys scroll the detail.
		case ScrollKeys(m.vp, m.keys, msg):
		case key.Matches(msg, m.keys.Back):
			m.zoomed = false
		case key.Matches(msg, m.keys.Filter):
			// The filter is the list's: show the list again for it.
			m.zoomed = false
			return m, false
		default:
			return m, false
		}
		return m, true
	case tea.MouseWheelMsg:
		mouse := msg.Mouse()
		if !m.zoomed && !a.contains(mouse.X, mouse.Y) {
			return m, false
		}
		switch mouse.Button {
		case tea.MouseWheelDown:
			m.vp.ScrollDown(m.vp.MouseWheelDelta)
		case tea.MouseWheelUp:
			m.vp.ScrollUp(m.vp.MouseWheelDelta)
		default:
			return m, false
		}
		return m, true
	}
	return m, false
}

// ScrollKeys scrolls a document viewport with the list keys (↑/↓ a
// line, pgup/pgdn a page, g/G to either end) and reports whether k was
// one of them: a zoomed detail and the Index pane read them the same.
func ScrollKeys(vp *viewport.Model, km *keymap.KeyMap, k tea.KeyPressMsg) bool {
	switch {
	case key.Matches(k, km.Down):
		vp.ScrollDown(1)
	case key.Matches(k, km.Up):
		vp.ScrollUp(1)
	case key.Matches(k, km.PageDown):
		vp.PageDown()
	case key.Matches(k, km.PageUp):
		vp.PageUp()
	case key.Matches(k, km.Top):
		vp.GotoTop()
	case key.Matches(k, km.Bottom):
		vp.GotoBottom()
	default:
		return false
	}
	return true
}

// View draws c in a w×h block at the scroll position, padded to h rows.
// A detail longer than h ends in a line that says which lines show and
// how to reach the rest.
func (m Model) View(c Content, w, h int) string {
	vp := m.viewport()
	m.sync(&vp, c, w, h)
	out := vp.View()
	total := vp.TotalLineCount()
	if total <= vp.Height() {
		return out
	}
	first := vp.YOffset() + 1
	last := min(vp.YOffset()+vp.Height(), total)
	how := "J/K or the wheel scroll · z zooms"
	if m.zoomed {
		how = "j/k, pgup/pgdn, g/G scroll · z or esc: back to the list"
	}
	return out + "\n" + m.styles.Dim.Render(text.Truncate(fmt.Sprintf("── lines %d–%d of %d · %s", first, last, total, how), max(w, 1)))
}

// Area is where the detail goes in a w×h pane whose top part (a header
// and the list) is top: under it and a rule, or the whole pane when
// zoomed.
func (m Model) Area(top string, w, h int) Area {
	if m.zoomed {
		return Area{W: w, H: h}
	}
	y := strings.Count(top, "\n") + 2
	return Area{Y: y, W: w, H: max(h-y, 1)}
}

// BesideArea is where the detail goes beside a left column leftW wide
// (and a one-cell rule) in a w×h pane, or the whole pane when zoomed.
func (m Model) BesideArea(leftW, w, h int) Area {
	if m.zoomed {
		return Area{W: w, H: h}
	}
	return Area{X: leftW + 1, W: max(w-leftW-1, 1), H: h}
}

// Beside draws left (a column leftW wide, cut to h rows) and the detail
// beside it, divided by a rule, in a w×h pane; the detail alone when
// zoomed.
func (m Model) Beside(left string, leftW int, c Content, w, h int) string {
	a := m.BesideArea(leftW, w, h)
	if m.zoomed {
		return m.View(c, a.W, a.H)
	}
	left = lipgloss.NewStyle().Width(leftW).Height(h).MaxHeight(h).Render(left)
	rule := m.styles.Dim.Render(strings.TrimRight(strings.Repeat("│\n", max(h, 1)), "\n"))
	return lipgloss.JoinHorizontal(lipgloss.Top, left, rule, m.View(c, a.W, a.H))
}

// Under draws top over the detail (divided by a rule) in a w×h pane, or
// the detail alone when zoomed.
func (m Model) Under(top string, c Content, w, h int) string {
	a := m.Area(top, w, h)
	if m.zoomed {
		return m.View(c, a.W, a.H)
	}
	return m.styles.Divided(w, top, m.View(c, a.W, a.H))
}

// Scrolls reports whether msg only scrolls or zooms the detail (J, K, z,
// the wheel): a pane waiting for a y/n answer lets these through, so the
// diff it asks about can be read in full before answering.
func (m Model) Scrolls(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return key.Matches(msg, m.keys.DetailDown, m.keys.DetailUp, m.keys.Zoom)
	case tea.MouseWheelMsg:
		return true
	}
	return false
}
