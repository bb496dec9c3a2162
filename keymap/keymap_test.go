package keymap_test

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/keymap/keymaptest"
)

// Keys that the root handles must never be shadowed by a list key, or a
// pane could never receive them (or the root would steal them).
func TestGlobalAndNavigationKeysDoNotOverlap(t *testing.T) {
	km := keymap.Default()
	seen := map[string]string{}
	groups := append(append(km.Global(), km.Navigation()...), km.Panes[:]...)
	for _, b := range groups {
		for _, k := range b.Keys() {
			if prev, ok := seen[k]; ok {
				t.Errorf("key %q bound to both %q and %q", k, prev, b.Help().Desc)
			}
			seen[k] = b.Help().Desc
		}
	}
}

// Every binding of the keymap, found by reflection (a new field is
// checked without being listed here), has keys and help text.
func TestEveryBindingHasHelp(t *testing.T) {
	all := keymaptest.Bindings(keymap.Default())
	// The walk must see the whole map: every named field and the eleven
	// pane keys.
	var names []string
	for _, n := range all {
		names = append(names, n.Name)
	}
	for _, want := range []string{"Quit", "Back", "Expand", "Window", "Apply", "Export", "ExportHTML", "Panes[0]", "Panes[9]", "Panes[10]", "LiveCompaction"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+want+" ") {
			t.Errorf("the walk missed %s: %v", want, names)
		}
	}
	for _, n := range all {
		b := n.Binding
		if len(b.Keys()) == 0 || b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("binding %s (%+v) lacks keys or help", n.Name, b.Help())
		}
	}
}

// The keymap's own help lists (the root's part of every pane's help)
// hold only bindings of the map, the full list holds the short one, and
// the global, navigation and number keys all appear in it. Which pane
// offers the other bindings is checked by the ui package's
// TestHelpOffersEveryBinding, which walks every pane's modes.
func TestKeymapHelpListsItsGroups(t *testing.T) {
	km := keymap.Default()
	all := keymaptest.Bindings(km)
	inMap := func(b key.Binding) bool {
		for _, n := range all {
			if keymaptest.Same(n.Binding, b) {
				return true
			}
		}
		return false
	}
	var full []key.Binding
	for _, g := range km.FullHelp() {
		full = append(full, g...)
	}
	inFull := func(b key.Binding) bool {
		for _, f := range full {
			if keymaptest.Same(f, b) {
				return true
			}
		}
		return false
	}
	for _, b := range full {
		if !inMap(b) {
			t.Errorf("full help shows %+v, which is no binding of the map", b.Help())
		}
	}
	for _, b := range append(km.ShortHelp(), km.Pinned()...) {
		if !inFull(b) {
			t.Errorf("short help shows %+v, which the full help lacks", b.Help())
		}
	}
	groups := append(append(km.Global(), km.Navigation()...), km.Panes[:]...)
	for _, b := range groups {
		if !inFull(b) {
			t.Errorf("full help lacks %+v", b.Help())
		}
	}
}

func TestPaneNumberKeys(t *testing.T) {
	km := keymap.Default()
	want := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "F", "L", "R", "S"}
	if len(km.Panes) != len(want) {
		t.Fatalf("%d pane keys, want %d", len(km.Panes), len(want))
	}
	for i, b := range km.Panes {
		want := want[i]
		if !key.Matches(fakeKey(want), b) {
			t.Errorf("pane %d (%s) not bound to %q", i, keymap.Panes[i].Name, want)
		}
	}
}

type fakeKey string

func (f fakeKey) String() string { return string(f) }
