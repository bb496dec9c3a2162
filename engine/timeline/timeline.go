package timeline

import (
	"time"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// BoundaryKind tells compact from microcompact boundaries.
type BoundaryKind string

// The boundary kinds.
const (
	BoundaryCompact      BoundaryKind = "compact"
	BoundaryMicrocompact BoundaryKind = "microcompact"
)

// BoundaryInfo is one compaction in a transcript, with the summary that
// follows it.
type BoundaryInfo struct {
	UUID      string               `json:"uuid"`
	Kind      BoundaryKind         `json:"kind"`
	Line      int                  `json:"line"`
	Timestamp time.Time            `json:"timestamp"`
	Trigger   model.CompactTrigger `json:"trigger"`
	// Token figures as the client wrote them; nil when missing.
	PreTokens               *int `json:"preTokens"`
	PostTokens              *int `json:"postTokens"`
	DurationMs              *int `json:"durationMs,omitempty"`
	CumulativeDroppedTokens *int `json:"cumulativeDroppedTokens,omitempty"`
	// TokensSaved is a microcompact's saving.
	TokensSaved *int `json:"tokensSaved,omitempty"`
	// SummaryUUID and SummaryBytes describe the compact summary message
	// that follows a compact boundary ("" when none does).
	SummaryUUID  string `json:"summaryUuid,omitempty"`
	SummaryBytes int    `json:"summaryBytes,omitempty"`
	// Preserved is a partial compaction's segment; PreservedBroken says
	// its links do not hold (resume then loads the full history).
	Preserved       *model.PreservedSegment `json:"preserved,omitempty"`
	PreservedBroken string                  `json:"preservedBroken,omitempty"`
	// PreservedMessages counts the messages the client listed as kept
	// (compactMetadata.preservedMessages.uuids); 0 when it listed none.
	PreservedMessages int `json:"preservedMessages,omitempty"`
	// Compaction says which kind of compaction this was: auto, manual
	// (/compact), or partial (the rewind menu's "Summarize from here" or
	// "Summarize up to here"). Empty for a microcompact.
	Compaction CompactionKind `json:"compaction,omitempty"`
	// Direction is a partial compaction's side: "from" (the chosen message
	// and what follows were summarized) or "up_to" (what came before it).
	Direction model.SummarizeDirection `json:"direction,omitempty"`
	// MessagesSummarized is how many messages a partial compaction
	// summarized (the boundary's figure, else the summary row's); nil when
	// the client wrote neither.
	MessagesSummarized *int `json:"messagesSummarized,omitempty"`
}

// CompactionKind is what started a compaction, as Replay names it.
type CompactionKind string

// The compaction kinds.
const (
	CompactionAuto    CompactionKind = "auto"
	CompactionManual  CompactionKind = "manual"
	CompactionPartial CompactionKind = "partial"
)

// PreservesText says what the boundary's preserved segment keeps, in the
// one word Replay and the CLI use for it ("preserves", never "partial",
// which names the rewind menu's compactions): "preserves 3 messages",
// "preserves a segment" when the client listed none; "" without one.
func (b BoundaryInfo) PreservesText() string {
	switch {
	case b.Preserved == nil:
		return ""
	case b.PreservedMessages > 0:
		return "preserves " + format.Count(b.PreservedMessages, "message", "messages")
	}
	return "preserves a segment"
}

// DirectionText says in words which part of the conversation a partial
// compaction summarized ("" for other compactions).
func (b BoundaryInfo) DirectionText() string { return DirectionText(b.Direction) }

// DirectionText says in words which part of the conversation a partial
// compaction in direction d summarized ("" for no direction).
func DirectionText(d model.SummarizeDirection) string {
	switch d {
	case model.SummarizeFrom:
		return "summarized from the chosen message on; earlier ones kept"
	case model.SummarizeUpTo:
		return "summarized up to the chosen message; later ones kept"
	}
	return ""
}

// Turn is one API response: the assistant records sharing a message.id
// and requestId. UUID is the last of them.
type Turn struct {
	UUID      string    `json:"uuid"`
	MessageID string    `json:"messageId"`
	Line      int       `json:"line"`
	Timestamp time.Time `json:"timestamp"`
	// ContextTokens is what the request put in the window, from usage
	// (input + cache read + cache creation).
	ContextTokens window.Tokens `json:"contextTokens"`
	OutputTokens  window.Tokens `json:"outputTokens"`
	// Level is ContextTokens against the window; at LevelAutocompact or
	// above the client would have compacted before the next request.
	Level window.Level `json:"level"`
}

// StepKind tells turn steps from boundary steps.
type StepKind string

// The step kinds.
const (
	StepTurn     StepKind = "turn"
	StepBoundary StepKind = "boundary"
)

// Step is one point of a replay the user can step to: after an API
// response, or after a compaction. Context is what the model saw there,
// estimated by category; Measured is the client's own figure when there
// is one (usage for a turn, postTokens for a boundary).
type Step struct {
	Index int      `json:"index"`
	Kind  StepKind `json:"kind"`
	Line  int      `json:"line"`
	// Leaf is the record the model's view ends at.
	Leaf      string    `json:"leaf"`
	Timestamp time.Time `json:"timestamp"`
	// Turn or Boundary indexes Timeline.Turns or Timeline.Boundaries.
	Turn     int           `json:"turn"`
	Boundary int           `json:"boundary"`
	Context  Context       `json:"context"`
	Measured window.Tokens `json:"measured"`
}

// BranchInfo is a rewind point: the message and its children, in file order.
type BranchInfo struct {
	Parent   string   `json:"parent"`
	Line     int      `json:"line"`
	Children []string `json:"children"`
}

// SidechainInfo is a subagent conversation inside the transcript.
type SidechainInfo struct {
	Root    string `json:"root"`
	AgentID string `json:"agentId,omitempty"`
	Records int    `json:"records"`
}

// Thresholds are a window's levels, for display beside a timeline.
type Thresholds struct {
	Effective   window.Tokens `json:"effective"`
	Warning     window.Tokens `json:"warning"`
	Autocompact window.Tokens `json:"autocompact"`
	Blocked     window.Tokens `json:"blocked"`
}

// Timeline is a replay of one transcript: its compactions and turns in
// file order, the steps a viewer moves through, and the resume state.
type Timeline struct {
	Session    string        `json:"session"`
	Path       string        `json:"path"`
	Records    int           `json:"records"`
	Window     window.Config `json:"window"`
	Thresholds Thresholds    `json:"thresholds"`
	// Limits says where Window's figures came from (set by the caller
	// that resolved them, see Limits); nil when the window was given.
	Limits     *window.Resolved `json:"limits,omitempty"`
	Boundaries []BoundaryInfo   `json:"boundaries"`
	Turns      []Turn           `json:"turns"`
	Steps      []Step           `json:"steps"`
	Resume     Resume           `json:"resume"`
	Branches   []BranchInfo     `json:"branches"`
	Sidechains []SidechainInfo  `json:"sidechains"`

	t  *model.Transcript
	ix *Index
}

// Build replays t against window w. fileSize is the transcript's
// size on disk (for the resume's 5 MiB rule). It runs on t's Index
// (BuildReplay), as replay does on a file.
func Build(t *model.Transcript, w window.Config, fileSize int64) Timeline {
	ix := IndexTranscript(t)
	rp, _ := BuildReplay(ix, treeSource(t), w, fileSize)
	tl, _ := rp.Whole() // a tree source never fails
	tl.Resume.Messages, tl.Resume.Preserved = recordsOf(t, rp.Messages), recordsOf(t, rp.Preserved)
	tl.t, tl.ix = t, ix
	return tl
}

// treeSource reads record i from the transcript in memory.
func treeSource(t *model.Transcript) Source {
	return func(i int32) (*model.Record, error) { return t.Records[i], nil }
}

func recordsOf(t *model.Transcript, is []int32) []*model.Record {
	if is == nil {
		return nil
	}
	out := make([]*model.Record, 0, len(is))
	for _, i := range is {
		out = append(out, t.Records[i])
	}
	return out
}

func boundaryInfo(t *model.Transcript, r *model.Record) BoundaryInfo {
	return boundaryFrom(r, summaryOf(t, r), func(ps *model.PreservedSegment) error {
		_, err := preservedSegment(View{T: t, From: 1}, ps)
		return err
	})
}

// boundaryFrom is what Timeline.Boundaries says of boundary r: s is the
// compact summary row under it (nil when none is), broken says why a
// preserved segment's links do not hold (nil when they do).
func boundaryFrom(r, s *model.Record, broken func(*model.PreservedSegment) error) BoundaryInfo {
	b := BoundaryInfo{UUID: r.UUID, Kind: BoundaryCompact, Line: r.Line, Timestamp: r.Timestamp}
	if m := r.Microcompact; r.IsMicrocompactBoundary() {
		b.Kind = BoundaryMicrocompact
		if m != nil {
			b.Trigger, b.PreTokens, b.TokensSaved = m.Trigger, m.PreTokens, m.TokensSaved
		}
		return b
	}
	if c := r.Compact; c != nil {
		b.Trigger, b.PreTokens, b.PostTokens = c.Trigger, c.PreTokens, c.PostTokens
		b.DurationMs, b.CumulativeDroppedTokens = c.DurationMs, c.CumulativeDroppedTokens
		b.Preserved = c.PreservedSegment
		if c.PreservedMessages != nil {
			b.PreservedMessages = len(c.PreservedMessages.UUIDs)
		}
		if c.PreservedSegment != nil {
			if err := broken(c.PreservedSegment); err != nil {
				b.PreservedBroken = err.Error()
			}
		}
	}
	if s != nil {
		b.SummaryUUID = s.UUID
		if s.Message != nil {
			b.SummaryBytes = s.Message.ContentBytes
		}
	}
	b.Compaction, b.Direction, b.MessagesSummarized = compaction(r, s)
	return b
}

// summaryOf is the compact summary row that follows boundary r, nil when
// none does.
func summaryOf(t *model.Transcript, r *model.Record) *model.Record {
	for _, c := range t.Children(r.UUID) {
		if c.IsCompactSummary {
			return c
		}
	}
	return nil
}

// Compaction says what kind of compaction the compact boundary r is:
// partial when the client recorded a summarized count or a direction
// (only the rewind menu's partial compactions write them), else its
// trigger ("" when that is unknown); with the direction and the count of
// summarized messages (the boundary's figure, else its summary row's).
func Compaction(t *model.Transcript, r *model.Record) (CompactionKind, model.SummarizeDirection, *int) {
	return compaction(r, summaryOf(t, r))
}

// compaction is Compaction for boundary r and its summary row s (nil
// when it has none).
func compaction(r, s *model.Record) (CompactionKind, model.SummarizeDirection, *int) {
	var dir model.SummarizeDirection
	var n *int
	var trigger model.CompactTrigger
	if c := r.Compact; c != nil {
		n, trigger = c.MessagesSummarized, c.Trigger
	}
	if s != nil && s.Summarize != nil {
		dir = s.Summarize.Direction
		if n == nil {
			n = s.Summarize.MessagesSummarized
		}
	}
	switch {
	case n != nil || dir != "":
		return CompactionPartial, dir, n
	case trigger == model.TriggerAuto:
		return CompactionAuto, dir, n
	case trigger == model.TriggerManual:
		return CompactionManual, dir, n
	}
	return "", dir, n
}

// State is what the model saw at step k: the resume chain as the file
// stood then, ending at the step's leaf. It walks the chain, so it is
// computed on demand rather than stored per step.
func (tl *Timeline) State(k int) Resume {
	if k < 0 || k >= len(tl.Steps) {
		return Resume{LeafSource: LeafNone, ChainEnd: model.ChainNoLeaf}
	}
	s := tl.Steps[k]
	if tl.ix == nil {
		return ResumeTranscript(tl.t, ResumeOptions{AtLine: s.Line, Leaf: s.Leaf})
	}
	res, msgs, pres := tl.ix.resume(ResumeOptions{AtLine: s.Line, Leaf: s.Leaf})
	res.Messages, res.Preserved = recordsOf(tl.t, msgs), recordsOf(tl.t, pres)
	return res
}

// Transcript returns the transcript the timeline replays.
func (tl *Timeline) Transcript() *model.Transcript { return tl.t }
