package index

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/keymap/teakey"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

// A line past the cut that links a memory the sessions never saw gets a
// note under it; the other dropped lines do not.
func TestDroppedLinesSayWhenSeen(t *testing.T) {
	var raw strings.Builder
	for i := 1; i <= 201; i++ {
		raw.WriteString("- filler\n")
	}
	raw.WriteString("- [Late](late.md) — past the cut\n")
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(100, 40)
	m, _ = m.Update(DataMsg{Data: Data{Path: "/h/MEMORY.md", Exists: true, Cap: memindex.CapIndex([]byte(raw.String())), Loaded: "- filler",
		Dropped: []string{"- filler", "- [Late](late.md) — past the cut"}, Unseen: map[int]string{1: "never seen by the model (records since 2026-11-13)"}}})
	m.vp.GotoBottom()
	got := ansi.Strip(m.View())
	want := "- [Late](late.md) — past the cut\n    ↳ never seen by the model (records since 2026-11-13)"
	lines := strings.Split(got, "\n")
	var trimmed []string
	for _, l := range lines {
		trimmed = append(trimmed, strings.TrimRight(l, " "))
	}
	if !strings.Contains(strings.Join(trimmed, "\n"), want) || strings.Count(got, "↳") != 1 {
		t.Errorf("index pane:\n%s", got)
	}
}

// A MEMORY.md that is there but is not a regular file is named for what
// it is, not called missing.
func TestUnreadIndexIsNamed(t *testing.T) {
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(100, 40)
	m.setData(Data{Path: "/h/MEMORY.md", Unread: "is a named pipe, not a regular file", Cap: memindex.CapIndex(nil)})
	got := strings.Join(strings.Fields(ansi.Strip(m.View())), " ")
	if !strings.Contains(got, "MEMORY.md is there but is a named pipe, not a regular file") || strings.Contains(got, "does not exist") || strings.Contains(got, "no MEMORY.md") {
		t.Errorf("index pane:\n%s", got)
	}
}

// Opened at the cut (the Overview's cut line), the pane stays at the cut
// when the index comes back rendered anew with more rows (the first load
// and a re-render at the pane's width differ), until the user scrolls.
func TestShowCutFollowsANewRendering(t *testing.T) {
	var raw strings.Builder
	for i := 1; i <= 205; i++ {
		raw.WriteString("- filler\n")
	}
	data := func(rows int) Data {
		return Data{Path: "/h/MEMORY.md", Exists: true, Cap: memindex.CapIndex([]byte(raw.String())),
			Loaded: strings.TrimSuffix(strings.Repeat("- filler\n", rows), "\n"), Dropped: []string{"- filler"}, Unseen: map[int]string{}}
	}
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(80, 20)
	atCut := func(m Model) bool { return strings.Contains(ansi.Strip(m.View()), "the client stops here") }
	m, _ = m.Update(msgs.Show{What: ShowCut})
	m, _ = m.Update(DataMsg{Data: data(200)})
	if !atCut(m) {
		t.Fatalf("not at the cut after the index came in:\n%s", ansi.Strip(m.View()))
	}
	m, _ = m.Update(DataMsg{Data: data(400)})
	if !atCut(m) {
		t.Errorf("a new rendering with more rows left the cut:\n%s", ansi.Strip(m.View()))
	}
	m, _ = m.Update(teakey.Press("k"))
	m, _ = m.Update(teakey.Press("g"))
	m, _ = m.Update(DataMsg{Data: data(400)})
	if atCut(m) {
		t.Errorf("after the user scrolled to the top a reload jumped back to the cut:\n%s", ansi.Strip(m.View()))
	}
}
