package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/filehistgen"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/keymap/keymaptest"
	"github.com/memscope/memscope/model"
)

// helpModes are the panes in each of their modes, reached with the keys a
// person presses, and a help key that shows the mode was reached.
var helpModes = []helpMode{
	{"overview", false, []string{"1"}, "enter"},
	{"projects", false, []string{"2"}, "enter"},
	{"index", false, []string{"3"}, "G"},
	{"memories", false, []string{"4"}, "n"},
	{"memories form", false, []string{"4", "n"}, "esc"},
	{"memories form type", false, []string{"4", "n", "tab"}, "→"},
	{"memories delete", false, []string{"4", "g", "d"}, "y"},
	{"history", false, []string{"5"}, "space"},
	{"pastes", false, []string{"6"}, "enter"},
	{"replay sessions", false, []string{"7"}, "X"},
	{"replay timeline", false, []string{"7", "G", "enter"}, "]"},
	{"replay compaction", false, []string{"7", "G", "enter", "["}, "s"},
	{"replay pipeline", false, []string{"7", "G", "enter", "p"}, "w"},
	{"prompt", false, []string{"8"}, "i"},
	{"prompt query", false, []string{"8", "i"}, "esc"},
	{"health", false, []string{"9"}, "space"},
	{"health confirm", false, []string{"9", "space", "a"}, "y"},
	{"health leftovers", false, []string{"9"}, "C"},
	{"health leftovers confirm", false, []string{"9", "C"}, "y"},
	{"retention", false, []string{"0"}, "a"},
	{"retention destination", false, []string{"0", "a"}, "esc"},
	{"files sessions", true, []string{"F"}, "enter"},
	{"files turns", true, []string{"F", "enter"}, "a"},
	{"files files", true, []string{"F", "enter", "enter"}, "esc"},
	{"files versions", true, []string{"F", "enter", "enter", "enter"}, "space"},
	{"files confirm", true, []string{"F", "enter", "a"}, "y"},
	{"live", false, []string{"L"}, "c"},
	{"security", false, []string{"S"}, "space"},
	{"security confirm", false, []string{"S", "a"}, "y"},
	{"review", false, []string{"R"}, "a"},
	{"review reject", false, []string{"R", "d"}, "y"},
}

// helpMode is a pane in one of its modes: the keys that reach it from
// the start and a help key that shows it was reached.
type helpMode struct {
	name     string
	filehist bool // the generated file-history home instead of the demo
	keys     []string
	shows    string
}

// helpModeAt is the app in mode hm at w×h: helpModeModel with hm's keys
// pressed. The help tests only read it (its help, its screen), so each
// mode and size is made once for the test binary and shared by the
// tests that ask for it (each made it afresh before: 4 tests, 124
// models, of which 31 at 140×44 twice), through one keyChain per home
// and size: the app loads once per home and each key is pressed once.
// (A throwaway test compared every mode so made with the mode made
// afresh: the screens and help lines are equal.)
func helpModeAt(t *testing.T, hm helpMode, w, h int) Model {
	t.Helper()
	k := helpModeKey{helpModeHome(hm), w, h}
	helpModeMu.Lock()
	c, ok := helpChains[k]
	if !ok {
		c = newKeyChain(func(t testing.TB) Model { return helpModeModel(t.(*testing.T), hm.name, hm.filehist, w, h) })
		helpChains[k] = c
	}
	helpModeMu.Unlock()
	return c.at(t, hm.keys...)
}

// helpModeHome names the home mode hm is reached on, as helpModeModel
// picks it.
func helpModeHome(hm helpMode) string {
	switch {
	case hm.filehist:
		return "filehist"
	case strings.HasPrefix(hm.name, "health leftovers"):
		return "leftovers"
	}
	return "demo"
}

// helpModeResized is the shared model of mode hm (helpModeAt, 140×44),
// forked and resized to w×h, as a person narrows the terminal in that
// mode: one model per mode serves every size. The help line is the one
// the mode has when reached at w×h (a throwaway test compared them, with
// the screens, for every mode at 80 and 120 columns: equal but for where
// the Replay compaction's timeline is scrolled).
func helpModeResized(t *testing.T, hm helpMode, w, h int) Model {
	t.Helper()
	m := fork(helpModeAt(t, hm, 140, 44))
	next, cmd := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return drain(t, next.(Model), cmd)
}

type helpModeKey struct {
	home string // helpModeHome
	w, h int
}

var (
	helpModeMu sync.Mutex
	helpChains = map[helpModeKey]*keyChain{}
)

// helpModeModel is the home a help mode is reached on: the generated
// file-history home, the demo with leftovers of interrupted writes, or
// the demo. The help modes only open modes (no question is answered,
// nothing is written), so every test of the binary shares the three
// homes (helpHomes), made once: each model made afresh on them.
func helpModeModel(t *testing.T, name string, filehist bool, w, h int) Model {
	t.Helper()
	hh := sharedHelpHomes(t)
	switch {
	case filehist:
		return filehistModelAt(t, hh.filehist, w, h, nil)
	case strings.HasPrefix(name, "health leftovers"):
		return demoModelCached(t, hh.leftovers, false, w, h, hh.cache)
	}
	return demoModelCached(t, hh.demo, true, w, h, hh.cache)
}

// helpHomes are the homes the help modes are reached on (helpModeModel),
// under the test binary's temporary folder (TestMain removes it).
type helpHomes struct {
	demo, leftovers demo.Layout
	filehist        filehistgen.Layout
	// cache is the homes' disk cache (Options.Cache), so each model
	// after the first finds the Overview's ledger and verdicts counted
	// (as a second start of the app does).
	cache *diskcache.Store
}

var (
	helpHomesOnce sync.Once
	helpHomesMade helpHomes
	helpHomesErr  error
)

// sharedHelpHomes makes the help modes' homes on first use.
func sharedHelpHomes(t *testing.T) helpHomes {
	t.Helper()
	helpHomesOnce.Do(func() {
		dir, err := os.MkdirTemp("", "help-homes-")
		if err != nil {
			helpHomesErr = err
			return
		}
		for _, d := range []string{"demo", "leftovers", "filehist", "cache"} {
			if err = os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
				helpHomesErr = err
				return
			}
		}
		hh := &helpHomesMade
		cache := filepath.Join(dir, "cache")
		hh.cache = diskcache.New(cache, model.MountFS(nil, filepath.ToSlash(cache), model.DirFS(cache)), model.OSWriteFS{})
		if hh.demo, err = demo.Materialize(filepath.Join(dir, "demo"), testNow); err != nil {
			helpHomesErr = err
			return
		}
		if hh.leftovers, err = demo.Materialize(filepath.Join(dir, "leftovers"), testNow); err != nil {
			helpHomesErr = err
			return
		}
		hh.filehist, helpHomesErr = filehistgen.Write(filepath.Join(dir, "filehist"), filehistStart)
	})
	if helpHomesErr != nil {
		t.Fatal(helpHomesErr)
	}
	helpHomesLeftovers.Do(func() { plantLeftovers(t, helpHomesMade.leftovers) })
	return helpHomesMade
}

// helpHomesLeftovers plants the leftovers in the shared home once.
var helpHomesLeftovers sync.Once

// sharedDirs are those of dirs outside t's temporary folders (a shared
// home's), for testroot.New to show besides them.
func sharedDirs(t *testing.T, dirs ...string) []string {
	t.Helper()
	mine := filepath.Dir(t.TempDir()) + string(filepath.Separator)
	var out []string
	for _, d := range dirs {
		if !strings.HasPrefix(d+string(filepath.Separator), mine) {
			out = append(out, d)
		}
	}
	return out
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
		m := helpModeAt(t, hm, 140, 44)
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
	return *New(Options{Home: fixedHome(t)}).keys
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
			m := helpModeResized(t, hm, w, 40)
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
	m := sharedDemoModel(t, 200, 40)
	if s := ansi.Strip(press(t, m, "3").helpLine()); strings.Contains(s, "/ filter") {
		t.Errorf("Index offers a filter it does not have: %q", s)
	}
	if s := ansi.Strip(press(t, m, "4").helpLine()); !strings.Contains(s, "/ filter") {
		t.Errorf("Memories does not offer its filter: %q", s)
	}
}

// TestLegendOverlay: ? on every pane shows its legend (every mark and
// meaning reachable by scrolling), at 80×24 as at 120×40.
func TestLegendOverlay(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		m := sharedDemoModel(t, size.w, size.h)
		for i := range paneCount {
			m = press(t, m, keymap.PaneKey(i), "?")
			legend := m.paneAt(m.focus).Legend()
			if len(legend) == 0 {
				t.Errorf("pane %d has no legend", i)
			}
			var seen string
			seen, m = overlayPages(t, m)
			flat := strings.Join(strings.Fields(seen), " ")
			for _, e := range legend {
				if !strings.Contains(flat, e.Mark) {
					t.Errorf("%dx%d pane %d: the overlay never shows %q", size.w, size.h, i, e.Mark)
				}
				first := strings.Join(strings.Fields(e.Means), " ")
				first = first[:min(len(first), 20)]
				if !strings.Contains(flat, first) {
					t.Errorf("%dx%d pane %d: the overlay never shows %q", size.w, size.h, i, first)
				}
			}
			m = press(t, m, "esc")
		}
	}
}

// TestReadmeKeysAgree walks the README's pane table against the code: every
// key the keys column names is bound in that pane (its own keys in some
// mode, or the list keys), every key the pane offers in its first mode is
// named there, and every one-symbol mark of the pane's legend (what ?
// explains) appears in the row.
func TestReadmeKeysAgree(t *testing.T) {
	raw, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{} // pane name → the row's cells
	for _, l := range strings.Split(string(raw), "\n") {
		cells := strings.Split(l, "|")
		if len(cells) != 5 {
			continue
		}
		for _, pn := range keymap.Panes {
			name := pn.Name
			if strings.TrimSpace(cells[1]) == name || strings.HasSuffix(strings.TrimSpace(cells[1]), " "+name) {
				rows[name] = cells[1:4]
			}
		}
	}
	readmeKey := map[string]string{"←": "left", "→": "right"}
	// The legends are read from one fresh demo model (the test built
	// the same fresh model once per pane).
	legends := sharedDemoModel(t, 100, 30)
	backticked := regexp.MustCompile("`([^`]+)`")
	for i, pn := range keymap.Panes {
		name := pn.Name
		row, ok := rows[name]
		if !ok {
			t.Errorf("README's pane table has no row for %s", name)
			continue
		}
		bound := map[string]bool{}
		km := keymapOf(t).(keymap.KeyMap)
		for _, b := range append(km.Navigation(), km.Global()...) {
			for _, k := range b.Keys() {
				bound[k] = true
			}
		}
		var first []key.Binding
		for _, hm := range helpModes {
			if hm.keys[0] != keymap.PaneKey(i) {
				continue
			}
			m := helpModeAt(t, hm, 140, 44)
			help := m.paneAt(m.focus).Help()
			if first == nil {
				first = help
			}
			for _, b := range help {
				for _, k := range b.Keys() {
					bound[k] = true
				}
			}
		}
		named := map[string]bool{}
		for _, mt := range backticked.FindAllStringSubmatch(row[2], -1) {
			k := mt[1]
			if r, ok := readmeKey[k]; ok {
				k = r
			}
			if len([]rune(k)) > 6 && k != "space" && k != "enter" {
				continue // a name like `$EDITOR` or `.tar.gz`, not a key
			}
			named[k] = true
			if !bound[k] {
				t.Errorf("README says %s has key %q; the pane binds no such key", name, mt[1])
			}
		}
		for _, b := range first {
			found := false
			for _, k := range b.Keys() {
				found = found || named[k]
			}
			if !found {
				t.Errorf("%s offers %q (%s); README's keys column does not name it", name, b.Help().Key, b.Help().Desc)
			}
		}
		for _, e := range legends.paneAt(i).Legend() {
			if len([]rune(e.Mark)) == 1 && !strings.Contains(row[1], e.Mark) {
				t.Errorf("%s's legend explains %q; README's row does not show it", name, e.Mark)
			}
		}
	}
}

// TestUndoSaysWhichHistory: u undoes file-history restores on Files and
// memory changes elsewhere; the help line and overlay say which.
func TestUndoSaysWhichHistory(t *testing.T) {
	m, _ := filehistModel(t, 160, 44)
	for _, c := range []struct{ pane, want, not string }{{"F", "u undo file restore", "undo last change"}, {"5", "u undo last change", "undo file restore"}} {
		m = press(t, m, c.pane)
		line := ansi.Strip(m.helpLine())
		if !strings.Contains(line, c.want) || strings.Contains(line, c.not) {
			t.Errorf("pane %s: help line %q, want %q", c.pane, line, c.want)
		}
		m = press(t, m, "?")
		if s := screen(m); !strings.Contains(s, strings.TrimPrefix(c.want, "u ")) || strings.Contains(s, c.not) {
			t.Errorf("pane %s: help overlay does not say %q:\n%s", c.pane, c.want, s)
		}
		m = press(t, m, "esc")
	}
}
