package keymap

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// The settings file's names are the table's; every action's name is the
// snake case of the KeyMap field it binds (pane_<name> for Panes[i]), so
// a settings file written for an earlier memscope still names the same
// actions, and no field of KeyMap is left out of the table.
func TestTableNamesAreTheFields(t *testing.T) {
	var km KeyMap
	v := reflect.ValueOf(&km).Elem()
	field := map[uintptr]string{}
	for i := range v.NumField() {
		f := v.Type().Field(i)
		switch f.Name {
		case "Panes":
			for j := range v.Field(i).Len() {
				field[v.Field(i).Index(j).Addr().Pointer()] = "pane_" + strings.ToLower(Panes[j].Name)
			}
		default:
			field[v.Field(i).Addr().Pointer()] = snake(f.Name)
		}
	}
	seen := map[string]bool{}
	for _, a := range Actions() {
		p := reflect.ValueOf(a.at(&km)).Pointer()
		if field[p] != a.Name {
			t.Errorf("action %q binds the field named %q", a.Name, field[p])
		}
		if seen[a.Name] {
			t.Errorf("action %q twice in the table", a.Name)
		}
		seen[a.Name] = true
		if len(a.Keys) == 0 || a.HelpKey == "" || a.Help == "" {
			t.Errorf("action %q lacks keys or help", a.Name)
		}
	}
	if len(seen) != len(field) {
		t.Errorf("%d actions for %d bindings in KeyMap", len(seen), len(field))
	}
}

// An action applies only on its panes, and says why it is not available
// when its condition does not hold.
func TestActionAvailability(t *testing.T) {
	newMem, _ := ActionNamed("new")
	if ok, _ := newMem.AvailableIn(Context{Pane: PaneID(PaneIndex("Memories"))}); !ok {
		t.Error("new memory is not available on Memories")
	}
	if ok, why := newMem.AvailableIn(Context{Pane: PaneID(PaneIndex("Replay"))}); ok || why == "" {
		t.Errorf("new memory on Replay: %v %q", ok, why)
	}
	lastErr, _ := ActionNamed("last_error")
	if ok, why := lastErr.AvailableIn(Context{}); ok || why != "no error so far" {
		t.Errorf("last error with none: %v %q", ok, why)
	}
	if ok, _ := lastErr.AvailableIn(Context{HasError: true}); !ok {
		t.Error("last error with one: not available")
	}
	next, _ := ActionNamed("next_hit")
	if ok, _ := next.AvailableIn(Context{Stepping: true}); !ok {
		t.Error("next hit while stepping: not available")
	}
	if ok, _ := next.AvailableIn(Context{}); ok {
		t.Error("next hit with no search: available")
	}
}

// The pane table's names, short names and keys are all different.
func TestPaneTableUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Panes {
		for _, s := range []string{p.Name, p.Short, "key " + p.Key} {
			if seen[s] {
				t.Errorf("%q twice in the pane table", s)
			}
			seen[s] = true
		}
		if len([]rune(p.Short)) != 3 {
			t.Errorf("%s's short name %q is not three letters", p.Name, p.Short)
		}
	}
}

// The footer's shared keys and its pinned ones come from the table, in
// the order the help line drops them.
func TestFooterFromTable(t *testing.T) {
	k := Default()
	var got []string
	for _, b := range k.ShortHelp() {
		got = append(got, b.Help().Desc)
	}
	if strings.Join(got, ",") != "next pane,filter,undo last change,up,down" {
		t.Errorf("footer keys %v", got)
	}
	got = nil
	for _, b := range k.Pinned() {
		got = append(got, b.Help().Desc)
	}
	if strings.Join(got, ",") != "help,quit" {
		t.Errorf("pinned keys %v", got)
	}
}

// TestFooterAllocatesOnlyItsList: the footer, asked for at every frame,
// makes its list of bindings and nothing else (the table was made at
// each ask: over 100 allocations), and is the table's footer still:
// ranked by Footer, then the pinned keys, each with k's own bindings.
func TestFooterAllocatesOnlyItsList(t *testing.T) {
	k := Default()
	if allocs := testing.AllocsPerRun(20, func() { _, _ = k.ShortHelp(), k.Pinned() }); allocs > 2 {
		t.Errorf("the footer and pinned keys allocated %.0f times, want 2 (their lists)", allocs)
	}
	var short, pinned []Action
	for _, a := range Actions() {
		if a.Footer > 0 {
			short = append(short, a)
		}
		if a.Pinned {
			pinned = append(pinned, a)
		}
	}
	slices.SortStableFunc(short, func(a, b Action) int { return a.Footer - b.Footer })
	k.Quit.SetKeys("x")
	for _, c := range []struct {
		got  []key.Binding
		acts []Action
	}{{k.ShortHelp(), short}, {k.Pinned(), pinned}} {
		if len(c.got) != len(c.acts) || len(c.got) == 0 {
			t.Fatalf("%d bindings, want %d", len(c.got), len(c.acts))
		}
		for i, a := range c.acts {
			if !reflect.DeepEqual(c.got[i], a.Binding(k)) {
				t.Errorf("%s: %+v, want %+v", a.Name, c.got[i], a.Binding(k))
			}
		}
	}
}
