package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/keymap"
)

// After a change, the footer's u names it ("u undo edit user_role.md"),
// on the pane where it was made and on another; after u undoes it, the
// footer says "undo last change" again (the demo's journal holds nothing
// before it). Before, u always said "undo last change".
func TestUndoNamesTheChangeInTheFooter(t *testing.T) {
	m, l := demoModel(t, 160, 40)
	orig := readMemory(t, l, "user_role.md")
	m, _ = editWith(t, m, memPath(l, "user_role.md"), orig+"Edited in the editor.\n")
	if m.statusErr {
		t.Fatalf("the save failed: %s", m.status)
	}
	want := "u undo " + m.undoWhat()
	if m.undoWhat() == "" || !strings.Contains(m.undoWhat(), "user_role.md") {
		t.Fatalf("after the save u names %q", m.undoWhat())
	}
	for _, pane := range []string{"Index", "History"} {
		m = press(t, m, keymap.Panes[keymap.PaneIndex(pane)].Key)
		if line := ansi.Strip(m.helpLine()); !strings.Contains(line, want) {
			t.Errorf("pane %s: footer %q does not say %q", pane, line, want)
		}
	}
	m = press(t, m, "u")
	if m.undoWhat() != "" {
		t.Errorf("after u the footer still names %q", m.undoWhat())
	}
}

// After a restart the footer's u names the change the journal would undo
// (what `memscope undo` reads), not "undo last change": two edits are
// made through the writer, a new app opens the same home, its footer
// names the second; after u it names the first (the journal's newest
// again). Before, a new run knew only its own changes.
func TestUndoNamesAnEarlierRunsChange(t *testing.T) {
	m, l := demoModel(t, 160, 40)
	for _, f := range []string{"user_role.md", "feedback_terse_answers.md"} {
		m, _ = editWith(t, m, memPath(l, f), readMemory(t, l, f)+"Edited in the editor.\n")
		if m.statusErr {
			t.Fatalf("the save of %s failed: %s", f, m.status)
		}
	}

	m = demoModelAt(t, l, true, 160, 40)
	want := "u undo edit feedback_terse_answers.md"
	for _, pane := range []string{"Index", "History"} {
		m = press(t, m, keymap.Panes[keymap.PaneIndex(pane)].Key)
		if line := ansi.Strip(m.helpLine()); !strings.Contains(line, want) {
			t.Errorf("restarted, pane %s: footer %q does not say %q", pane, line, want)
		}
	}
	m = press(t, m, "u")
	if m.statusErr {
		t.Fatalf("u failed: %s", m.status)
	}
	if line := ansi.Strip(m.helpLine()); !strings.Contains(line, "u undo edit user_role.md") {
		t.Errorf("after u the footer %q does not name the change before it", line)
	}
}
