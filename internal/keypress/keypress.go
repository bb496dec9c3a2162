// Package keypress builds the key presses tests send to Bubble Tea
// models, from key names as tea.KeyPressMsg.String spells them ("enter",
// "esc", "shift+tab", "ctrl+r", "space", "j"). Only tests import it; the
// builder is teakey.Press, which the command palette uses.
package keypress

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/keymap/teakey"
)

// Msg is the key press for name (teakey.Press).
func Msg(name string) tea.KeyPressMsg { return teakey.Press(name) }
