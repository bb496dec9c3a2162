package timeline

// The tree replay as it was before the index (commit 2b58a97's parent):
// the reference the indexed replay is checked against
// (TestIndexedReplayEqualsTree*). Build now runs on the index.

import (
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// treeBuild is Build on the transcript's tree: it replays t against window w. fileSize is the transcript's
// size on disk (for the resume's 5 MiB rule).
func treeBuild(t *model.Transcript, w window.Config, fileSize int64) Timeline {
	tl := Timeline{
		Session: t.Summary.SessionID, Path: t.Path, Records: t.Summary.Records, Window: w,
		Thresholds: Thresholds{Effective: w.Effective(), Warning: w.WarningAt(), Autocompact: w.AutocompactAt(), Blocked: w.BlockedAt()},
		Boundaries: []BoundaryInfo{}, Turns: []Turn{}, Steps: []Step{}, Branches: []BranchInfo{}, Sidechains: []SidechainInfo{},
		t: t,
	}
	ctx := newContextMemo(t)
	turnAt := map[string]int{} // message.id+requestId → index in Turns
	agent := AgentFile(t)
	for _, r := range t.Records {
		switch {
		case r.IsCompactBoundary() || r.IsMicrocompactBoundary():
			b := boundaryInfo(t, r)
			leaf := r
			if s := t.Get(b.SummaryUUID); s != nil {
				leaf = s
			}
			tl.Boundaries = append(tl.Boundaries, b)
			st := Step{Kind: StepBoundary, Line: leaf.Line, Leaf: leaf.UUID, Timestamp: r.Timestamp,
				Turn: -1, Boundary: len(tl.Boundaries) - 1, Context: ctx.of(leaf)}
			if b.PostTokens != nil {
				st.Measured = window.Tokens(*b.PostTokens)
			}
			tl.Steps = append(tl.Steps, st)
		case isTurnIn(r, agent):
			u := r.Message.Usage
			key, keyed := TurnKey(r)
			if i, ok := turnAt[key]; ok && keyed {
				// Another block of the same response: move the turn's end here.
				tl.Turns[i].UUID = r.UUID
				tl.Turns[i].Line = r.Line
				st := &tl.Steps[len(tl.Steps)-1]
				if st.Kind == StepTurn && st.Turn == i {
					st.Leaf, st.Line, st.Context = r.UUID, r.Line, ctx.of(r)
				}
				continue
			}
			turnAt[key] = len(tl.Turns)
			measured := window.Tokens(u.ContextTokens())
			tl.Turns = append(tl.Turns, Turn{UUID: r.UUID, MessageID: r.Message.ID, Line: r.Line, Timestamp: r.Timestamp,
				ContextTokens: measured, OutputTokens: window.Tokens(u.OutputTokens), Level: w.Level(measured)})
			tl.Steps = append(tl.Steps, Step{Kind: StepTurn, Line: r.Line, Leaf: r.UUID, Timestamp: r.Timestamp,
				Turn: len(tl.Turns) - 1, Boundary: -1, Context: ctx.of(r), Measured: measured})
		}
	}
	sys := newSystemIndex(t)
	for i := range tl.Steps {
		tl.Steps[i].Index = i
		tl.Steps[i].Context.System = sys.at(tl.Steps[i].Line)
	}
	tl.Resume = ResumeTranscript(t, ResumeOptions{FileSize: fileSize})
	for _, b := range t.Branches() {
		bi := BranchInfo{Parent: b.Parent.UUID, Line: b.Parent.Line}
		for _, c := range b.Children {
			bi.Children = append(bi.Children, c.UUID)
		}
		tl.Branches = append(tl.Branches, bi)
	}
	for _, s := range t.Sidechains() {
		tl.Sidechains = append(tl.Sidechains, SidechainInfo{Root: s.Root.UUID, AgentID: s.AgentID, Records: s.Records})
	}
	return tl
}

// contextMemo computes the context at each record once: a record's
// context is its parent's plus its own, so a whole timeline costs one
// pass however long the chains are.
type contextMemo struct {
	t    *model.Transcript
	memo map[*model.Record]Context
}

func newContextMemo(t *model.Transcript) *contextMemo {
	return &contextMemo{t: t, memo: map[*model.Record]Context{}}
}

// of returns the context the model saw at r (r included), following the
// same links resume follows.
func (m *contextMemo) of(r *model.Record) Context {
	var stack []*model.Record
	onStack := map[*model.Record]bool{}
	for cur := r; cur != nil; cur = m.t.Get(cur.ParentUUID) {
		if _, ok := m.memo[cur]; ok || onStack[cur] {
			break
		}
		onStack[cur] = true
		stack = append(stack, cur)
	}
	for i := len(stack) - 1; i >= 0; i-- {
		rec := stack[i]
		var base Context
		if p := m.t.Get(rec.ParentUUID); p != nil {
			base = m.memo[p] // zero for a cycle's entry point
		} else if rec.IsCompactBoundary() {
			base = m.fallbackBase(rec)
		}
		c := base.Add(RecordContext(rec))
		if p := m.t.Get(rec.ParentUUID); p != nil && rec.IsCompactSummary {
			c = m.addPreserved(p, rec, c)
		}
		m.memo[rec] = c
	}
	return m.memo[r]
}

// fallbackBase is what a compact boundary starts from: nothing, unless its
// preserved segment is broken, in which case the client loads the full
// history behind it.
func (m *contextMemo) fallbackBase(b *model.Record) Context {
	if b.Compact == nil || b.Compact.PreservedSegment == nil {
		return Context{}
	}
	v := View{T: m.t, From: 1}
	if _, err := preservedSegment(v, b.Compact.PreservedSegment); err == nil {
		return Context{}
	}
	var c Context
	if prev := v.get(b.LogicalParentUUID); prev != nil {
		chain, _ := Walk(v, prev, true)
		for _, r := range chain {
			c = c.Add(RecordContext(r))
		}
	}
	return c
}

// addPreserved adds a partial compaction's preserved segment at its
// anchor (the summary under the boundary).
func (m *contextMemo) addPreserved(boundary, anchor *model.Record, c Context) Context {
	if !boundary.IsCompactBoundary() || boundary.Compact == nil || boundary.Compact.PreservedSegment == nil ||
		boundary.Compact.PreservedSegment.AnchorUUID != anchor.UUID {
		return c
	}
	seg, err := preservedSegment(View{T: m.t, From: 1}, boundary.Compact.PreservedSegment)
	if err != nil {
		return c
	}
	for _, r := range seg {
		c = c.Add(RecordContext(r))
	}
	return c
}
