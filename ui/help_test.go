package ui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

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

// TestHelpLineKeepsHelpAndQuit: at 80 and 120 columns, in every mode of
// every pane where the global keys work, the help line ends with "? help"
// and "q quit", fits the screen, has no dangling separator, and what it
// drops is the end of the pane's priority list (the line at 80 columns is
// a prefix of the one at 120, before the pinned keys).
func TestHelpLineKeepsHelpAndQuit(t *testing.T) {
	for _, hm := range helpModes {
		var lines []string
		for _, w := range []int{80, 120} {
			var m Model
			if hm.filehist {
				m, _ = filehistModel(t, w, 40)
			} else {
				m, _ = demoModel(t, w, 40)
			}
			m = press(t, m, hm.keys...)
			if m.paneAt(m.focus).Filtering() {
				continue // the pane has the keyboard: q and ? are text or answers
			}
			line := strings.TrimSpace(ansi.Strip(m.helpLine()))
			if !strings.HasSuffix(line, "? help • q quit") {
				t.Errorf("%s at %d columns: help line does not end with ? and q: %q", hm.name, w, line)
			}
			if ansi.StringWidth(line) > w {
				t.Errorf("%s at %d columns: help line is %d wide", hm.name, w, ansi.StringWidth(line))
			}
			if strings.HasSuffix(line, "•") || strings.Contains(line, "• •") || strings.Contains(line, "…") {
				t.Errorf("%s at %d columns: help line is cut: %q", hm.name, w, line)
			}
			if !strings.Contains(screen(m), line) {
				t.Errorf("%s at %d columns: the screen does not show the help line %q\n%s", hm.name, w, line, screen(m))
			}
			lines = append(lines, strings.TrimSuffix(line, "? help • q quit"))
		}
		if len(lines) == 2 && !strings.HasPrefix(lines[1], lines[0]) {
			t.Errorf("%s: at 80 columns the line is not the start of the one at 120:\n 80: %q\n120: %q", hm.name, lines[0], lines[1])
		}
	}
}

// TestIndexDoesNotOfferFilter: the Index pane is one document; "/" is not
// offered there, while list panes offer it.
func TestIndexDoesNotOfferFilter(t *testing.T) {
	m, _ := demoModel(t, 200, 40)
	if s := ansi.Strip(press(t, m, "2").helpLine()); strings.Contains(s, "/ filter") {
		t.Errorf("Index offers a filter it does not have: %q", s)
	}
	if s := ansi.Strip(press(t, m, "3").helpLine()); !strings.Contains(s, "/ filter") {
		t.Errorf("Memories does not offer its filter: %q", s)
	}
}
