package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/keymap"
)

// After a change, the footer's u names it ("u undo edit user_role.md"),
// on the pane where it was made and on another; after u undoes it, the
// footer says "undo last change" again (what comes before is not known
// to this session). Before, u always said "undo last change".
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
