package keymaptest

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

func TestBindingsWalksEveryShape(t *testing.T) {
	b := func(k string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, k)) }
	type inner struct {
		Deep key.Binding
	}
	km := struct {
		A       key.Binding
		Arr     [2]key.Binding
		Sl      []key.Binding
		In      inner
		hidden  key.Binding
		Unused  string
		Pointer *key.Binding
	}{A: b("a"), Arr: [2]key.Binding{b("b"), b("c")}, Sl: []key.Binding{b("d")}, In: inner{Deep: b("e")}, hidden: b("h")}
	var names, keys []string
	for _, n := range Bindings(&km) {
		names = append(names, n.Name)
		keys = append(keys, n.Binding.Keys()...)
	}
	if got := strings.Join(names, " "); got != "A Arr[0] Arr[1] Sl[0] In.Deep" {
		t.Errorf("names %q", got)
	}
	if got := strings.Join(keys, ""); got != "abcde" {
		t.Errorf("keys %q", got)
	}
}

func TestBindingsRefusesANonStruct(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a non-struct")
		}
	}()
	Bindings(42)
}

func TestSame(t *testing.T) {
	x := key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "export as Markdown"))
	reworded := key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "export memory as Markdown"))
	other := key.NewBinding(key.WithKeys("x", "X"), key.WithHelp("x", "export"))
	if !Same(x, reworded) || Same(x, other) {
		t.Errorf("Same(x, reworded) = %v, Same(x, other) = %v", Same(x, reworded), Same(x, other))
	}
}
