package keymap

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
)

// A binding's name is its action's in the binding table (Actions):
// snake case ("next_pane", "last_error"), and "pane_<name>" for the
// pane keys ("pane_live"): what the config file's keys section uses.

// Names lists every binding's name, sorted.
func Names() []string {
	var out []string
	for _, a := range Actions() {
		out = append(out, a.Name)
	}
	slices.Sort(out)
	return out
}

// Binding returns the binding called name.
func (k KeyMap) Binding(name string) (key.Binding, bool) {
	b, ok := k.byName()[name]
	if !ok {
		return key.Binding{}, false
	}
	return *b, true
}

// byName maps each action's name to its binding in k.
func (k *KeyMap) byName() map[string]*key.Binding {
	out := map[string]*key.Binding{}
	for _, a := range Actions() {
		out[a.Name] = a.at(k)
	}
	return out
}

// snake writes a Go field name in snake case: NextPane → next_pane,
// ExportHTML → export_html.
func snake(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Rebind returns k with the bindings named in keys given those keys
// (several each), their help showing the new keys. An unknown name, a
// binding left without keys, or a key that two actions would then share
// where the defaults never let them share one (so one of them could not
// be reached) is an error naming both actions; so is a key no terminal
// sends, and ctrl+c on any binding but quit (CheckKey). Quit keeps
// ctrl+c whatever its new keys are.
func (k KeyMap) Rebind(keys map[string][]string) (KeyMap, error) {
	out := k // a copy: the Panes array too
	named := out.byName()
	for _, name := range slices.Sorted(maps.Keys(keys)) {
		b, ok := named[name]
		if !ok {
			return k, fmt.Errorf("unknown key binding %q (the names are: %s)", name, strings.Join(Names(), ", "))
		}
		ks := keys[name]
		if len(ks) == 0 {
			return k, fmt.Errorf("key binding %q has no keys", name)
		}
		for _, s := range ks {
			if err := CheckKey(name, s); err != nil {
				return k, fmt.Errorf("key binding %q: %w", name, err)
			}
		}
		if slices.Equal(ks, b.Keys()) {
			continue // unchanged: keep its help ("↑/k")
		}
		desc, help := b.Help().Desc, strings.Join(ks, "/")
		if name == "quit" && !slices.Contains(ks, QuitKey) {
			ks = append(slices.Clip(ks), QuitKey) // always a way out
		}
		*b = key.NewBinding(key.WithKeys(ks...), key.WithHelp(help, desc))
	}
	if err := checkShared(out); err != nil {
		return k, err
	}
	return out, nil
}

// checkShared refuses a key two bindings share in k when no key is
// shared by those two in the defaults: sharing is only right for
// bindings that are never active together (y/n prompts and list keys,
// a pane's own keys and another pane's).
func checkShared(k KeyMap) error {
	def := Default()
	defNamed := def.byName()
	sharedByDefault := func(a, b string) bool {
		for _, x := range defNamed[a].Keys() {
			for _, y := range defNamed[b].Keys() {
				if x == y {
					return true
				}
			}
		}
		return false
	}
	owner := map[string]string{}
	named := k.byName()
	for _, name := range slices.Sorted(maps.Keys(named)) {
		for _, key := range named[name].Keys() {
			other, taken := owner[key]
			if taken && other != name && !sharedByDefault(other, name) {
				return fmt.Errorf("key %q is bound to both %s and %s: give one of them another key", key, other, name)
			}
			if !taken {
				owner[key] = name
			}
		}
	}
	return nil
}
