package replay

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// lostCache keeps the loss ledger of each compaction of the open
// transcript (engine/ledger, what `replay --lost` prints), so a boundary's
// ledger is computed once, not on every draw or file event. An entry is
// kept once a response follows its boundary: from then on nothing
// appended to the file changes it (the re-attachments it reads come
// before that response).
type lostCache struct {
	path string
	byID map[string]ledger.Boundary
}

// lostAt is the ledger of step s when it is a compaction.
func (m Model) lostAt(s timeline.Step) (ledger.Boundary, bool) {
	if m.tl == nil || s.Kind != timeline.StepBoundary || s.Boundary < 0 || s.Boundary >= len(m.tl.Boundaries) {
		return ledger.Boundary{}, false
	}
	b := m.tl.Boundaries[s.Boundary]
	if b.Kind != timeline.BoundaryCompact || m.lost == nil {
		return ledger.Boundary{}, false
	}
	if m.lost.path != m.tl.Path {
		m.lost.path, m.lost.byID = m.tl.Path, map[string]ledger.Boundary{}
	}
	key := fmt.Sprintf("%s@%d", b.UUID, b.Line)
	if lb, ok := m.lost.byID[key]; ok {
		return lb, true
	}
	t := m.tl.Transcript()
	r := t.Get(b.UUID)
	if t == nil || r == nil {
		return ledger.Boundary{}, false
	}
	index := 0
	for _, x := range m.tl.Boundaries[:s.Boundary+1] {
		if x.Kind == timeline.BoundaryCompact {
			index++
		}
	}
	lb := ledger.At(t, r, index)
	for _, tu := range m.tl.Turns {
		if tu.Line > b.Line {
			m.lost.byID[key] = lb
			break
		}
	}
	return lb, true
}

// lostLabel is what a compaction's row adds: " · lost 4 rules, 12 files".
func (m Model) lostLabel(s timeline.Step) string {
	lb, ok := m.lostAt(s)
	if !ok || len(lb.Lost) == 0 {
		return ""
	}
	return " · " + lb.CountsText()
}

// lostLines is the "lost" section of a compaction's detail: each item
// with the line of the turn it came from.
func (m Model) lostLines(s timeline.Step, w int) []string {
	lb, ok := m.lostAt(s)
	if !ok {
		return nil
	}
	n := text.Count(len(lb.Lost), "item", "items")
	if len(lb.Lost) == 0 {
		n = "nothing (the summary names all the model had)"
	}
	out := []string{"", m.styles.Bold.Render(text.Truncate("Lost at this compaction: "+n, w))}
	if len(lb.Lost) > 0 {
		out = append(out, m.styles.Dim.Render(text.Truncate("not in the summary, the preserved messages or the files attached after it · { } select, o opens at its turn, s keeps a rule as a memory, t elsewhere", w)))
	}
	sel, hasSel := m.selectedLost(s)
	for _, it := range lb.Lost {
		mark := "  "
		if hasSel && it.ID == sel.ID {
			mark = "▸ "
		}
		line := fmt.Sprintf("%s%-4s %-7s line %-5d %s", mark, it.ID, it.Kind, it.Line, it.Short(w))
		if it.Detail != "" && it.Kind != ledger.KindRule {
			line += " (" + it.Detail + ")"
		}
		out = append(out, text.Truncate(line, w))
		if m.chooser.open && hasSel && it.ID == sel.ID {
			out = append(out, m.chooserLines(w)...)
		}
	}
	return out
}

// lostItems are the lost items of step s, which { and } select among.
func (m Model) lostItems(s timeline.Step) []ledger.Item {
	lb, ok := m.lostAt(s)
	if !ok {
		return nil
	}
	return lb.Lost
}

// selectedLost is the item { and } selected at step s.
func (m Model) selectedLost(s timeline.Step) (ledger.Item, bool) {
	items := m.lostItems(s)
	if len(items) == 0 {
		return ledger.Item{}, false
	}
	return items[min(max(m.lostSel, 0), len(items)-1)], true
}

// lostKeys handles { } and s at a compaction that lost something; ok is
// false for other keys or elsewhere. Only a rule or a todo can be kept.
func (m Model) lostKeys(k tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	s, selected := m.steps.Selected()
	if !selected {
		return m, nil, false
	}
	items := m.lostItems(s)
	if len(items) == 0 {
		return m, nil, false
	}
	m.lostSel = min(max(m.lostSel, 0), len(items)-1)
	switch {
	case key.Matches(k, m.keys.LostNext):
		m.lostSel = (m.lostSel + 1) % len(items)
	case key.Matches(k, m.keys.LostPrev):
		m.lostSel = (m.lostSel + len(items) - 1) % len(items)
	case key.Matches(k, m.keys.OpenLost):
		m2, cmd := m.openLost()
		return m2, cmd, true
	case key.Matches(k, m.keys.KeepLost):
		it, session := items[m.lostSel], m.tl.Session
		if it.Kind != ledger.KindRule && it.Kind != ledger.KindTodo {
			return m, notKeepable(it), true
		}
		return m, func() tea.Msg {
			return msgs.KeepLost{Item: it, Session: session, To: ledger.Target{Kind: ledger.ToMemory}}
		}, true
	case key.Matches(k, m.keys.KeepLostTo):
		lb, _ := m.lostAt(s)
		m2, cmd := m.chooseKeep(items[m.lostSel], lb.Ref(items[m.lostSel]))
		return m2, cmd, true
	default:
		return m, nil, false
	}
	return m, nil, true
}

// lostHelp are the ledger's keys at a compaction that lost something.
func (m Model) lostHelp() []key.Binding {
	s, selected := m.steps.Selected()
	if !selected || len(m.lostItems(s)) == 0 {
		return nil
	}
	return []key.Binding{m.keys.LostNext, m.keys.LostPrev, m.keys.OpenLost, m.keys.KeepLost, m.keys.KeepLostTo}
}
