package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/keymap/teakey"
	"github.com/memscope/memscope/views/component/palette"
)

// paletteItems is every action of the binding table (but the palette's
// own), as the palette lists it: its key in the user's keymap, its group,
// and why it cannot run on the focused pane now.
func (m Model) paletteItems() []palette.Item {
	ctx := m.actionContext()
	var items []palette.Item
	for _, a := range keymap.Actions() {
		if a.Name == "palette" {
			continue
		}
		b := a.Binding(*m.keys)
		it := palette.Item{Name: a.Name, Title: a.Help, Key: b.Help().Key, Group: a.Group.String()}
		if a.Group == keymap.PaneJump {
			p := keymap.Panes[keymap.PaneIndex(a.Help)]
			it.Title, it.Group = "go to pane "+p.Name, "panes · "+string(p.Group)
		}
		if ok, why := a.AvailableIn(ctx); !ok {
			it.Why = why
		}
		if len(b.Keys()) == 0 || !b.Enabled() {
			it.Why = "no key bound (settings file)"
		}
		items = append(items, it)
	}
	return items
}

// openPalette opens the command palette over the focused pane.
func (m *Model) openPalette() {
	p := palette.New(m.paletteItems())
	m.modals.push(modal{kind: modalPalette, palette: &p})
}

// palette is the open palette, nil when none.
func (s modalStack) palette() *palette.Model {
	for _, md := range s.items[:s.n] {
		if md.kind == modalPalette {
			return md.palette
		}
	}
	return nil
}

// handlePalette gives a key to the open palette. The chosen action runs
// as its key would: the palette closes and the action's first key comes
// back as a message, down the normal key path, so the palette runs
// nothing the keys do not.
func (m Model) handlePalette(p *palette.Model, msg tea.KeyPressMsg) (tea.Model, tea.Cmd, bool) {
	next, res := p.Update(msg)
	switch res {
	case palette.Continue:
		m.modals.push(modal{kind: modalPalette, palette: &next})
		return m, nil, true
	case palette.Closed:
		m.modals.remove(modalPalette)
		return m, nil, true
	case palette.Chosen:
	}
	it, _ := next.Selected()
	if it.Why != "" {
		// Stay open: the reason is the answer, and another pick may do.
		m.modals.push(modal{kind: modalPalette, palette: &next})
		m.setStatus(it.Title+": "+it.Why, false)
		return m, nil, true
	}
	m.modals.remove(modalPalette)
	a, _ := keymap.ActionNamed(it.Name)
	press := teakey.Press(a.Binding(*m.keys).Keys()[0])
	return m, func() tea.Msg { return press }, true
}
