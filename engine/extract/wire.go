package extract

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/model"
)

// PromptSkip says why a user record is not read as something the user said.
type PromptSkip string

// The reasons a user record is left out of extraction.
const (
	// SkipSidechain: a subagent's turn; the "user" there is the main agent.
	SkipSidechain PromptSkip = "sidechain"
	// SkipMeta: a message the client marked isMeta (caveats, injected text).
	SkipMeta PromptSkip = "meta"
	// SkipCompactSummary: the summary a compaction wrote.
	SkipCompactSummary PromptSkip = "compact summary"
	// SkipTranscriptOnly: shown in the transcript only, never sent.
	SkipTranscriptOnly PromptSkip = "transcript only"
	// SkipToolResult: a user message carrying tool results.
	SkipToolResult PromptSkip = "tool result"
	// SkipNoText: no text block (an image only, or empty).
	SkipNoText PromptSkip = "no text"
	// SkipTextNotKept: the transcript was read without
	// ScanOptions.KeepText, so the text is not there to read.
	SkipTextNotKept PromptSkip = "text not kept"
	// SkipNotTyped: a row 2.1.331 marks as not typed by the user
	// (rowSource hook or harness: hook output, text the client injected).
	SkipNotTyped PromptSkip = "hook or harness row"
	// SkipRepeatedUUID: a second line with a uuid already read.
	SkipRepeatedUUID PromptSkip = "repeated uuid"
)

// TranscriptPrompts are a transcript's user prompts ready for an
// Extractor, and how many user records were left out and why.
type TranscriptPrompts struct {
	Inputs  []Input            `json:"inputs"`
	Skipped map[PromptSkip]int `json:"skipped"`
}

// promptSkip says why r, a user record, is not a prompt the user typed, or
// "" when it is one.
func promptSkip(r *model.Record) PromptSkip {
	switch {
	case r.IsSidechain:
		return SkipSidechain
	case r.IsCompactSummary:
		return SkipCompactSummary
	case r.IsMeta:
		return SkipMeta
	case r.IsVisibleInTranscriptOnly:
		return SkipTranscriptOnly
	case r.RowSource == model.RowHook || r.RowSource == model.RowHarness:
		return SkipNotTyped
	}
	return ""
}

// blocksText joins the text blocks of a prompt. It reports SkipToolResult
// when a block is a tool result (the client sends results in user
// messages), SkipTextNotKept when text blocks have a size but no text.
func blocksText[B any](blocks []B, get func(B) (model.BlockType, string, int)) (string, PromptSkip) {
	var parts []string
	missing := false
	for _, b := range blocks {
		typ, text, size := get(b)
		switch typ {
		case model.BlockToolResult:
			return "", SkipToolResult
		case model.BlockText:
			if text == "" && size > 0 {
				missing = true
			}
			if strings.TrimSpace(text) != "" {
				parts = append(parts, text)
			}
		}
	}
	switch {
	case len(parts) > 0:
		return strings.Join(parts, "\n\n"), ""
	case missing:
		return "", SkipTextNotKept
	}
	return "", SkipNoText
}

// PromptText is what the user typed in r, a user record, or why r is not
// a prompt of theirs: the one rule of what a real prompt is (extraction
// reads these; provenance walks back to the nearest one). Read r with
// ScanOptions{Content: true, KeepText: true}; without its text a prompt
// is SkipTextNotKept.
func PromptText(r *model.Record) (string, PromptSkip) {
	if r.Type != model.RecordUser || r.Message == nil {
		return "", SkipNoText
	}
	if skip := promptSkip(r); skip != "" {
		return "", skip
	}
	text, skip := blocksText(r.Message.Content, contentBlock)
	if skip == SkipNoText && r.Message.Content == nil && r.Message.ContentBytes > 0 {
		skip = SkipTextNotKept
	}
	return text, skip
}

func contentBlock(b model.ContentBlock) (model.BlockType, string, int) {
	return b.Type, b.Text, b.Bytes
}

func msgBlock(b compact.Block) (model.BlockType, string, int) { return b.Type, b.Text, b.Bytes }

// PromptsFromTranscript returns the user prompts of t in file order: user
// records that are not sidechain turns, compact summaries, meta or
// transcript-only messages, or tool results, each uuid once. Prompts on
// every branch count, rewound ones included: the user said them. Read t
// with ScanOptions{Content: true, KeepText: true}; without text every
// prompt is skipped as SkipTextNotKept. loc is the user's time zone, in
// which relative dates ("by Friday") are resolved; nil means UTC.
func PromptsFromTranscript(t *model.Transcript, loc *time.Location) TranscriptPrompts {
	if loc == nil {
		loc = time.UTC
	}
	p := TranscriptPrompts{Inputs: []Input{}, Skipped: map[PromptSkip]int{}}
	for _, r := range t.Records {
		if r.Type != model.RecordUser || r.Message == nil {
			continue
		}
		if r.UUID != "" && t.Get(r.UUID) != r {
			p.Skipped[SkipRepeatedUUID]++
			continue
		}
		text, skip := PromptText(r)
		if skip != "" {
			p.Skipped[skip]++
			continue
		}
		session := r.SessionID
		if session == "" {
			session = t.Summary.SessionID
		}
		p.Inputs = append(p.Inputs, Input{SessionID: session, UUID: r.UUID, Timestamp: inZone(r.Timestamp, loc), Text: text})
	}
	return p
}

// inZone is ts in loc, or zero.
func inZone(ts time.Time, loc *time.Location) time.Time {
	if ts.IsZero() {
		return ts
	}
	return ts.In(loc)
}

// FromTranscript runs ex (RuleExtractor when nil) over the user
// prompts of t (see PromptsFromTranscript), deduplicating against
// existing. It fails only when ctx is done or the extractor fails.
func FromTranscript(ctx context.Context, t *model.Transcript, existing []ExistingMemory, ex Extractor, loc *time.Location) (Result, TranscriptPrompts, error) {
	if ex == nil {
		ex = RuleExtractor{}
	}
	p := PromptsFromTranscript(t, loc)
	res, err := ex.Extract(ctx, p.Inputs, existing)
	if err != nil {
		return res, p, fmt.Errorf("extract from %s: %w", t.Path, err)
	}
	return res, p, nil
}

// ExistingFromMemoryDir lists the memories of md for deduplication: every
// topic file, invalid ones included (their body still says what is
// known). A file without a name is known by its file name.
func ExistingFromMemoryDir(md *model.MemoryDir) []ExistingMemory {
	if md == nil {
		return nil
	}
	out := make([]ExistingMemory, 0, len(md.Files))
	for _, f := range md.Files {
		name := f.Name
		if name == "" {
			name = strings.TrimSuffix(path.Base(f.Path), ".md")
		}
		out = append(out, ExistingMemory{Name: name, Description: f.Description, Body: f.Body, Type: CandidateType(f.Type)})
	}
	return out
}

// ExistingFromCandidates turns accepted candidates into existing
// memories, so a later run does not propose them again.
func ExistingFromCandidates(cs []Candidate) []ExistingMemory {
	out := make([]ExistingMemory, 0, len(cs))
	for _, c := range cs {
		out = append(out, ExistingMemory{Name: c.Name, Description: c.Description, Body: c.Body, Type: c.Type})
	}
	return out
}

// MemoryType is the memory file type a candidate of this type is saved as.
func (t CandidateType) MemoryType() model.MemoryType {
	return model.ParseMemoryType(string(t))
}
