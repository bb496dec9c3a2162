package keypress

import "testing"

// Every name comes back as the key press whose String is that name, so
// a test's key names mean what the app's bindings match.
func TestMsgRoundTrips(t *testing.T) {
	for _, name := range []string{"enter", "esc", "tab", "shift+tab", "space", "down", "up", "ctrl+c", "ctrl+r", "backspace", "j", "G", "?", "[", "é"} {
		if got := Msg(name).String(); got != name {
			t.Errorf("Msg(%q).String() = %q", name, got)
		}
	}
}
