package timeline

import (
	"slices"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// The message tree on an Index, as model.Transcript gives it, for readers
// that walk a transcript's records by number and read them again by
// offset (engine/export's streamed export).

// Parent is the record i links to by parentUuid, or -1 (no parent, or
// one not in the file).
func (ix *Index) Parent(i int32) int32 { return max(ix.ent(i).parent, -1) }

// Sidechain reports whether record i is a sidechain's (isSidechain).
func (ix *Index) Sidechain(i int32) bool { return ix.has(i, fSidechain) }

// Indexed reports whether record i is the one its uuid names
// (Transcript.Get): it has a uuid and no earlier line has it.
func (ix *Index) Indexed(i int32) bool { return ix.indexed(i) }

// Boundary reports whether record i is a compact or microcompact
// boundary.
func (ix *Index) Boundary(i int32) bool { return ix.has(i, fCompact|fMicro) }

// PickLeaf is PickLeaf on the whole file: the record the client resumes
// from, or -1.
func (ix *Index) PickLeaf() (int32, LeafSource) { return ix.pickLeaf(iview{ix: ix, from: 1}) }

// Walk is Walk on the whole file from record leaf: the chain oldest
// first, across compactions when across.
func (ix *Index) Walk(leaf int32, across bool) ([]int32, model.ChainEnd) {
	return ix.walk(iview{ix: ix, from: 1}, leaf, across)
}

// Compaction is Compaction for boundary record i.
func (ix *Index) Compaction(i int32) (CompactionKind, model.SummarizeDirection, *int) {
	return compaction(ix.Full(i), ix.summaryOf(i))
}

// ReadAgain is record i read again through rr, whole records included
// (for a Rereader with other options than the index's scan).
func (ix *Index) ReadAgain(rr *model.Rereader, i int32) (*model.Record, error) {
	e := ix.ent(i)
	return rr.Read(int(e.line), e.offset, int(e.size), ix.UUID(i))
}

// treeChild reports whether record i is in its parent's children
// (Transcript.Children): it has a uuid, is the first with it, and names a
// record of the file.
func (ix *Index) treeChild(i int32) bool { return ix.ent(i).parent >= 0 && ix.indexed(i) }

// Rewind is Transcript.Branches' Branch on the index: a record with more
// than one non-sidechain child, and those children in file order.
type Rewind struct {
	Parent   int32
	Children []int32
}

// Rewinds lists the rewind points in file order.
func (ix *Index) Rewinds() []Rewind {
	n := make([]uint8, ix.Len())
	for i := range int32(ix.Len()) {
		if p := ix.ent(i).parent; ix.treeChild(i) && !ix.Sidechain(i) && n[p] < 2 {
			n[p]++
		}
	}
	kids := map[int32][]int32{}
	for i := range int32(ix.Len()) {
		if p := ix.ent(i).parent; ix.treeChild(i) && !ix.Sidechain(i) && n[p] == 2 {
			kids[p] = append(kids[p], i)
		}
	}
	var out []Rewind
	for i := range int32(ix.Len()) {
		if c, ok := kids[i]; ok && ix.indexed(i) {
			out = append(out, Rewind{Parent: i, Children: c})
		}
	}
	return out
}

// NewestChildren is, for every record, its newest non-sidechain child
// (the last in file order), or -1.
func (ix *Index) NewestChildren() []int32 {
	out := make([]int32, ix.Len())
	for i := range out {
		out[i] = -1
	}
	for i := range int32(ix.Len()) {
		if ix.treeChild(i) && !ix.Sidechain(i) {
			out[ix.ent(i).parent] = i
		}
	}
	return out
}

// SidechainTree is Transcript.Sidechains' Sidechain on the index: its
// root and every sidechain record under it, in file order.
type SidechainTree struct {
	Root    int32
	Records []int32
}

// SidechainTrees lists the sidechains in file order of their roots: a
// sidechain record whose parent is not one, and the sidechain records
// under it (a visited set stops cycles).
func (ix *Index) SidechainTrees() []SidechainTree {
	var out []SidechainTree
	var kids map[int32][]int32
	for i := range int32(ix.Len()) {
		if !ix.Sidechain(i) || !ix.indexed(i) {
			continue
		}
		if p := ix.ent(i).parent; p >= 0 && ix.Sidechain(p) {
			continue
		}
		if kids == nil {
			kids = map[int32][]int32{}
			for j := range int32(ix.Len()) {
				if ix.treeChild(j) && ix.Sidechain(j) {
					kids[ix.ent(j).parent] = append(kids[ix.ent(j).parent], j)
				}
			}
		}
		seen := map[int32]bool{i: true}
		recs := []int32{i}
		for k := 0; k < len(recs); k++ {
			for _, c := range kids[recs[k]] {
				if !seen[c] {
					seen[c] = true
					recs = append(recs, c)
				}
			}
		}
		slices.Sort(recs)
		out = append(out, SidechainTree{Root: i, Records: recs})
	}
	return out
}

// Resume is ResumeTranscript on the index, with the resume's records
// read whole through read (a preserved record is the same record in
// Messages and Preserved).
func (ix *Index) Resume(opts ResumeOptions, read Source) (Resume, error) {
	res, msgs, pres := ix.resume(opts)
	got := map[int32]*model.Record{}
	recs := func(is []int32) ([]*model.Record, error) {
		out := make([]*model.Record, 0, len(is))
		for _, i := range is {
			r := got[i]
			if r == nil {
				var err error
				if r, err = read(i); err != nil {
					return nil, err
				}
				got[i] = r
			}
			out = append(out, r)
		}
		return out, nil
	}
	var err error
	if res.Messages, err = recs(msgs); err != nil {
		return res, err
	}
	if len(pres) > 0 {
		res.Preserved, err = recs(pres)
	}
	return res, err
}

// SystemTokens is SystemTokens on the index.
func (ix *Index) SystemTokens(line int) window.Tokens { return ix.sys.at(line) }
