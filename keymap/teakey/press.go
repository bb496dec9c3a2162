// Package teakey builds the Bubble Tea key press for a key name of the
// binding table (keymap): the command palette runs an action by sending
// its key down the normal key path. It is apart from keymap so that the
// binding table, which memscope's settings file is checked against, links
// no Bubble Tea (the hook binary, cmd/memscope-hook, reads that file).
package teakey

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// special are the named keys (tea's names for their codes).
var special = map[string]rune{
	"enter":     tea.KeyEnter,
	"esc":       tea.KeyEscape,
	"tab":       tea.KeyTab,
	"space":     tea.KeySpace,
	"backspace": tea.KeyBackspace,
	"delete":    tea.KeyDelete,
	"up":        tea.KeyUp,
	"down":      tea.KeyDown,
	"left":      tea.KeyLeft,
	"right":     tea.KeyRight,
	"home":      tea.KeyHome,
	"end":       tea.KeyEnd,
	"pgup":      tea.KeyPgUp,
	"pgdown":    tea.KeyPgDown,
}

// mods are the modifier prefixes tea spells, in its order.
var mods = []struct {
	prefix string
	mod    tea.KeyMod
}{{"ctrl+", tea.ModCtrl}, {"alt+", tea.ModAlt}, {"shift+", tea.ModShift}}

// Press is the key press for name (as tea.KeyPressMsg.String spells
// it: "enter", "shift+tab", "ctrl+p", "j"): the command palette runs an
// action by sending its key down the normal key path; a name that is not a special key (with
// or without ctrl+, alt+, shift+) is typed as text (its first rune is the
// key code).
func Press(name string) tea.KeyPressMsg {
	rest := name
	var mod tea.KeyMod
	for _, m := range mods {
		if after, ok := strings.CutPrefix(rest, m.prefix); ok && after != "" {
			mod |= m.mod
			rest = after
		}
	}
	if code, ok := special[rest]; ok {
		msg := tea.KeyPressMsg{Code: code, Mod: mod}
		if code == tea.KeySpace && mod == 0 {
			msg.Text = " "
		}
		return msg
	}
	if mod != 0 {
		return tea.KeyPressMsg{Code: []rune(rest)[0], Mod: mod}
	}
	return tea.KeyPressMsg{Code: []rune(name)[0], Text: name}
}
