package timeline

import (
	"fmt"

	"github.com/memscope/memscope/model"
)

// iview is View on an Index: only records within [from, to] lines.
type iview struct {
	ix       *Index
	from, to int
}

func (v iview) visible(i int32) bool {
	l := v.ix.Line(i)
	return l >= v.from && (v.to <= 0 || l <= v.to)
}

// get is the visible record with the given uuid, or -1.
func (v iview) get(uuid string) int32 {
	if i := v.ix.Lookup(uuid); i >= 0 && v.visible(i) {
		return i
	}
	return -1
}

// parent is the visible record i links to, and whether i links anywhere.
func (v iview) parent(i int32) (int32, bool) {
	switch p := v.ix.ent(i).parent; {
	case p == noParent:
		return -1, false
	case p >= 0 && v.visible(p):
		return p, true
	}
	return -1, true
}

// walkUp is model.WalkUp on record numbers.
func (ix *Index) walkUp(start int32, parent func(int32) (int32, bool)) ([]int32, model.ChainEnd) {
	seen := make([]uint64, (ix.Len()+63)/64)
	var rev []int32
	end := model.ChainRoot
	for r := start; r >= 0; {
		if seen[r/64]&(1<<(r%64)) != 0 {
			end = model.ChainCycle
			break
		}
		seen[r/64] |= 1 << (r % 64)
		rev = append(rev, r)
		p, linked := parent(r)
		if !linked {
			break
		}
		if p < 0 {
			end = model.ChainMissingParent
		}
		r = p
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev, end
}

// walk is Walk on the index.
func (ix *Index) walk(v iview, leaf int32, across bool) ([]int32, model.ChainEnd) {
	return ix.walkUp(leaf, func(r int32) (int32, bool) {
		p, linked := v.parent(r)
		if !linked && across && ix.has(r, fCompact) {
			if next := ix.Full(r).LogicalParentUUID; next != "" {
				return v.get(next), true
			}
		}
		return p, linked
	})
}

// preservedSegment is preservedSegment on the index.
func (ix *Index) preservedSegment(v iview, ps *model.PreservedSegment) ([]int32, error) {
	if ps.HeadUUID == "" || ps.TailUUID == "" || ps.AnchorUUID == "" {
		return nil, fmt.Errorf("preserved segment is missing head, tail or anchor")
	}
	tail := v.get(ps.TailUUID)
	if tail < 0 {
		return nil, fmt.Errorf("preserved segment: tail %s is not in the file", ps.TailUUID)
	}
	seg, end := ix.walkUp(tail, func(r int32) (int32, bool) {
		if ix.is(r, ps.HeadUUID) {
			return -1, false
		}
		return v.parent(r)
	})
	switch {
	case end == model.ChainCycle:
		return nil, fmt.Errorf("preserved segment: the links from tail %s loop", ps.TailUUID)
	case end == model.ChainMissingParent:
		return nil, fmt.Errorf("preserved segment: the walk from tail %s to head %s reaches a missing record", ps.TailUUID, ps.HeadUUID)
	case !ix.is(seg[0], ps.HeadUUID):
		return nil, fmt.Errorf("preserved segment: the walk from tail %s ends before head %s", ps.TailUUID, ps.HeadUUID)
	}
	return seg, nil
}

// lastPlainBoundaryLine is lastPlainBoundaryLine on the index.
func (ix *Index) lastPlainBoundaryLine(v iview) int {
	for k := len(ix.rare) - 1; k >= 0; k-- {
		i := ix.rare[k]
		if r := ix.full[i]; v.visible(i) && ix.has(i, fCompact) && (r.Compact == nil || r.Compact.PreservedSegment == nil) {
			return r.Line
		}
	}
	return 0
}

// pickLeaf is PickLeaf on the index.
func (ix *Index) pickLeaf(v iview) (int32, LeafSource) {
	for k := len(ix.rare) - 1; k >= 0; k-- {
		i := ix.rare[k]
		if ix.ent(i).kind == kLastPrompt && v.visible(i) {
			if leaf := v.get(ix.leafOf[i]); leaf >= 0 {
				return leaf, LeafFromLastPrompt
			}
			break
		}
	}
	for i := int32(ix.Len()) - 1; i >= 0; i-- {
		if e := ix.ent(i); e.flags&(fNoUUID|fDup|fSidechain) == 0 && v.visible(i) {
			return i, LeafFromNewest
		}
	}
	return -1, LeafNone
}

// resume is ResumeTranscript on the index; it returns the messages and
// the preserved records as record numbers (Resume's own lists are nil).
func (ix *Index) resume(opts ResumeOptions) (res Resume, msgs, preserved []int32) {
	v := iview{ix: ix, from: 1, to: opts.AtLine}
	if opts.FileSize > LargeTranscriptBytes {
		if cut := ix.lastPlainBoundaryLine(v); cut > 1 {
			v.from = cut
			res.SkippedBeforeLine = cut
		}
	}
	leaf, src := ix.pickLeaf(v)
	if opts.Leaf != "" {
		leaf, src = v.get(opts.Leaf), LeafGiven
	}
	res.LeafSource = src
	if leaf < 0 {
		res.ChainEnd = model.ChainNoLeaf
		return res, nil, nil
	}
	res.Leaf = ix.UUID(leaf)
	msgs, res.ChainEnd = ix.walk(v, leaf, false)
	if len(msgs) == 0 {
		return res, msgs, nil
	}
	first := msgs[0]
	if !ix.has(first, fCompact) {
		return res, msgs, nil
	}
	res.FromBoundary = ix.UUID(first)
	fr := ix.Full(first)
	if fr.Compact == nil || fr.Compact.PreservedSegment == nil {
		return res, msgs, nil
	}
	ps := fr.Compact.PreservedSegment
	seg, err := ix.preservedSegment(v, ps)
	anchorAt := -1
	if err == nil {
		for k, i := range msgs {
			if ix.is(i, ps.AnchorUUID) {
				anchorAt = k
				break
			}
		}
		if anchorAt < 0 {
			err = fmt.Errorf("anchor %s is not on the resumed chain", ps.AnchorUUID)
		}
	}
	if err != nil {
		res.Fallback = true
		res.FallbackReason = err.Error()
		res.FromBoundary = ""
		msgs, res.ChainEnd = ix.walk(v, leaf, true)
		return res, msgs, nil
	}
	out := make([]int32, 0, len(msgs)+len(seg))
	out = append(out, msgs[:anchorAt+1]...)
	out = append(out, seg...)
	return res, append(out, msgs[anchorAt+1:]...), seg
}
