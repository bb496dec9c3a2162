package ui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// shownLines is the "lines A–B of N" a long detail ends in, or "".
var shownLines = regexp.MustCompile(`lines (\d+)–(\d+) of (\d+)`)

func detailPosition(m Model) string {
	if mt := shownLines.FindStringSubmatch(screen(m)); mt != nil {
		return mt[0]
	}
	return ""
}

// wheelAt turns the wheel at screen cell x, y.
func wheelAt(t *testing.T, m Model, b tea.MouseButton, x, y int) Model {
	t.Helper()
	next, cmd := m.Update(tea.MouseWheelMsg{X: x, Y: y, Button: b})
	return drain(t, next.(Model), cmd)
}

// rowOf is the screen row of the first line containing s, or -1.
func rowOf(m Model, s string) int {
	for i, l := range strings.Split(screen(m), "\n") {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

// The prune diff a user approves in Health can be read to its end at
// 80×24: J scrolls it, also while the y/n is asked (without answering
// it); the wheel over the diff scrolls the diff, over the list moves the
// list; z gives the diff the pane and esc gives it back.
func TestHealthDiffScrollsAndZooms(t *testing.T) {
	m := sharedDemoModel(t, 80, 24)
	m = press(t, m, "9")
	// The first action whose diff is longer than the rows it has.
	row := 0
	for ; row < 12 && detailPosition(m) == ""; row++ {
		m = press(t, m, "j")
	}
	pos := detailPosition(m)
	mt := shownLines.FindStringSubmatch(pos)
	if mt == nil || mt[1] != "1" {
		t.Fatalf("the first action's diff does not say which lines show: %q\n%s", pos, screen(m))
	}
	total := mt[3]
	m = press(t, m, "space", "k", "a") // select the action, ask to apply it
	if !strings.Contains(screen(m), "y/n") {
		t.Fatalf("no question:\n%s", screen(m))
	}
	for range 200 {
		m = press(t, m, "J")
	}
	if got := shownLines.FindStringSubmatch(detailPosition(m)); got == nil || got[2] != total {
		t.Fatalf("J while asked did not reach the diff's end (%s lines): %q\n%s", total, detailPosition(m), screen(m))
	}
	if !strings.Contains(screen(m), "y/n") {
		t.Fatalf("J answered the question:\n%s", screen(m))
	}
	m = press(t, m, "n")
	for range 200 {
		m = press(t, m, "K")
	}

	// The wheel: over the diff it scrolls it; over the list it moves the
	// cursor (a new row's detail starts at its top).
	// A row of the diff: the one above its position line.
	diffRow := rowOf(m, "── lines 1–") - 1
	if diffRow < 0 {
		t.Fatalf("no diff on screen:\n%s", screen(m))
	}
	before := detailPosition(m)
	m = wheelAt(t, m, tea.MouseWheelDown, 10, diffRow)
	after := detailPosition(m)
	if !strings.HasPrefix(before, "lines 1–") || !strings.HasPrefix(after, "lines ") || strings.HasPrefix(after, "lines 1–") {
		t.Fatalf("the wheel over the diff: %q → %q", before, after)
	}
	listRow := rowOf(m, "[ ]")
	m = wheelAt(t, m, tea.MouseWheelDown, 10, listRow)
	if got := detailPosition(m); got == after {
		t.Fatalf("the wheel over the list scrolled the diff: %q", got)
	}

	m = press(t, m, "k")
	// The selected action's first detail line, under the list's rule.
	lines := strings.Split(screen(m), "\n")
	first := ""
	for i, l := range lines {
		if strings.Contains(l, "│──") && i+1 < len(lines) {
			first = strings.TrimSpace(strings.Trim(lines[i+1], "│ "))
			break
		}
	}
	m = press(t, m, "z")
	if strings.Contains(screen(m), "[ ] ") {
		t.Fatalf("zoomed, the list still shows:\n%s", screen(m))
	}
	// Zoomed, the diff has the whole pane (its long lines wrap, so it
	// may still scroll, with the zoomed keys), from its first line.
	if s := screen(m); first == "" || !strings.Contains(s, first) {
		t.Fatalf("zoomed, the selected action's detail (%q) is not on screen:\n%s", first, s)
	}
	m = press(t, m, "esc")
	if !strings.Contains(screen(m), "[ ] ") {
		t.Fatalf("esc did not give the list back:\n%s", screen(m))
	}
}

// Every detail pane offers the scroll and zoom keys, and z zooms there.
// One model visits the panes in turn (z twice leaves each as it was).
func TestEveryDetailZooms(t *testing.T) {
	m := sharedDemoModel(t, 80, 24)
	for _, pane := range []string{"4", "5", "6", "8", "9", "0"} {
		m = press(t, m, pane)
		full := helpKeys(m.paneAt(m.focus).Help())
		if !strings.Contains(" "+full+" ", " J K z ") {
			t.Errorf("pane %s offers %q, without J K z", pane, full)
		}
		before := screen(m)
		m = press(t, m, "z")
		if screen(m) == before || m.paneAt(m.focus).Filtering() {
			t.Errorf("pane %s: z changed nothing\n%s", pane, screen(m))
		}
		m = press(t, m, "z")
		if screen(m) != before {
			t.Errorf("pane %s: z twice is not where it started:\n%s\n----\n%s", pane, before, screen(m))
		}
	}
}

// A form or a question opened while the detail is zoomed shows: the
// zoom gives way to the list and the question over it.
func TestZoomGivesWayToQuestions(t *testing.T) {
	m, _ := writableModel(t, 120, 40)
	m = press(t, m, "4", "z", "n")
	if !strings.Contains(screen(m), "new memory") {
		t.Errorf("n while zoomed: the form does not show\n%s", screen(m))
	}
	m = press(t, m, "esc", "9", "z", "space", "a")
	if !strings.Contains(screen(m), "y/n") {
		t.Errorf("a while zoomed: the question does not show\n%s", screen(m))
	}
}

// Zoomed, the help line starts with the way back, at any width.
func TestZoomedHelpLineShowsTheWayBack(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := sharedDemoModel(t, w, 24)
		m = press(t, m, "9", "z")
		if line := m.helpLine(); !strings.HasPrefix(line, "z back to the list") || !strings.HasSuffix(strings.TrimSpace(line), "q quit") {
			t.Errorf("%d columns, zoomed: help line %q", w, line)
		}
	}
}
