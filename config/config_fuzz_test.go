package config

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/keymap/keymaptest"
)

// FuzzParse reads arbitrary settings files: no panic; an error names the
// file and falls back to the defaults; a file that parses binds only keys
// a terminal sends (keymap.CheckKey) and always quits on ctrl+c.
func FuzzParse(f *testing.F) {
	f.Add([]byte("mouse: false\nkeys:\n  quit: [x, ctrl+c]\n  export: ctrl+e\n"))
	f.Add([]byte("keys:\n  quit: Q\n"))
	f.Add([]byte("keys:\n  quit: f13\n"))
	f.Add([]byte("keys:\n  delete: ctrl+c\n  quit: q\n"))
	f.Add([]byte("theme:\n  dark:\n    accent: \"#ff00aa\"\nstaleness:\n  user: {aging_days: 10, stale_days: 30}\n"))
	f.Add([]byte("live:\n  warn_percent: 70\n  alert_percent: 90\n"))
	f.Add([]byte("keys: {quit: [\"\\e]0;x\\a\"]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data, "fuzz.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config fuzz.yaml") && !strings.HasPrefix(err.Error(), "fuzz.yaml:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			if !reflect.DeepEqual(c.Keys, keymap.Default()) {
				t.Fatal("a refused file did not fall back to the default keys")
			}
			return
		}
		for _, b := range keymaptest.Bindings(c.Keys) {
			for _, k := range b.Binding.Keys() {
				if err := keymap.CheckKey("quit", k); err != nil {
					t.Fatalf("%s bound to a key no terminal sends: %v", b.Name, err)
				}
			}
		}
		if !key.Matches(keypress.Msg("ctrl+c"), c.Keys.Quit) {
			t.Fatalf("quit no longer on ctrl+c: %v", c.Keys.Quit.Keys())
		}
	})
}
