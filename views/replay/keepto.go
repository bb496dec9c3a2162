package replay

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// keepPlaces are the places the chooser offers, in its order: the ones
// `replay --lost --keep B:ID --to` takes (ledger.Target).
var keepPlaces = []struct {
	kind  ledger.TargetKind
	label string
}{
	{ledger.ToMemory, "memory (MEMORY.md)"},
	{ledger.ToRules, "rules file"},
	{ledger.ToClaudeMD, "CLAUDE.md"},
}

// keepChooser is the small form t opens under the selected lost item:
// where to keep it. tab and shift+tab move between the places, the rules
// file's name is typed in place, enter keeps, esc cancels.
type keepChooser struct {
	open  bool
	item  ledger.Item
	ref   string
	place int
	name  textinput.Model
}

// chooseKeep opens the chooser for the selected item (a rule or a todo).
func (m Model) chooseKeep(it ledger.Item, ref string) (Model, tea.Cmd) {
	if it.Kind != ledger.KindRule && it.Kind != ledger.KindTodo {
		return m, notKeepable(it)
	}
	name := style.Input("", "FILE (.md added)")
	name.SetWidth(24)
	m.chooser = keepChooser{open: true, item: it, ref: ref, name: name}
	return m, nil
}

// notKeepable is the status for an item that is not a rule or a todo.
func notKeepable(it ledger.Item) tea.Cmd {
	return func() tea.Msg {
		return msgs.Status{Text: "only a rule or a todo can be kept: " + it.ID + " is a " + string(it.Kind), Error: true}
	}
}

// updateChooser takes every key while the chooser is open (the rules
// file's name is typed text).
func (m Model) updateChooser(k tea.KeyPressMsg) (Model, tea.Cmd) {
	c := &m.chooser
	switch {
	case key.Matches(k, m.keys.Back):
		c.open = false
		c.name.Blur()
		return m, func() tea.Msg { return msgs.Status{Text: "not kept: nothing was written"} }
	case key.Matches(k, m.keys.NextField, m.keys.PrevField):
		step := 1
		if key.Matches(k, m.keys.PrevField) {
			step = len(keepPlaces) - 1
		}
		c.place = (c.place + step) % len(keepPlaces)
		c.name.Blur()
		if keepPlaces[c.place].kind == ledger.ToRules {
			return m, c.name.Focus()
		}
		return m, nil
	case key.Matches(k, m.keys.Open):
		to, err := m.chooser.target()
		if err != nil {
			return m, func() tea.Msg { return msgs.Status{Text: err.Error(), Error: true} }
		}
		c.open = false
		c.name.Blur()
		it, session := c.item, m.tl.Session
		return m, func() tea.Msg { return msgs.KeepLost{Item: it, Session: session, To: to} }
	}
	if keepPlaces[c.place].kind != ledger.ToRules {
		return m, nil
	}
	var cmd tea.Cmd
	c.name, cmd = c.name.Update(k)
	return m, cmd
}

// target is the place chosen, as the CLI's --to parses it.
func (c keepChooser) target() (ledger.Target, error) {
	switch p := keepPlaces[c.place].kind; p {
	case ledger.ToRules:
		return ledger.ParseTarget("rules:" + strings.TrimSpace(c.name.Value()))
	default:
		return ledger.ParseTarget(string(p))
	}
}

// chooserLines draw the chooser under the selected item, one place a
// line (the detail can be 40 columns wide).
func (m Model) chooserLines(w int) []string {
	c := m.chooser
	out := []string{text.Truncate("    keep "+c.ref+" to:", w)}
	for i, p := range keepPlaces {
		mark, label := "      ", p.label
		if i == c.place {
			mark, label = "    ▸ ", m.styles.Bold.Render(label)
		}
		line := mark + label
		if p.kind == ledger.ToRules {
			name := c.name
			name.SetWidth(max(min(w-len("    ▸ rules file .claude/rules/")-2, 24), 8))
			line += " .claude/rules/" + name.View()
		}
		out = append(out, text.Truncate(line, w))
	}
	tab, enter, esc := m.keys.NextField.Help().Key, m.keys.Open.Help().Key, m.keys.Back.Help().Key
	return append(out, m.styles.Dim.Render(text.Truncate("    "+tab+" next place · "+enter+" keep · "+esc+" cancel", w)))
}

// chooserHelp are the chooser's keys, for the footer.
func (m Model) chooserHelp() []key.Binding {
	return []key.Binding{m.keys.NextField, m.keys.PrevField, retitled(m.keys.Open, "keep"), retitled(m.keys.Back, "cancel")}
}
