package timeline

import (
	"fmt"

	"github.com/memscope/memscope/model"
)

// LargeTranscriptBytes is the size above which the client reads a
// transcript only from its last compact boundary that has no preserved
// segment (FORMATS.md, "Resume").
const LargeTranscriptBytes = 5 << 20

// LeafSource says how the resume leaf was chosen.
type LeafSource string

// The ways a leaf is chosen, in the client's order of preference.
const (
	LeafFromLastPrompt LeafSource = "last-prompt"
	LeafFromNewest     LeafSource = "newest-record"
	LeafGiven          LeafSource = "given"
	LeafNone           LeafSource = "none"
)

// ResumeOptions are the inputs of Resume besides the transcript.
type ResumeOptions struct {
	// FileSize is the transcript's size on disk; above LargeTranscriptBytes
	// the 5 MiB rule applies.
	FileSize int64
	// AtLine, when positive, resumes as the file stood after that line:
	// later records are ignored. Replay uses it for past states.
	AtLine int
	// Leaf, when set, is the leaf to walk from instead of the client's
	// choice (a replay step's record).
	Leaf string
}

// Resume is what the model sees when a session is resumed.
type Resume struct {
	Leaf       string     `json:"leaf"`
	LeafSource LeafSource `json:"leafSource"`
	// Messages are the chain records the model sees, oldest first, with
	// a preserved segment relinked after its anchor.
	Messages []*model.Record `json:"-"`
	// FromBoundary is the uuid of the compact boundary the chain starts
	// at, "" when it reaches the start of the session.
	FromBoundary string `json:"fromBoundary"`
	// Preserved are the records of a relinked preserved segment.
	Preserved []*model.Record `json:"-"`
	// Fallback is set when a preserved segment's links were broken and the
	// full history was loaded instead; FallbackReason says why.
	Fallback       bool   `json:"fallback"`
	FallbackReason string `json:"fallbackReason,omitempty"`
	// ChainEnd says how the walk up from the leaf ended.
	ChainEnd model.ChainEnd `json:"chainEnd"`
	// SkippedBeforeLine is set by the 5 MiB rule: records before this line
	// were not read.
	SkippedBeforeLine int `json:"skippedBeforeLine,omitempty"`
}

// View is a transcript as the client can see it: only records within
// [from, to] lines.
type View struct {
	T        *model.Transcript
	From, to int
}

// ResumeTranscript computes what the client loads when it resumes t: the
// leaf is the newest last-prompt's leafUuid (else the newest non-sidechain
// chain record); the chain is walked up parentUuid and stops at a compact
// boundary; a partial compaction's preserved segment is relinked after its
// anchor, and when its links are broken the full history (across
// boundaries, through logicalParentUuid) is loaded instead. Files over 5
// MiB are read only from the last boundary without a preserved segment.
func ResumeTranscript(t *model.Transcript, opts ResumeOptions) Resume {
	v := View{T: t, From: 1, to: opts.AtLine}
	var res Resume
	if opts.FileSize > LargeTranscriptBytes {
		if cut := lastPlainBoundaryLine(v); cut > 1 {
			v.From = cut
			res.SkippedBeforeLine = cut
		}
	}
	leaf, src := PickLeaf(v)
	if opts.Leaf != "" {
		leaf, src = v.get(opts.Leaf), LeafGiven
	}
	res.LeafSource = src
	if leaf == nil {
		res.ChainEnd = model.ChainNoLeaf
		return res
	}
	res.Leaf = leaf.UUID
	res.Messages, res.ChainEnd = Walk(v, leaf, false)
	if len(res.Messages) == 0 {
		return res
	}
	first := res.Messages[0]
	if !first.IsCompactBoundary() {
		return res
	}
	res.FromBoundary = first.UUID
	if first.Compact == nil || first.Compact.PreservedSegment == nil {
		return res
	}
	seg, err := preservedSegment(v, first.Compact.PreservedSegment)
	anchorAt := -1
	if err == nil {
		anchorAt = indexOf(res.Messages, first.Compact.PreservedSegment.AnchorUUID)
		if anchorAt < 0 {
			err = fmt.Errorf("anchor %s is not on the resumed chain", first.Compact.PreservedSegment.AnchorUUID)
		}
	}
	if err != nil {
		res.Fallback = true
		res.FallbackReason = err.Error()
		res.FromBoundary = ""
		res.Messages, res.ChainEnd = Walk(v, leaf, true)
		return res
	}
	res.Preserved = seg
	out := make([]*model.Record, 0, len(res.Messages)+len(seg))
	out = append(out, res.Messages[:anchorAt+1]...)
	out = append(out, seg...)
	res.Messages = append(out, res.Messages[anchorAt+1:]...)
	return res
}

// lastPlainBoundaryLine is the line of the last compact boundary without a
// preserved segment, or 0.
func lastPlainBoundaryLine(v View) int {
	for i := len(v.T.Records) - 1; i >= 0; i-- {
		r := v.T.Records[i]
		if v.visible(r) && r.IsCompactBoundary() && (r.Compact == nil || r.Compact.PreservedSegment == nil) {
			return r.Line
		}
	}
	return 0
}

func PickLeaf(v View) (*model.Record, LeafSource) {
	for i := len(v.T.Records) - 1; i >= 0; i-- {
		r := v.T.Records[i]
		if r.Type == model.RecordLastPrompt && v.visible(r) {
			if leaf := v.get(r.LeafUUID); leaf != nil {
				return leaf, LeafFromLastPrompt
			}
			break
		}
	}
	for i := len(v.T.Records) - 1; i >= 0; i-- {
		if r := v.T.Records[i]; r.UUID != "" && !r.IsSidechain && v.visible(r) && v.T.Get(r.UUID) == r {
			return r, LeafFromNewest
		}
	}
	return nil, LeafNone
}

// Walk follows parentUuid from leaf and returns the chain oldest first.
// With across set it continues past compact boundaries through their
// logicalParentUuid (the full history).
func Walk(v View, leaf *model.Record, across bool) ([]*model.Record, model.ChainEnd) {
	return model.WalkUp(leaf, func(r *model.Record) (*model.Record, bool) {
		next := r.ParentUUID
		if next == "" && across && r.IsCompactBoundary() {
			next = r.LogicalParentUUID
		}
		return v.get(next), next != ""
	})
}

// preservedSegment walks from the segment's tail back to its head and
// returns it oldest first, or why the links are broken.
func preservedSegment(v View, ps *model.PreservedSegment) ([]*model.Record, error) {
	if ps.HeadUUID == "" || ps.TailUUID == "" || ps.AnchorUUID == "" {
		return nil, fmt.Errorf("preserved segment is missing head, tail or anchor")
	}
	tail := v.get(ps.TailUUID)
	if tail == nil {
		return nil, fmt.Errorf("preserved segment: tail %s is not in the file", ps.TailUUID)
	}
	seg, end := model.WalkUp(tail, func(r *model.Record) (*model.Record, bool) {
		if r.UUID == ps.HeadUUID {
			return nil, false
		}
		return v.get(r.ParentUUID), r.ParentUUID != ""
	})
	switch {
	case end == model.ChainCycle:
		return nil, fmt.Errorf("preserved segment: the links from tail %s loop", ps.TailUUID)
	case end == model.ChainMissingParent:
		return nil, fmt.Errorf("preserved segment: the walk from tail %s to head %s reaches a missing record", ps.TailUUID, ps.HeadUUID)
	case seg[0].UUID != ps.HeadUUID:
		return nil, fmt.Errorf("preserved segment: the walk from tail %s ends before head %s", ps.TailUUID, ps.HeadUUID)
	}
	return seg, nil
}

func indexOf(rs []*model.Record, uuid string) int {
	for i, r := range rs {
		if r.UUID == uuid {
			return i
		}
	}
	return -1
}

func (v View) get(uuid string) *model.Record {
	r := v.T.Get(uuid)
	if r == nil || r.Line < v.From || v.to > 0 && r.Line > v.to {
		return nil
	}
	return r
}

func (v View) visible(r *model.Record) bool {
	return r.Line >= v.From && (v.to <= 0 || r.Line <= v.to)
}
