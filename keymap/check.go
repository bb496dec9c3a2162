package keymap

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// QuitKey always quits: Rebind keeps it on the quit binding and refuses
// it for any other, so no settings file can leave the app without a way
// out.
const QuitKey = "ctrl+c"

// namedKeys are the keys other than characters that a terminal sends
// without the kitty keyboard protocol, as Bubble Tea names them.
var namedKeys = map[string]bool{
	"enter": true, "tab": true, "backspace": true, "esc": true, "space": true,
	"up": true, "down": true, "left": true, "right": true,
	"home": true, "end": true, "pgup": true, "pgdown": true, "insert": true, "delete": true,
}

// CheckKey reports whether k is a key a terminal can send, written as
// Bubble Tea names the press (so a binding on it can be reached), and
// whether action may have it: QuitKey belongs to quit alone. A key is
// at most ctrl+, alt+ and shift+ in that order, then a character or a
// named key (enter, tab, up, f1…f12 …); a shifted letter arrives as the
// letter itself ("D"), and meta, super, hyper and f13 upward need
// keyboard protocols most terminals do not speak.
func CheckKey(action, k string) error {
	if k == QuitKey && action != "quit" {
		return fmt.Errorf("ctrl+c always quits: bind %s to another key", action)
	}
	if why := keyProblem(k); why != "" {
		return fmt.Errorf("%q is not a key a terminal sends (%s)", k, why)
	}
	return nil
}

// keyProblem is why k is not a key a terminal sends, "" when it is.
func keyProblem(k string) string {
	base, mods := k, map[string]bool{}
	for _, m := range []string{"ctrl+", "alt+", "shift+"} {
		if rest, ok := strings.CutPrefix(base, m); ok && rest != "" {
			base, mods[m] = rest, true
		}
	}
	for _, m := range []string{"ctrl+", "alt+", "shift+", "meta+", "super+", "hyper+"} {
		if strings.HasPrefix(base, m) && base != m {
			return "modifiers are ctrl+, alt+ and shift+, each once, in that order"
		}
	}
	if namedKeys[base] || functionKey(base) {
		return ""
	}
	r, size := utf8.DecodeRuneInString(base)
	switch {
	case base == "":
		return "empty"
	case size != len(base):
		return "write keys as bubbletea names them: x, D, ctrl+x, shift+tab, enter, space, f1"
	case !unicode.IsPrint(r) || unicode.IsSpace(r):
		return "a control character: write ctrl+x, esc, tab or enter"
	case mods["shift+"] && unicode.IsLetter(r):
		return fmt.Sprintf("a shifted letter arrives as itself: write %q", string(unicode.ToUpper(r)))
	case mods["shift+"]:
		return "a shifted character arrives as itself: write the character it types"
	case mods["ctrl+"] && r > unicode.MaxASCII:
		return "ctrl+ goes with a letter, digit or ASCII sign"
	}
	return ""
}

// functionKey reports whether s is f1 … f12.
func functionKey(s string) bool {
	n, err := strconv.Atoi(strings.TrimPrefix(s, "f"))
	return strings.HasPrefix(s, "f") && err == nil && n >= 1 && n <= 12 && s == "f"+strconv.Itoa(n)
}
