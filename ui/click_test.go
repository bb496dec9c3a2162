package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// click presses the left button on row paneRow of the focused pane's
// body (0 is the pane's first line) and runs what the click asks for.
func click(t *testing.T, m Model, paneRow int) Model {
	t.Helper()
	next, cmd := m.Update(tea.MouseClickMsg{X: 10, Y: m.bodyTop() + 1 + paneRow, Button: tea.MouseLeft})
	return drain(t, next.(Model), cmd)
}

// A click on a row is the same as reaching the row with the keys: the
// pane computes or asks for what the new selection shows (the Replay
// pane's resume state and pipeline, the Files pane's diff) instead of
// leaving the old one or "walking the chain…" on screen.
func TestClickSelectsLikeTheKeys(t *testing.T) {
	t.Run("replay timeline", func(t *testing.T) {
		m, _ := demoModel(t, 140, 44)
		m = press(t, m, "7", "G", "enter", "g")
		// The summary and the nav wrap: the third step is on the line
		// that shows it.
		clicked, keyed := click(t, fork(m), stepRow(t, m, 3)), press(t, fork(m), "j", "j")
		if s := screen(clicked); s != screen(keyed) || !strings.Contains(s, "Step 3: after") || strings.Contains(s, "walking the chain") {
			t.Errorf("click on step 3:\n%s\nkeys to step 3:\n%s", s, screen(keyed))
		}
	})
	t.Run("replay pipeline", func(t *testing.T) {
		m, _ := demoModel(t, 140, 44)
		m = press(t, m, "7", "G", "enter", "g", "p")
		clicked, keyed := click(t, fork(m), stepRow(t, m, 3)), press(t, fork(m), "down", "down")
		if s := screen(clicked); s != screen(keyed) || !strings.Contains(s, "Pipeline on step 3,") || strings.Contains(s, "running…") {
			t.Errorf("click on step 3:\n%s\nkeys to step 3:\n%s", s, screen(keyed))
		}
	})
	t.Run("files versions", func(t *testing.T) {
		m, _ := filehistModel(t, 140, 44)
		m = toReadmeVersions(t, press(t, m, "F", "enter", "enter"))
		m = press(t, m, "G")
		// One header line, then the versions: row 1 is the first.
		clicked, keyed := click(t, fork(m), 1), press(t, fork(m), "g")
		if screen(keyed) == screen(m) {
			t.Fatalf("g did not move from the last version:\n%s", screen(m))
		}
		if s := screen(clicked); s != screen(keyed) {
			t.Errorf("click on the first version:\n%s\ng:\n%s", s, screen(keyed))
		}
	})
}

// stepRow is the pane row (0 is the pane's first line) that shows the
// Replay timeline's step n.
func stepRow(t *testing.T, m Model, n int) int {
	t.Helper()
	for i, l := range strings.Split(screen(m), "\n") {
		if strings.HasPrefix(l, fmt.Sprintf("│%4d ", n)) {
			return i - m.bodyTop() - 1
		}
	}
	t.Fatalf("step %d is not on screen:\n%s", n, screen(m))
	return -1
}
