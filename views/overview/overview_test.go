package overview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	engov "github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

func newPane(w, h int) Model {
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(w, h)
	return m
}

// TestLinesArriveOneByOne: every line shows "counting…" until its own
// line arrives, and a line in does not wait for the others; a line
// counted again goes back to counting.
func TestLinesArriveOneByOne(t *testing.T) {
	m := newPane(120, 30)
	v := ansi.Strip(m.View())
	if n := countingRows(v); n != len(engov.Specs) {
		t.Fatalf("%d lines counting at first, want %d:\n%s", n, len(engov.Specs), v)
	}
	m, _ = m.Update(LineMsg{Line: engov.Line{ID: engov.Lint, Count: 7, Needs: true, Text: "lint: 3 errors, 4 warnings in the project's memory", Pane: "health", Command: "memscope lint"}})
	v = ansi.Strip(m.View())
	if n := countingRows(v); n != len(engov.Specs)-1 {
		t.Fatalf("%d lines counting after one came in, want %d:\n%s", n, len(engov.Specs)-1, v)
	}
	row := lineOf(v, "lint ")
	for _, want := range []string{"●", " 7 ", "3 errors", "[" + keymap.PaneKey(keymap.PaneIndex("Health")) + "] Health"} {
		if !strings.Contains(row, want) {
			t.Errorf("lint row %q lacks %q", row, want)
		}
	}
	m, _ = m.Update(CountingMsg{IDs: []engov.ID{engov.Lint}})
	if n := countingRows(ansi.Strip(m.View())); n != len(engov.Specs) {
		t.Errorf("%d lines counting after lint was counted again, want all", n)
	}
}

// TestEnterOpensTheLinesPane: enter on a counted line asks the root to
// open the line's pane at its filter; on a line still counting it only
// says so.
func TestEnterOpensTheLinesPane(t *testing.T) {
	m := newPane(80, 24)
	_, cmd := m.Update(keypress.Msg("enter"))
	if cmd == nil {
		t.Fatal("enter on a counting line does nothing")
	}
	if _, ok := cmd().(msgs.Status); !ok {
		t.Errorf("enter on a counting line: %T, want a status", cmd())
	}
	m, _ = m.Update(LineMsg{Line: engov.Line{ID: engov.Cut, Count: 3, Text: "3 memories past MEMORY.md's cut", Pane: "index", Filter: "cut", Command: "memscope export --memory"}})
	_, cmd = m.Update(keypress.Msg("enter"))
	got, ok := cmd().(msgs.OpenPane)
	if !ok || got != (msgs.OpenPane{Pane: "index", Show: "cut"}) {
		t.Errorf("enter on the cut line: %#v, want the Index at the cut", cmd())
	}
	// The second line once it is in.
	m, _ = m.Update(LineMsg{Line: engov.Line{ID: engov.Stale, Count: 2, Text: "2 stale memories", Pane: "memories", Filter: "stale", Command: "memscope lint"}})
	m, _ = m.Update(keypress.Msg("j"))
	_, cmd = m.Update(keypress.Msg("enter"))
	if got, _ := cmd().(msgs.OpenPane); got != (msgs.OpenPane{Pane: "memories", Show: "stale"}) {
		t.Errorf("enter on the stale line: %#v", cmd())
	}
}

// TestLongLineReadWhole: a line cut in its row is whole in the detail
// under the list.
func TestLongLineReadWhole(t *testing.T) {
	m := newPane(80, 24)
	long := strings.Repeat("word ", 40) + "END"
	m, _ = m.Update(LineMsg{Line: engov.Line{ID: engov.Cut, Text: long, Pane: "index", Command: "memscope export --memory"}})
	v := ansi.Strip(m.View())
	if !strings.Contains(lineOf(v, "cut "), "…") {
		t.Errorf("the row is not cut:\n%s", v)
	}
	if !strings.Contains(strings.Join(strings.Fields(v), " "), strings.TrimSpace(long)) {
		t.Errorf("the long line is not whole on screen:\n%s", v)
	}
}

// lineOf is the first screen line holding s.
func lineOf(v, s string) string {
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// countingRows counts the rows that say "counting…".
func countingRows(v string) int {
	n := 0
	for _, sp := range engov.Specs {
		if strings.Contains(lineOf(v, "  "+string(sp.ID)+" "), "counting…") {
			n++
		}
	}
	return n
}
