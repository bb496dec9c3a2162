package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/keypress"
)

// A View after a message that leaves the focused pane's body as it was
// (the status line changed, as most of a start's messages change only
// the status line or another pane) takes the framed body and the screen
// from the memo: it allocates under half of a View that frames them
// anew (on the old code every View framed the body again, the same
// allocations). Every screen is the one a fresh memo draws: after a
// status change, a key that moves the selection, a resize and a theme.
func TestViewReusesTheFramedBody(t *testing.T) {
	m := New(Options{Home: fixedHome(t), Project: betaProject, Now: func() time.Time { return testNow }})
	m = drain(t, m, m.Init())
	next, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	m = next.(Model)
	fresh := func(m Model) string {
		m.memo = &viewMemo{}
		return m.View().Content
	}
	check := func(step string, m Model) {
		t.Helper()
		if got, want := m.View().Content, fresh(m); got != want {
			t.Fatalf("%s: the screen from the memo differs from one drawn anew:\n%s\n---\n%s", step, got, want)
		}
	}
	check("first", m)
	m.setStatus("one status", false)
	check("status", m)
	m.setStatus("another status", false)
	full := testing.AllocsPerRun(5, func() { fresh(m) })
	memo := testing.AllocsPerRun(5, func() { _ = m.View() })
	t.Logf("allocations of a View: %.0f framing anew, %.0f after a status change", full, memo)
	if memo > full/2 {
		t.Errorf("a View after a status change allocates %.0f times, a View framing anew %.0f: want under half", memo, full)
	}
	for _, k := range []string{"down", "down", "tab", "down"} {
		next, _ := m.Update(keypress.Msg(k))
		m = next.(Model)
		check("key "+k, m)
	}
	next, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = next.(Model)
	check("resize", m)
	m.setTheme(!m.styles.IsDark)
	check("theme", m)
}
