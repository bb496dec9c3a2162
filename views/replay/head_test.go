package replay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
)

// squeeze is s without spaces, line breaks and the side's rule: a text
// wrapped at any space is found in it as one run.
func squeeze(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "│", " ")), "")
}

// rowOf is the screen line that shows step n (1-based), or -1.
func rowOf(screen string, n int) int {
	for i, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, fmt.Sprintf("%4d ", n)) {
			return i
		}
	}
	return -1
}

// The timeline's summary and nav wrap at the steps' width instead of
// being cut (at 80 columns the detail is under the steps, at 120 beside
// them), and a click on the line that shows a step selects that step, in
// the timeline and in the pipeline. Before, both lines ended in "…" and
// a click landed one row below the step clicked (a fixed offset of 3
// under 2 lines).
func TestHeadWrapsAndClicksLandOnTheStep(t *testing.T) {
	tl := rulesTimeline(t)
	for _, size := range [][2]int{{80, 18}, {120, 34}} {
		for _, pipeline := range []bool{false, true} {
			m := New(keymap.Default(), style.New(true, true))
			m.SetSize(size[0], size[1])
			m = openTimeline(t, m, tl)
			m, _ = m.Update(FollowingMsg{On: true})
			if pipeline {
				m, _ = press(t, m, "p")
			}
			s := screen(m)
			name := fmt.Sprintf("%dx%d pipeline=%v", size[0], size[1], pipeline)
			// The head's lines, without the side beside them.
			var left []string
			for i, l := range strings.Split(s, "\n")[:m.headRows()] {
				l = strings.SplitN(l, "│", 2)[0]
				if strings.Contains(l, "…") {
					t.Errorf("%s: head line %d is cut: %q", name, i+1, l)
				}
				left = append(left, l)
			}
			for _, whole := range []string{
				tl.Session + " · 30 records · 2 compactions · window 200k: warn 147k, autocompact 167k, blocked 177k",
				m.nav(),
			} {
				if !strings.Contains(squeeze(strings.Join(left, "\n")), squeeze(whole)) {
					t.Errorf("%s: %q is not whole on screen:\n%s", name, whole, s)
				}
			}
			var shown []int
			for n := 1; n <= len(tl.Steps); n++ {
				if rowOf(s, n) >= 0 {
					shown = append(shown, n)
				}
			}
			if len(shown) < 3 {
				t.Fatalf("%s: %d steps on screen:\n%s", name, len(shown), s)
			}
			for _, n := range []int{shown[0], shown[len(shown)/2], shown[len(shown)-1]} {
				y := rowOf(screen(m), n)
				m.ClickRow(y)
				if m.Step() != n-1 {
					t.Errorf("%s: a click on the line of step %d (line %d) selected step %d:\n%s", name, n, y+1, m.Step()+1, screen(m))
				}
			}
		}
	}
}

// z draws the step's state at the zoomed width: beside the steps (120
// columns) the state's lines are made for the side's 53 columns and cut
// there ("The model saw 13 messages, from the compaction bou…"); zoomed,
// they are whole. Before, the zoom showed the side's lines, cut as
// beside.
func TestZoomDrawsAtTheZoomedWidth(t *testing.T) {
	tl := rulesTimeline(t)
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(120, 34)
	m = openTimeline(t, m, tl)
	m, _ = press(t, m, "g", "right", "right", "right", "right")
	want := "The model saw "
	line := func(s string) string {
		for _, l := range strings.Split(s, "\n") {
			if i := strings.Index(l, want); i >= 0 {
				return strings.TrimRight(l[i:], " │")
			}
		}
		return ""
	}
	beside := line(screen(m))
	if !strings.HasSuffix(beside, "…") {
		t.Fatalf("beside the steps the line should be cut at the side's width: %q\n%s", beside, screen(m))
	}
	m, _ = press(t, m, "z")
	if z := line(screen(m)); strings.Contains(z, "…") || !strings.HasSuffix(z, ":") || !strings.HasPrefix(z, strings.TrimSuffix(beside, "…")) {
		t.Errorf("zoomed, the line should be whole: %q\n%s", z, screen(m))
	}
}
