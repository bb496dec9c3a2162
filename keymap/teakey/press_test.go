package teakey

import (
	"testing"

	"github.com/memscope/memscope/keymap"
)

// TestEveryBoundKeyRoundTrips builds the press of every key the binding
// table binds and checks tea spells it back the same: the palette runs an
// action by sending that press, so a name Press got wrong would run nothing.
func TestEveryBoundKeyRoundTrips(t *testing.T) {
	n := 0
	for _, a := range keymap.Actions() {
		for _, k := range a.Keys {
			if got := Press(k).String(); got != k {
				t.Errorf("%s: Msg(%q).String() = %q", a.Name, k, got)
			}
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d keys in the binding table", n)
	}
}
