package replay

import (
	"fmt"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/views/component/text"
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
	out := []string{"", m.styles.Bold.Render(text.Truncate("Lost at this compaction: "+text.Count(len(lb.Lost), "item", "items"), w))}
	if len(lb.Lost) > 0 {
		out = append(out, m.styles.Dim.Render(text.Truncate("not in the summary, the preserved messages or the files attached after it · `memscope replay SESSION --lost --keep "+fmt.Sprint(lb.Index)+":ID` keeps a rule", w)))
	}
	for _, it := range lb.Lost {
		line := fmt.Sprintf("%-4s %-7s line %-5d %s", it.ID, it.Kind, it.Line, it.Short(w))
		if it.Detail != "" && it.Kind != ledger.KindRule {
			line += " (" + it.Detail + ")"
		}
		out = append(out, text.Truncate(line, w))
	}
	return out
}
