// Package keymaptest finds every key.Binding of a keymap by reflection,
// so tests can check all of them (help text, where help offers them,
// clashes) and a binding added to a keymap cannot be left out of those
// checks. Only tests import it.
package keymaptest

import (
	"fmt"
	"reflect"
	"slices"

	"charm.land/bubbles/v2/key"
)

// Named is one binding with the path of the field that holds it
// ("Quit", "Panes[3]", "Nested.Open").
type Named struct {
	Name    string
	Binding key.Binding
}

var bindingType = reflect.TypeFor[key.Binding]()

// Bindings returns every key.Binding reachable from keymap (a struct or a
// pointer to one) through exported fields: direct fields, arrays and
// slices of bindings, and nested structs, in field order. It panics on
// anything but a struct, since a test that walked nothing would pass.
func Bindings(keymap any) []Named {
	v := reflect.ValueOf(keymap)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		panic(fmt.Sprintf("keymaptest: %T is not a struct", keymap))
	}
	var out []Named
	walk(v, "", &out)
	return out
}

func walk(v reflect.Value, prefix string, out *[]Named) {
	switch {
	case v.Type() == bindingType:
		*out = append(*out, Named{Name: prefix, Binding: v.Interface().(key.Binding)})
	case v.Kind() == reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			name := f.Name
			if prefix != "" {
				name = prefix + "." + name
			}
			walk(v.Field(i), name, out)
		}
	case v.Kind() == reflect.Array, v.Kind() == reflect.Slice:
		for i := range v.Len() {
			walk(v.Index(i), fmt.Sprintf("%s[%d]", prefix, i), out)
		}
	}
}

// Same reports whether a and b are the same binding as a person sees it:
// the same keys and the same key label. A pane may reword the
// description of a shared binding for what it does there (the Memories
// pane's "export memory as Markdown"); that is still the one binding.
func Same(a, b key.Binding) bool {
	return slices.Equal(a.Keys(), b.Keys()) && a.Help().Key == b.Help().Key
}
