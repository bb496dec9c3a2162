package detail

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
)

func lines(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("line %d", i))
	}
	return out
}

func wheel(b tea.MouseButton, x, y int) tea.MouseWheelMsg {
	return tea.MouseWheelMsg{X: x, Y: y, Button: b}
}

func newModel() Model { return New(keymap.Default(), style.New(true, true)) }

// Every line of a long detail can be reached with J, and the last row
// says which lines are shown instead of hiding the rest.
func TestEveryLineIsReachable(t *testing.T) {
	m := newModel()
	c := Content{ID: "a", Lines: lines(30)}
	a := Area{Y: 5, W: 40, H: 10}
	v := ansi.Strip(m.View(c, a.W, a.H))
	rows := strings.Split(v, "\n")
	if len(rows) != 10 || !strings.Contains(rows[9], "lines 1–9 of 30") || strings.Contains(v, "more lines") {
		t.Fatalf("first view:\n%s", v)
	}
	for range 40 {
		var ok bool
		m, ok = m.Update(keypress.Msg("J"), c, a)
		if !ok {
			t.Fatal("J was not the detail's")
		}
	}
	v = ansi.Strip(m.View(c, a.W, a.H))
	if !strings.Contains(v, "line 30") || !strings.Contains(v, "lines 22–30 of 30") {
		t.Fatalf("after J to the end:\n%s", v)
	}
	m, _ = m.Update(keypress.Msg("K"), c, a)
	if m.Offset() != 20 {
		t.Fatalf("K: offset %d, want 20", m.Offset())
	}
	// A short detail has no position line.
	if v := ansi.Strip(m.View(Content{ID: "b", Lines: lines(3)}, 40, 10)); strings.Contains(v, "of 3") {
		t.Fatalf("short detail:\n%s", v)
	}
}

// The wheel scrolls the detail only over it; other keys are the pane's.
func TestWheelOverTheDetailOnly(t *testing.T) {
	m := newModel()
	c := Content{ID: "a", Lines: lines(30)}
	a := Area{X: 50, Y: 5, W: 40, H: 10}
	if _, ok := m.Update(wheel(tea.MouseWheelDown, 10, 6), c, a); ok {
		t.Fatal("a wheel left of the detail scrolled it")
	}
	if _, ok := m.Update(wheel(tea.MouseWheelDown, 60, 2), c, a); ok {
		t.Fatal("a wheel above the detail scrolled it")
	}
	m, ok := m.Update(wheel(tea.MouseWheelDown, 60, 6), c, a)
	if !ok || m.Offset() != 3 {
		t.Fatalf("wheel over the detail: handled %v, offset %d", ok, m.Offset())
	}
	for _, k := range []string{"j", "k", "enter", "space", "/"} {
		if _, ok := m.Update(keypress.Msg(k), c, a); ok {
			t.Errorf("unzoomed, %q was taken from the pane", k)
		}
	}
}

// z gives the detail the pane: the list keys scroll it, the wheel works
// anywhere, esc (or z) gives the pane back, and a new selection starts
// at its top.
func TestZoom(t *testing.T) {
	m := newModel()
	c := Content{ID: "a", Lines: lines(100)}
	top := "header\nrow 1\nrow 2"
	m, _ = m.Update(keypress.Msg("z"), c, m.Area(top, 80, 20))
	if !m.Zoomed() {
		t.Fatal("z did not zoom")
	}
	if a := m.Area(top, 80, 20); a != (Area{W: 80, H: 20}) {
		t.Fatalf("zoomed area %+v", a)
	}
	if v := ansi.Strip(m.Under(top, c, 80, 20)); strings.Contains(v, "header") || len(strings.Split(v, "\n")) != 20 {
		t.Fatalf("zoomed view shows the list or is not 20 rows:\n%s", v)
	}
	a := m.Area(top, 80, 20)
	for _, k := range []string{"j", "j", "pgdown"} {
		m, _ = m.Update(keypress.Msg(k), c, a)
	}
	if m.Offset() != 2+19 {
		t.Fatalf("j j pgdn zoomed: offset %d", m.Offset())
	}
	m, _ = m.Update(keypress.Msg("G"), c, a)
	if m.Offset() != 100-19 {
		t.Fatalf("G zoomed: offset %d", m.Offset())
	}
	m, _ = m.Update(wheel(tea.MouseWheelUp, 0, 0), c, a)
	if m.Offset() != 100-19-3 {
		t.Fatalf("wheel zoomed: offset %d", m.Offset())
	}
	m, _ = m.Update(keypress.Msg("esc"), c, a)
	if m.Zoomed() {
		t.Fatal("esc did not unzoom")
	}
	v := ansi.Strip(m.Under(top, c, 80, 20))
	if !strings.HasPrefix(v, "header\n") {
		t.Fatalf("unzoomed view:\n%s", v)
	}
	m, _ = m.Update(keypress.Msg("J"), Content{ID: "b", Lines: lines(100)}, a)
	if m.Offset() != 1 {
		t.Fatalf("a new selection did not start at its top: offset %d", m.Offset())
	}
}

// A new content opens at its Top (a search hit's line), kept within the
// lines; the same content keeps the user's scroll, another ID moves to
// its own Top.
func TestTopOpensNewContent(t *testing.T) {
	m := newModel()
	a := Area{W: 40, H: 10}
	c := Content{ID: "hit 1", Lines: lines(30), Top: 12}
	if v := ansi.Strip(m.View(c, a.W, a.H)); !strings.HasPrefix(v, "line 13 ") {
		t.Fatalf("a new content should open at line 13:\n%s", v)
	}
	m, _ = m.Update(keypress.Msg("J"), c, a)
	if m.Offset() != 13 {
		t.Fatalf("J from the top line: offset %d, want 13", m.Offset())
	}
	m, _ = m.Update(keypress.Msg("K"), c, a) // the same ID: the scroll stays
	if m.Offset() != 12 {
		t.Fatalf("K: offset %d, want 12", m.Offset())
	}
	c = Content{ID: "hit 2", Lines: lines(30), Top: 100}
	m, _ = m.Update(keypress.Msg("x"), c, a)
	if m.Offset() != 30-9 {
		t.Fatalf("a Top past the end is kept within the lines: offset %d", m.Offset())
	}
}

// A line longer than the detail wraps instead of being cut at its edge:
// a 300-character value is whole in a 40-wide detail (its rows joined),
// and zoomed to 100 columns it takes fewer rows. A search hit's Top still
// opens at its line after the lines above it wrapped.
func TestLongLinesWrap(t *testing.T) {
	long := strings.Repeat("abcdefghij", 30)
	m := newModel()
	c := Content{ID: "a", Lines: []string{"title", long + " end", "after"}}
	narrow := ansi.Strip(m.View(c, 40, 20))
	if got := strings.ReplaceAll(narrow, "\n", ""); !strings.Contains(strings.ReplaceAll(got, " ", ""), long+"end") {
		t.Fatalf("the long line is not whole at 40 columns:\n%s", narrow)
	}
	for _, row := range strings.Split(narrow, "\n") {
		if ansi.StringWidth(row) > 40 || strings.Contains(row, "…") {
			t.Errorf("row %q is wider than 40 or cut", row)
		}
	}
	m, _ = m.Update(keypress.Msg("z"), c, Area{W: 100, H: 20})
	wide := ansi.Strip(m.View(c, 100, 20))
	if n, w := strings.Count(strings.TrimRight(narrow, "\n "), "\n"), strings.Count(strings.TrimRight(wide, "\n "), "\n"); w >= n {
		t.Errorf("zoomed to 100 columns the detail takes %d rows, at 40 it took %d", w, n)
	}
	hit := Content{ID: "b", Lines: append([]string{long, long}, lines(40)...), Top: 12}
	v := ansi.Strip(newModel().View(hit, 40, 10))
	if first := strings.Split(v, "\n")[0]; strings.TrimSpace(first) != "line 11" {
		t.Errorf("Top 12 opened at %q, want line 11", first)
	}
}
