package keymap_test

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/keymap/keymaptest"
)

// Every binding has a name, and the names cover every binding the
// reflection walk of keymaptest finds.
func TestEveryBindingIsNamed(t *testing.T) {
	names := keymap.Names()
	if len(names) != len(keymaptest.Bindings(keymap.Default())) {
		t.Fatalf("%d names for %d bindings", len(names), len(keymaptest.Bindings(keymap.Default())))
	}
	km := keymap.Default()
	for _, want := range []string{"quit", "next_pane", "last_error", "delete", "pane_live", "pane_projects"} {
		if _, ok := km.Binding(want); !ok {
			t.Errorf("no binding named %q in %v", want, names)
		}
	}
}

func TestRebind(t *testing.T) {
	km, err := keymap.Default().Rebind(map[string][]string{"quit": {"x", "ctrl+c"}, "delete": {"D"}, "export": {"ctrl+e"}})
	if err != nil {
		t.Fatal(err)
	}
	if !key.Matches(press("x"), km.Quit) || key.Matches(press("q"), km.Quit) {
		t.Error("quit is not x alone (and ctrl+c)")
	}
	if km.Quit.Help().Key != "x/ctrl+c" || km.Quit.Help().Desc != "quit" {
		t.Errorf("quit's help = %+v", km.Quit.Help())
	}
	if !key.Matches(press("D"), km.Delete) || key.Matches(press("d"), km.Delete) {
		t.Error("delete is not D")
	}
	if keymap.Default().Quit.Help().Key != "q" {
		t.Error("Rebind changed the defaults")
	}
	// x is export's by default: quit on x without moving export is refused,
	// naming both.
	_, err = keymap.Default().Rebind(map[string][]string{"quit": {"x"}})
	if err == nil || !strings.Contains(err.Error(), "export") || !strings.Contains(err.Error(), "quit") {
		t.Errorf("quit on x with export on x: %v, want a conflict naming both", err)
	}
	for _, bad := range []map[string][]string{
		{"quitt": {"x"}},
		{"quit": {}},
		{"quit": {" "}},
		{"up": {"tab"}},
		{"quit": {"\x1b]0;x\a"}},
		{"quit": {"f13"}},
		{"help": {"meta+h"}},
		{"quit": {"Q"}, "delete": {"ctrl+c"}},
	} {
		if _, err := keymap.Default().Rebind(bad); err == nil {
			t.Errorf("Rebind(%v) accepted", bad)
		}
	}
	// Keys the defaults already share (n: new memory and "no") stay
	// shareable.
	if _, err := keymap.Default().Rebind(map[string][]string{"new": {"n", "ctrl+n"}}); err != nil {
		t.Errorf("rebinding new: %v", err)
	}
}

// Quit always keeps ctrl+c: a rebinding that leaves it out gets it back,
// so no settings file removes every way to quit.
func TestRebindKeepsAWayToQuit(t *testing.T) {
	km, err := keymap.Default().Rebind(map[string][]string{"quit": {"Q"}})
	if err != nil {
		t.Fatal(err)
	}
	if !key.Matches(press("Q"), km.Quit) || !key.Matches(press("ctrl+c"), km.Quit) || key.Matches(press("q"), km.Quit) {
		t.Errorf("quit's keys %v, want Q and ctrl+c", km.Quit.Keys())
	}
}

// Every key of the defaults is one CheckKey accepts, and the names a
// terminal sends pass while the ones it cannot send are refused.
func TestCheckKey(t *testing.T) {
	for _, b := range keymaptest.Bindings(keymap.Default()) {
		for _, k := range b.Binding.Keys() {
			if err := keymap.CheckKey("quit", k); err != nil {
				t.Errorf("default key %q refused: %v", k, err)
			}
		}
	}
	for _, k := range []string{"x", "é", "ctrl+x", "alt+enter", "ctrl+alt+x", "shift+f5", "f12", "pgdown", "space", "ctrl+space"} {
		if err := keymap.CheckKey("help", k); err != nil {
			t.Errorf("CheckKey(%q): %v", k, err)
		}
	}
	for _, k := range []string{"", "xy", "f13", "f0", "ctrl+", "ctrl+é", "alt+ctrl+x", "meta+x", "shift+x", "\x1b", "\x07", "enterr", "ctrl+ctrl+x"} {
		if err := keymap.CheckKey("help", k); err == nil {
			t.Errorf("CheckKey(%q) accepted", k)
		}
	}
	if err := keymap.CheckKey("delete", "ctrl+c"); err == nil {
		t.Error("ctrl+c accepted for delete")
	}
	if err := keymap.CheckKey("quit", "ctrl+c"); err != nil {
		t.Errorf("ctrl+c for quit: %v", err)
	}
}

func press(name string) tea.KeyPressMsg { return keypress.Msg(name) }
