package keymap

import (
	"testing"

	"charm.land/bubbles/v2/key"
)

// Keys that the root handles must never be shadowed by a list key, or a
// pane could never receive them (or the root would steal them).
func TestGlobalAndNavigationKeysDoNotOverlap(t *testing.T) {
	km := Default()
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

func TestEveryBindingHasHelp(t *testing.T) {
	km := Default()
	all := append(km.Global(), km.Navigation()...)
	all = append(all, km.Edit, km.New, km.Retype, km.Rename, km.Delete, km.Expand, km.Confirm, km.Cancel,
		km.StepNext, km.StepPrev, km.NextBoundary, km.PrevBoundary, km.Pipeline, km.Window, km.Query, km.Toggle, km.Apply)
	for _, b := range all {
		if len(b.Keys()) == 0 || b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("binding %+v lacks keys or help", b.Help())
		}
	}
}

func TestPaneNumberKeys(t *testing.T) {
	km := Default()
	want := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"}
	if len(km.Panes) != len(want) {
		t.Fatalf("%d pane keys, want %d", len(km.Panes), len(want))
	}
	for i, b := range km.Panes {
		want := want[i]
		if !key.Matches(fakeKey(want), b) {
			t.Errorf("pane %d (%s) not bound to %q", i, PaneNames[i], want)
		}
	}
}

type fakeKey string

func (f fakeKey) String() string { return string(f) }
