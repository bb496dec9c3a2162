package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
)

// The palette opens on ":" and on ctrl+p, narrows as the user types, and
// enter runs the action by its name: "go to pane Replay" focuses Replay
// (read from the pane table, not a digit), "help" opens the overlay.
func TestPaletteRunsAnActionByName(t *testing.T) {
	m := newTestModel(t, 100, 30)
	m = press(t, m, ":")
	if m.modals.palette() == nil {
		t.Fatal(": did not open the palette")
	}
	s := screen(m)
	for _, want := range []string{"Command palette", "go to pane Replay", "edit in $EDITOR", "undo last change"} {
		if !strings.Contains(s+strings.Join(titles(m), "\n"), want) {
			t.Errorf("the palette lacks %q:\n%s", want, s)
		}
	}
	m = typeText(t, m, "go replay")
	if got := titles(m); len(got) == 0 || got[0] != "go to pane Replay" {
		t.Fatalf("typed \"go replay\": first match %q", got)
	}
	m = press(t, m, "enter")
	if m.modals.palette() != nil {
		t.Error("the palette stays open after running an action")
	}
	if want := keymap.PaneIndex("Replay"); m.focus != want {
		t.Errorf("go to pane Replay: focus %d, want %d", m.focus, want)
	}

	m = press(t, m, "ctrl+p")
	if m.modals.palette() == nil {
		t.Fatal("ctrl+p did not open the palette")
	}
	m = typeText(t, m, "help")
	m = press(t, m, "enter")
	if !m.modals.has(modalHelp) {
		t.Errorf("help from the palette did not open the overlay:\n%s", screen(m))
	}
}

// An action that cannot run on the focused pane is listed greyed with
// why; enter on it says why and runs nothing; esc closes the palette and
// the keys it swallowed did nothing (typing "q" did not quit).
func TestPaletteShowsWhyAnActionIsUnavailable(t *testing.T) {
	m := newTestModel(t, 120, 30)
	m = press(t, m, keymap.Panes[keymap.PaneIndex("Projects")].Key, ":")
	m = typeText(t, m, "new memory")
	s := screen(m)
	if !strings.Contains(s, "new memory — not on this pane") {
		t.Fatalf("new memory on Projects is not greyed with why:\n%s", s)
	}
	m = press(t, m, "enter")
	if m.modals.palette() == nil {
		t.Fatal("enter on an unavailable action closed the palette")
	}
	if !strings.Contains(m.status, "not on this pane") {
		t.Errorf("status %q does not say why", m.status)
	}
	if m.focus != keymap.PaneIndex("Projects") || m.p.memories.Filtering() {
		t.Error("an unavailable action ran")
	}
	next, cmd := m.Update(keypress.Msg("q"))
	m = drain(t, next.(Model), cmd)
	if got := m.modals.palette().Query(); !strings.HasSuffix(got, "q") {
		t.Errorf("q in the palette is typed, query %q", got)
	}
	m = press(t, m, "esc")
	if m.modals.palette() != nil {
		t.Error("esc did not close the palette")
	}
}

// Every action of the binding table but the palette's own is in the
// palette, once.
func TestPaletteListsEveryAction(t *testing.T) {
	m := newTestModel(t, 100, 30)
	items := m.paletteItems()
	seen := map[string]int{}
	for _, it := range items {
		seen[it.Name]++
	}
	for _, a := range keymap.Actions() {
		want := 1
		if a.Name == "palette" {
			want = 0
		}
		if seen[a.Name] != want {
			t.Errorf("%s is in the palette %d times, want %d", a.Name, seen[a.Name], want)
		}
	}
}

func titles(m Model) []string {
	p := m.modals.palette()
	if p == nil {
		return nil
	}
	var out []string
	for _, it := range p.Shown() {
		out = append(out, it.Title)
	}
	return out
}

// While the palette is open the footer shows the palette's keys (enter
// runs, esc closes, ↑/↓ move, typing filters), not the pane's: the
// palette has the keyboard, so the pane's "e edit" or "q quit" would be
// typed into its query. Before, the footer kept the pane's keys.
func TestPaletteFooterShowsItsKeys(t *testing.T) {
	m := newTestModel(t, 80, 24)
	m = press(t, m, keymap.Panes[keymap.PaneIndex("Memories")].Key)
	before := ansi.Strip(m.helpLine())
	if !strings.Contains(before, "quit") {
		t.Fatalf("the Memories footer lacks quit: %q", before)
	}
	m = press(t, m, ":")
	line := ansi.Strip(m.helpLine())
	for _, want := range []string{"enter run", "esc close", "↑/↓ move", "type to filter"} {
		if !strings.Contains(line, want) {
			t.Errorf("palette footer %q lacks %q", line, want)
		}
	}
	if strings.Contains(line, "quit") || strings.Contains(line, "help") {
		t.Errorf("palette footer %q still offers the pane's keys", line)
	}
	lines := strings.Split(ansi.Strip(screen(m)), "\n")
	if foot := lines[len(lines)-2]; !strings.Contains(foot, "esc close") {
		t.Errorf("the screen's footer line is not the palette's: %q", foot)
	}
	m = press(t, m, "esc")
	if got := ansi.Strip(m.helpLine()); got != before {
		t.Errorf("after esc the footer is %q, want the pane's %q", got, before)
	}
}
