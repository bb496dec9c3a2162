package review

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/engine/gate"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

func testPane(t *testing.T) Model {
	t.Helper()
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(100, 20)
	var diff strings.Builder
	diff.WriteString("--- /dev/null\n+++ b/now/a.md\n@@ -0,0 +1,40 @@\n")
	for i := range 40 {
		fmt.Fprintf(&diff, "+line %02d\n", i)
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	m, _ = m.Update(DataMsg{Data: Data{Items: []Item{
		{Path: "a.md", Abs: "/m/a.md", Status: "new", Time: now.Add(-time.Hour), Last: "Write by the main agent", Diff: diff.String(), Content: []byte("A"),
			Jump: &msgs.ReplayAt{Path: "projects/p/s.jsonl", Message: "u1"}},
		{Path: "b\x1b[31m.md", Abs: "/m/b.md", Status: "changed", Time: now.Add(-2 * time.Hour), Last: "Edit", Diff: "-x\n+y\n", Reviewed: now.Add(-48 * time.Hour)},
	}}, Now: now})
	return m
}

func press(t *testing.T, m Model, k string) (Model, tea.Msg) {
	t.Helper()
	m, cmd := m.Update(keypress.Msg(k))
	if cmd == nil {
		return m, nil
	}
	return m, cmd()
}

func TestKeysSendTheirRequests(t *testing.T) {
	m := testPane(t)
	_, msg := press(t, m, "a")
	if a, ok := msg.(msgs.AcceptReview); !ok || a.Path != "a.md" || string(a.Content) != "A" {
		t.Errorf("a sent %#v", msg)
	}
	_, msg = press(t, m, "o")
	if j, ok := msg.(msgs.ReplayAt); !ok || j.Message != "u1" {
		t.Errorf("o sent %#v", msg)
	}
	_, msg = press(t, m, "e")
	if e, ok := msg.(msgs.OpenEditor); !ok || e.Path != "/m/a.md" {
		t.Errorf("e sent %#v", msg)
	}
	// d asks first; n cancels, y rejects.
	m2, msg := press(t, m, "d")
	if msg != nil || !m2.Filtering() || !strings.Contains(ansi.Strip(m2.View()), "Reject a.md: move it to the trash? y/n") {
		t.Fatalf("d did not ask: %#v", msg)
	}
	_, msg = press(t, m2, "n")
	if _, ok := msg.(msgs.Status); !ok {
		t.Errorf("n sent %#v", msg)
	}
	_, msg = press(t, m2, "y")
	if d, ok := msg.(msgs.DeleteMemory); !ok || d.Path != "/m/a.md" {
		t.Errorf("y sent %#v", msg)
	}
	// o on an item no transcript holds says so.
	m3, _ := press(t, m, "j")
	if _, msg = press(t, m3, "o"); msg == nil {
		t.Error("o without a turn sent nothing")
	} else if s, ok := msg.(msgs.Status); !ok || !s.Error {
		t.Errorf("o without a turn sent %#v", msg)
	}
}

func TestDiffScrollsAndNamesAreClean(t *testing.T) {
	m := testPane(t)
	if s := ansi.Strip(m.View()); !strings.Contains(s, "+line 00") || strings.Contains(s, "+line 39") {
		t.Fatalf("first view:\n%s", s)
	}
	m, _ = press(t, m, "J")
	m, _ = press(t, m, "J")
	m, _ = press(t, m, "J")
	s := ansi.Strip(m.View())
	if !strings.Contains(s, "lines above (K)") || strings.Contains(s, "+line 00") || !strings.Contains(s, "+line 39") {
		t.Fatalf("after J:\n%s", s)
	}
	m, _ = press(t, m, "K")
	m, _ = press(t, m, "K")
	m, _ = press(t, m, "K")
	if s := ansi.Strip(m.View()); !strings.Contains(s, "+line 00") {
		t.Fatalf("after K:\n%s", s)
	}
	if strings.Contains(m.View(), "\x1b[31m") {
		t.Error("a name's escape reached the screen")
	}
}

// TestHeldWritesShown: the writes the gate held in the folder show in
// the head line, with the newest; without any, nothing is said of the
// gate.
func TestHeldWritesShown(t *testing.T) {
	m := testPane(t)
	if strings.Contains(ansi.Strip(m.View()), "gate held") {
		t.Fatal("no held write, yet the pane names the gate")
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	m, _ = m.Update(DataMsg{Data: Data{Held: []gate.Record{
		{Time: now.Add(-time.Hour), Tool: "Write", Path: "/m/secret\x1b[2J.md", Decision: gate.Deny},
		{Time: now.Add(-2 * time.Hour), Tool: "Edit", Path: "/m/a.md", Decision: gate.Ask},
	}}, Now: now})
	if v := ansi.Strip(m.View()); !strings.HasPrefix(v, "gate held 2 · ") {
		t.Errorf("the held writes are not shown first:\n%s", v)
	}
	m.SetSize(300, 20)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "newest held: Write secret") || !strings.Contains(v, "deny Nov 22 11:00") {
		t.Errorf("the newest held write is not shown:\n%s", v)
	}
	if strings.Contains(m.View(), "\x1b[2J") {
		t.Error("a held path reached the terminal unsanitized")
	}
}

// A diff line longer than the detail wraps (each piece coloured as the
// line) instead of being cut with "…": the detail is the only place in
// the pane that shows the change. Before, the line was cut at the
// detail's width.
func TestLongDiffLineWraps(t *testing.T) {
	long := "+description: " + strings.Repeat("wrap me whole ", 20) + "END"
	for _, w := range []int{80, 120} {
		m := New(keymap.Default(), style.New(true, true))
		m.SetSize(w, 30)
		m, _ = m.Update(DataMsg{Data: Data{Items: []Item{{Path: "a.md", Abs: "/m/a.md", Status: "new", Last: "Write", Diff: "--- /dev/null\n+++ b/now/a.md\n@@ -0,0 +1 @@\n" + long + "\n"}}}, Now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)})
		s := ansi.Strip(m.View())
		squeeze := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "│", " ")), "") }
		if !strings.Contains(squeeze(s), squeeze(long)) {
			t.Errorf("at %d columns the diff line is not whole:\n%s", w, s)
		}
	}
}

// The reject question wraps in the list's column instead of being cut
// (at 120 columns the column is 48 wide, and a long name cut the y/n
// away), and a click on a row while it is asked selects the row clicked.
func TestRejectQuestionWrapsAndClicksLand(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	long := "feedback_integration_tests_real_db_and_the_long_tail.md"
	for _, w := range []int{80, 120} {
		m := New(keymap.Default(), style.New(true, true))
		m.SetSize(w, 30)
		m, _ = m.Update(DataMsg{Data: Data{Items: []Item{
			{Path: long, Abs: "/m/" + long, Status: "new", Last: "Write", Diff: "+x\n", Time: now.Add(-time.Hour)},
			{Path: "b.md", Abs: "/m/b.md", Status: "new", Last: "Write", Diff: "+y\n", Time: now.Add(-2 * time.Hour)},
			{Path: "c.md", Abs: "/m/c.md", Status: "new", Last: "Write", Diff: "+z\n", Time: now.Add(-3 * time.Hour)},
		}}, Now: now})
		m, _ = press(t, m, "d")
		s := ansi.Strip(m.View())
		squeeze := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "│", " ")), "") }
		var left []string
		for _, l := range strings.Split(s, "\n") {
			left = append(left, strings.SplitN(l, "│", 2)[0])
		}
		if q := "Reject " + long + ": move it to the trash? y/n (undo with u)"; !strings.Contains(squeeze(strings.Join(left, "\n")), squeeze(q)) {
			t.Errorf("at %d columns the question is not whole:\n%s", w, s)
		}
		y := -1
		for i, l := range left {
			if strings.Contains(l, "c.md") {
				y = i
			}
		}
		m.ClickRow(y)
		if it, ok := m.list.Selected(); !ok || it.Path != "c.md" || m.confirm {
			t.Errorf("at %d columns a click on c.md's row (line %d) selected %q (asking: %v):\n%s", w, y+1, it.Path, m.confirm, s)
		}
	}
}
