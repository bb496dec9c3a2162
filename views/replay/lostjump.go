package replay

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// lostJump is where o took the pane: a compaction's lost item shown at
// its turn (the records before the boundary, which are still in the
// transcript file), and the compaction esc returns to.
type lostJump struct {
	item ledger.Item
	// ref names the item as `replay --lost` does ("1:r2").
	ref string
	// boundaryUUID and boundaryLine are the compaction's record
	// (SelectBoundary); sel is the item { } had selected there.
	boundaryUUID string
	boundaryLine int
	sel          int
}

// LostSelected reports whether a compaction's lost item is selected (the
// binding table's "needs a lost item selected").
func (m Model) LostSelected() bool {
	if m.mode != ModeTimeline {
		return false
	}
	s, ok := m.steps.Selected()
	if !ok {
		return false
	}
	_, ok = m.selectedLost(s)
	return ok
}

// openLost selects the turn the selected lost item came from, by the
// line and uuid the ledger gives it (what `replay --lost --json` prints),
// as a search hit is opened (SelectMessage), and marks its message.
func (m Model) openLost() (Model, tea.Cmd) {
	s, _ := m.steps.Selected()
	it, ok := m.selectedLost(s)
	lb, _ := m.lostAt(s)
	if !ok {
		return m, nil
	}
	b := m.tl.Boundaries[s.Boundary]
	j := &lostJump{item: it, ref: lb.Ref(it), boundaryUUID: b.UUID, boundaryLine: b.Line, sel: m.lostSel}
	cmd, found := m.SelectMessage(it.UUID, it.Line)
	if !found {
		m.SelectBoundary(b.UUID, b.Line)
		return m, func() tea.Msg {
			return msgs.Status{Text: fmt.Sprintf("%s: no step of this session holds line %d", j.ref, it.Line), Error: true}
		}
	}
	m.jump = j
	return m, cmd
}

// jumpKeys handles esc after o: back to the compaction, its item still
// selected. ok is false when no item was opened or for other keys.
func (m Model) jumpKeys(k tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	if m.jump == nil || !key.Matches(k, m.keys.Back) || m.steps.FilterValue() != "" {
		return m, nil, false
	}
	j := m.jump
	m.jump = nil
	cmd, _ := m.SelectBoundary(j.boundaryUUID, j.boundaryLine)
	m.lostSel = j.sel
	return m, cmd, true
}

// markedUUID is the record the chain marks: the search hit's, else the
// opened lost item's.
func (m Model) markedUUID() string {
	switch {
	case m.hit != nil:
		return m.hit.UUID
	case m.jump != nil:
		return m.jump.item.UUID
	}
	return ""
}

// jumpLines head the detail while a lost item is open: which item, from
// which compaction, and the way back.
func (m Model) jumpLines(w int) []string {
	j := m.jump
	if j == nil {
		return nil
	}
	head := fmt.Sprintf("⟲ lost %s at line %d · esc back to the compaction", j.ref, j.item.Line)
	return []string{
		m.styles.Warn.Render(text.Truncate(head, w)),
		"  " + text.Truncate(j.item.Short(w), max(w-2, 8)),
		m.styles.Dim.Render(text.Truncate(fmt.Sprintf("  the compaction at line %d dropped this %s", j.boundaryLine, j.item.Kind), w)),
	}
}
