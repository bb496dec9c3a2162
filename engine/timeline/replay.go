package timeline

import (
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// Source gives record i of an index whole: the transcript's own record
// when it was read into memory, or the line read again by its offset.
type Source func(i int32) (*model.Record, error)

// Replay is a timeline built on an Index: its boundaries, branches,
// sidechains and resume are held as a Timeline's, its turns and steps as
// record numbers, written out one at a time (Turn, Step) with what the
// index does not hold read through the Source.
type Replay struct {
	// Timeline has every field but Turns and Steps (empty).
	Timeline
	// Messages and Preserved are the resume's records (Resume's own
	// lists are nil): read their uuids with UUIDs.
	Messages, Preserved []int32

	ix    *Index
	src   Source
	turns []turnSpan
	steps []stepRef
	err   error
}

// turnSpan is a turn's first and last record.
type turnSpan struct{ first, last int32 }

// stepRef is a step: its turn or boundary (-1 for the other), its leaf
// record, and the record whose time it has (the turn's first record, or
// the boundary).
type stepRef struct {
	turn, boundary int32
	leaf, at       int32
}

// BuildReplay replays the indexed transcript against window w; fileSize
// is its size on disk (the resume's 5 MiB rule). src reads the records
// the index does not hold whole. It uses ix up (the index's contexts
// become the contexts at each record): one replay per index.
func BuildReplay(ix *Index, src Source, w window.Config, fileSize int64) (*Replay, error) {
	rp := &Replay{ix: ix, src: src, Timeline: Timeline{
		Session: ix.Summary.SessionID, Path: ix.Path, Records: ix.Summary.Records, Window: w,
		Thresholds: Thresholds{Effective: w.Effective(), Warning: w.WarningAt(), Autocompact: w.AutocompactAt(), Blocked: w.BlockedAt()},
		Boundaries: []BoundaryInfo{}, Turns: []Turn{}, Steps: []Step{}, Branches: []BranchInfo{}, Sidechains: []SidechainInfo{},
	}}
	agent := ix.agent.agentFile()
	turnAt := map[[16]byte]int32{}
	next := int32(0) // in ix.cands
	for i := range int32(ix.Len()) {
		e := ix.ent(i)
		switch {
		case e.flags&(fCompact|fMicro) != 0:
			b := rp.boundaryInfo(i)
			leaf := i
			if s := ix.Lookup(b.SummaryUUID); b.SummaryUUID != "" && s >= 0 {
				leaf = s
			}
			rp.Boundaries = append(rp.Boundaries, b)
			rp.contextOf(leaf)
			rp.steps = append(rp.steps, stepRef{turn: -1, boundary: int32(len(rp.Boundaries) - 1), leaf: leaf, at: i})
		case e.flags&fUsage != 0 && (e.flags&fSidechain == 0 || agent):
			for ix.cands.at(next).rec != i {
				next++
			}
			c := *ix.cands.at(next)
			if t, ok := turnAt[c.key]; ok && c.keyed {
				rp.turns[t].last = i
				if st := &rp.steps[len(rp.steps)-1]; st.turn == t {
					st.leaf = i
					rp.contextOf(i)
				}
				continue
			}
			if c.keyed {
				turnAt[c.key] = int32(len(rp.turns))
			}
			rp.turns = append(rp.turns, turnSpan{first: i, last: i})
			rp.contextOf(i)
			rp.steps = append(rp.steps, stepRef{turn: int32(len(rp.turns) - 1), boundary: -1, leaf: i, at: i})
		}
	}
	ix.cands = chunked[turnCand]{}
	res, msgs, pres := ix.resume(ResumeOptions{FileSize: fileSize})
	rp.Resume, rp.Messages, rp.Preserved = res, msgs, pres
	rp.Branches = ix.branches()
	rp.Sidechains = rp.sidechains()
	return rp, rp.err
}

// turnKeyHash is the TurnKey's model.KeyHash: the index keeps 16 bytes
// a response instead of its ids.
func turnKeyHash(key string) [16]byte { return model.KeyHash([]byte(key)) }

// read is src(i), keeping the first error.
func (rp *Replay) read(i int32) *model.Record {
	r, err := rp.src(i)
	if err != nil {
		if rp.err == nil {
			rp.err = err
		}
		return nil
	}
	return r
}

// TurnCount is the number of turns.
func (rp *Replay) TurnCount() int { return len(rp.turns) }

// StepCount is the number of steps.
func (rp *Replay) StepCount() int { return len(rp.steps) }

// Turn is turn k as Timeline.Turns holds it.
func (rp *Replay) Turn(k int) (Turn, error) {
	ts := rp.turns[k]
	first, err := rp.src(ts.first)
	if err != nil {
		return Turn{}, err
	}
	u := first.Message.Usage
	measured := window.Tokens(u.ContextTokens())
	return Turn{UUID: rp.ix.UUID(ts.last), MessageID: first.Message.ID, Line: rp.ix.Line(ts.last), Timestamp: first.Timestamp,
		ContextTokens: measured, OutputTokens: window.Tokens(u.OutputTokens), Level: rp.Window.Level(measured)}, nil
}

// Step is step k as Timeline.Steps holds it.
func (rp *Replay) Step(k int) (Step, error) {
	s := rp.steps[k]
	st := Step{Index: k, Line: rp.ix.Line(s.leaf), Leaf: rp.ix.UUID(s.leaf), Turn: int(s.turn), Boundary: int(s.boundary),
		Context: rp.ix.ctx.get(s.leaf)}
	st.Context.System = rp.ix.sys.at(st.Line)
	at, err := rp.src(s.at)
	if err != nil {
		return Step{}, err
	}
	st.Timestamp = at.Timestamp
	if s.turn >= 0 {
		st.Kind = StepTurn
		st.Measured = window.Tokens(at.Message.Usage.ContextTokens())
	} else {
		st.Kind = StepBoundary
		if p := rp.Boundaries[s.boundary].PostTokens; p != nil {
			st.Measured = window.Tokens(*p)
		}
	}
	return st, nil
}

// Whole returns the replay with its turns and steps in memory.
func (rp *Replay) Whole() (Timeline, error) {
	tl := rp.Timeline
	tl.Turns = make([]Turn, 0, len(rp.turns))
	tl.Steps = make([]Step, 0, len(rp.steps))
	for k := range rp.turns {
		t, err := rp.Turn(k)
		if err != nil {
			return tl, err
		}
		tl.Turns = append(tl.Turns, t)
	}
	for k := range rp.steps {
		s, err := rp.Step(k)
		if err != nil {
			return tl, err
		}
		tl.Steps = append(tl.Steps, s)
	}
	return tl, nil
}

// UUIDs are the uuids of the records recs, in order.
func (rp *Replay) UUIDs(recs []int32) []string {
	out := make([]string, 0, len(recs))
	for _, i := range recs {
		out = append(out, rp.ix.UUID(i))
	}
	return out
}

// boundaryInfo is boundaryInfo on the index.
func (rp *Replay) boundaryInfo(i int32) BoundaryInfo {
	ix := rp.ix
	return boundaryFrom(ix.Full(i), ix.summaryOf(i), func(ps *model.PreservedSegment) error {
		_, err := ix.preservedSegment(iview{ix: ix, from: 1}, ps)
		return err
	})
}

// summaryOf is the compact summary row under boundary i (the first in
// file order), nil when none is.
func (ix *Index) summaryOf(i int32) *model.Record {
	if !ix.has(i, fNoUUID) {
		target := ix.Lookup(ix.Full(i).UUID)
		for _, j := range ix.rare {
			if ix.has(j, fSummary) && ix.indexed(j) && ix.ent(j).parent == target {
				return ix.full[j]
			}
		}
	}
	return nil
}

// contextOf is contextMemo.of on the index: the context at record r,
// computed once (ix.ctx holds a record's own context until then).
func (rp *Replay) contextOf(r int32) Context {
	ix := rp.ix
	var stack []int32
	onStack := map[int32]bool{}
	for cur := r; cur >= 0; cur = ix.ent(cur).parent {
		if ix.isDone(cur) || onStack[cur] {
			break
		}
		onStack[cur] = true
		stack = append(stack, cur)
	}
	for k := len(stack) - 1; k >= 0; k-- {
		rec := stack[k]
		var base Context
		p := ix.ent(rec).parent
		switch {
		case p >= 0:
			if ix.isDone(p) {
				base = ix.ctx.get(p) // zero for a cycle's entry point
			}
		case ix.has(rec, fCompact):
			base = rp.fallbackBase(rec)
		}
		c := base.Add(ix.ctx.get(rec))
		if p >= 0 && ix.has(rec, fSummary) {
			c = rp.addPreserved(p, rec, c)
		}
		ix.ctx.set(rec, c)
		ix.done[rec/64] |= 1 << (rec % 64)
	}
	return ix.ctx.get(r)
}

func (ix *Index) isDone(i int32) bool { return ix.done[i/64]&(1<<(i%64)) != 0 }

// own is what record i adds to the context, read again when the index
// holds the context at it instead.
func (rp *Replay) own(i int32) Context {
	if !rp.ix.isDone(i) {
		return rp.ix.ctx.get(i)
	}
	if r := rp.read(i); r != nil {
		return RecordContext(r)
	}
	return Context{}
}

// fallbackBase is contextMemo.fallbackBase on the index.
func (rp *Replay) fallbackBase(b int32) Context {
	ix := rp.ix
	r := ix.Full(b)
	if r.Compact == nil || r.Compact.PreservedSegment == nil {
		return Context{}
	}
	v := iview{ix: ix, from: 1}
	if _, err := ix.preservedSegment(v, r.Compact.PreservedSegment); err == nil {
		return Context{}
	}
	var c Context
	if prev := v.get(r.LogicalParentUUID); prev >= 0 {
		chain, _ := ix.walk(v, prev, true)
		for _, i := range chain {
			c = c.Add(rp.own(i))
		}
	}
	return c
}

// addPreserved is contextMemo.addPreserved on the index.
func (rp *Replay) addPreserved(boundary, anchor int32, c Context) Context {
	ix := rp.ix
	if !ix.has(boundary, fCompact) {
		return c
	}
	r := ix.Full(boundary)
	if r.Compact == nil || r.Compact.PreservedSegment == nil || !ix.is(anchor, r.Compact.PreservedSegment.AnchorUUID) {
		return c
	}
	seg, err := ix.preservedSegment(iview{ix: ix, from: 1}, r.Compact.PreservedSegment)
	if err != nil {
		return c
	}
	for _, i := range seg {
		c = c.Add(rp.own(i))
	}
	return c
}

// is reports whether record i's uuid is uuid.
func (ix *Index) is(i int32, uuid string) bool {
	e := ix.ent(i)
	switch {
	case e.flags&fNoUUID != 0:
		return uuid == ""
	case e.flags&fOdd != 0:
		return ix.UUID(i) == uuid
	}
	id, ok := canonical(uuid)
	return ok && id == e.id
}

// branches is model.Transcript.Branches on the index.
func (ix *Index) branches() []BranchInfo {
	out := []BranchInfo{}
	for _, rw := range ix.Rewinds() {
		kids := make([]string, 0, len(rw.Children))
		for _, c := range rw.Children {
			kids = append(kids, ix.UUID(c))
		}
		out = append(out, BranchInfo{Parent: ix.UUID(rw.Parent), Line: ix.Line(rw.Parent), Children: kids})
	}
	return out
}

// sidechains is model.Transcript.Sidechains on the index.
func (rp *Replay) sidechains() []SidechainInfo {
	out := []SidechainInfo{}
	for _, sc := range rp.ix.SidechainTrees() {
		agent := ""
		if r := rp.read(sc.Root); r != nil {
			agent = r.AgentID
		}
		out = append(out, SidechainInfo{Root: rp.ix.UUID(sc.Root), AgentID: agent, Records: len(sc.Records)})
	}
	return out
}
