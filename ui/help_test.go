package ui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/memscope/memscope/keymap/keymaptest"
)

// helpModes are the panes in each of their modes, reached with the keys a
// person presses, and a help key that shows the mode was reached.
var helpModes = []struct {
	name     string
	filehist bool // the generated file-history home instead of the demo
	keys     []string
	shows    string
}{
	{"projects", false, []string{"1"}, "enter"},
	{"index", false, []string{"2"}, "G"},
	{"memories", false, []string{"3"}, "n"},
	{"memories form", false, []string{"3", "n"}, "esc"},
	{"memories delete", false, []string{"3", "g", "d"}, "y"},
	{"history", false, []string{"4"}, "space"},
	{"pastes", false, []string{"5"}, "enter"},
	{"replay sessions", false, []string{"6"}, "X"},
	{"replay timeline", false, []string{"6", "G", "enter"}, "]"},
	{"replay pipeline", false, []string{"6", "G", "enter", "p"}, "w"},
	{"prompt", false, []string{"7"}, "i"},
	{"prompt query", false, []string{"7", "i"}, "esc"},
	{"health", false, []string{"8"}, "space"},
	{"health confirm", false, []string{"8", "space", "a"}, "y"},
	{"retention", false, []string{"9"}, "a"},
	{"retention destination", false, []string{"9", "a"}, "esc"},
	{"files sessions", true, []string{"0"}, "enter"},
	{"files turns", true, []string{"0", "enter"}, "a"},
	{"files files", true, []string{"0", "enter", "enter"}, "esc"},
	{"files versions", true, []string{"0", "enter", "enter", "enter"}, "space"},
	{"files confirm", true, []string{"0", "enter", "a"}, "y"},
	{"live", false, []string{"L"}, "c"},
}

// TestHelpOffersEveryBinding walks every pane through its modes and
// checks the help against the keymap, whose bindings are found by
// reflection (keymaptest), so a new binding cannot be forgotten:
//   - every binding of the keymap is offered by the help line or the help
//     overlay of some pane in some mode;
//   - in each mode, no key belongs to two different bindings among those
//     that are live: the pane's own, plus the root's global, number and
//     list keys unless the pane has the keyboard (a filter, a form, a
//     yes/no question).
func TestHelpOffersEveryBinding(t *testing.T) {
	all := keymaptest.Bindings(keymapOf(t))
	offered := make([]bool, len(all))
	for _, hm := range helpModes {
		var m Model
		if hm.filehist {
			m, _ = filehistModel(t, 140, 44)
		} else {
			m, _ = demoModel(t, 140, 44)
		}
		m = press(t, m, hm.keys...)
		p := m.paneAt(m.focus)
		if !strings.Contains(" "+helpKeys(p.Help())+" ", " "+hm.shows+" ") {
			t.Errorf("%s: the pane offers %q, without %q: the keys did not reach the mode\n%s", hm.name, helpKeys(p.Help()), hm.shows, screen(m))
			continue
		}
		shown := append([]key.Binding{}, m.shortHelp()...)
		for _, g := range m.fullHelpGroups() {
			shown = append(shown, g...)
		}
		for i, n := range all {
			for _, b := range shown {
				if keymaptest.Same(n.Binding, b) {
					offered[i] = true
				}
			}
		}

		live := p.Help()
		if !p.Filtering() {
			live = append(live, m.keys.Global()...)
			live = append(live, m.keys.Navigation()...)
			live = append(live, m.keys.Panes[:]...)
		}
		if clash := clashes(live); clash != "" {
			t.Errorf("%s: %s", hm.name, clash)
		}
	}
	for i, n := range all {
		if !offered[i] {
			t.Errorf("no pane's help offers %s (%s %s)", n.Name, n.Binding.Help().Key, n.Binding.Help().Desc)
		}
	}
}

// keymapOf is the keymap the app runs with.
func keymapOf(t *testing.T) any {
	t.Helper()
	return New(Options{Home: fixedHome(t)}).keys
}

// clashes describes the keys bound to two different bindings in bs.
func clashes(bs []key.Binding) string {
	var out []string
	owner := map[string]key.Binding{}
	for _, b := range bs {
		for _, k := range b.Keys() {
			if prev, ok := owner[k]; ok && !keymaptest.Same(prev, b) {
				out = append(out, fmt.Sprintf("key %q is both %q and %q", k, prev.Help().Desc, b.Help().Desc))
			}
			owner[k] = b
		}
	}
	return strings.Join(out, "; ")
}

// helpKeys lists the key labels of bs.
func helpKeys(bs []key.Binding) string {
	var ks []string
	for _, b := range bs {
		ks = append(ks, b.Help().Key)
	}
	return strings.Join(ks, " ")
}
