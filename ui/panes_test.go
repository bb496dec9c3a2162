package ui

import (
	"testing"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
)

// The shell's pane table and keymap.Panes are the same table row for
// row: row i builds the pane keymap.Panes[i] names, and each row's pane
// is its own value in the pane set.
func TestPaneTableMatchesKeymap(t *testing.T) {
	ps := newPanes(keymap.Default(), style.New(true, true))
	seen := map[pane]int{}
	for i, r := range paneTable {
		p := r.of(ps)
		if got, want := p.Title(), keymap.Panes[i].Name; got != want {
			t.Errorf("pane table row %d is %s; keymap.Panes[%d] is %s", i, got, i, want)
		}
		if j, dup := seen[p]; dup {
			t.Errorf("rows %d and %d are the same pane", j, i)
		}
		seen[p] = i
	}
	for _, name := range []string{"Retention", "Files", "Security"} {
		if !paneTable[keymap.PaneIndex(name)].lazy {
			t.Errorf("%s is read only when focused; its row says otherwise", name)
		}
	}
	if paneTable[keymap.PaneIndex("Projects")].lazy {
		t.Error("Projects, the first pane, is marked loads-on-focus")
	}
}
