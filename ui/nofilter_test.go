package ui

import (
	tea "charm.land/bubbletea/v2"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
)

// "/" on Index, which has nothing to filter, says so and swallows what is
// typed until esc: before, "/release" opened $EDITOR three times (each
// e) and "/Squash" quit (q).
func TestSlashOnAPaneWithNothingToFilterSwallowsTyping(t *testing.T) {
	for _, typed := range []string{"release", "Squash"} {
		m := newTestModel(t, 100, 30)
		m = press(t, m, keymap.Panes[keymap.PaneIndex("Index")].Key, "/")
		if !strings.Contains(m.status, "Index has nothing to filter") {
			t.Fatalf("/ on Index: status %q", m.status)
		}
		for _, r := range typed {
			next, cmd := m.Update(keypress.Msg(string(r)))
			m = drainWith(t, next.(Model), cmd, func(msg tea.Msg) {
				t.Errorf("/%s: typing %q ran a command (%T)", typed, r, msg)
			})
		}
		if !strings.Contains(m.status, "ignored: "+typed) {
			t.Errorf("/%s: status %q does not say what was ignored", typed, m.status)
		}
		m = press(t, m, "esc")
		if m.modals.has(modalNoFilter) || m.status != "" {
			t.Errorf("/%s then esc: still swallowing (status %q)", typed, m.status)
		}
		if m.focus != keymap.PaneIndex("Index") {
			t.Errorf("/%s moved focus to %d", typed, m.focus)
		}
	}
}
