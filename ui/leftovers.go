package ui

import (
	"fmt"
	"github.com/memscope/memscope/ui/feed"

	"github.com/memscope/memscope/keymap"
)

// announceLeftovers says once, on the first load that finds them, that
// interrupted memscope writes left something (the Health pane lists it).
func (m *Model) announceLeftovers(p *feed.ProjectLoaded) {
	if m.leftoversAnnounced || len(p.Leftovers.Items) == 0 && len(p.Leftovers.Interrupted) == 0 {
		return
	}
	m.leftoversAnnounced = true
	text := fmt.Sprintf("%d leftover(s) of interrupted memscope writes found: Health pane (%s), C removes them", len(p.Leftovers.Items), keymap.PaneKey(int(paneHealth)))
	if n := len(p.Leftovers.Interrupted); n > 0 {
		text = fmt.Sprintf("%d interrupted restore(s), %s", n, text)
	}
	m.setStatus(text, false)
}
