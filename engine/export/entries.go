package export

import (
	"bytes"
	"encoding/json"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// exportBuilder turns the records of one transcript into entries. Tool
// results are folded into the call that asked for them, so it indexes
// both first.
type exportBuilder struct {
	t  *model.Transcript
	pm *pasteMatcher
	// results are the tool_result blocks by tool_use id (first wins);
	// calls the tool_use ids present in the transcript.
	results map[string]*ToolResult
	calls   map[string]bool
	// boundaryNo numbers boundaries in file order; preserved marks the
	// messages a partial compaction kept.
	boundaryNo map[*model.Record]int
	preserved  map[string]int
	inBranch   map[*model.Record]bool
	// responses are the API responses whose usage an entry already shows:
	// the client writes one response over several lines.
	responses map[string]bool
}

func newExportBuilder(t *model.Transcript, pm *pasteMatcher) *exportBuilder {
	b := &exportBuilder{t: t, pm: pm, results: map[string]*ToolResult{}, calls: map[string]bool{},
		boundaryNo: map[*model.Record]int{}, preserved: map[string]int{}, inBranch: map[*model.Record]bool{}, responses: map[string]bool{}}
	for _, r := range t.Records {
		if r.IsCompactBoundary() || r.IsMicrocompactBoundary() {
			b.boundaryNo[r] = len(b.boundaryNo) + 1
			if c := r.Compact; c != nil {
				for _, u := range preservedUUIDs(c) {
					b.preserved[u] = b.boundaryNo[r]
				}
			}
		}
		if r.Message == nil {
			continue
		}
		for _, blk := range r.Message.Content {
			switch {
			case blk.Type == model.BlockToolUse && blk.ID != "":
				b.calls[blk.ID] = true
			case blk.Type == model.BlockToolResult && blk.ToolUseID != "" && b.results[blk.ToolUseID] == nil:
				b.results[blk.ToolUseID] = toolResult(r, blk)
			}
		}
	}
	return b
}

// preservedUUIDs lists what a partial compaction kept: the preserved
// messages, else the segment's head and tail.
func preservedUUIDs(c *model.CompactMetadata) []string {
	if pm := c.PreservedMessages; pm != nil && len(pm.UUIDs) > 0 {
		return pm.UUIDs
	}
	if ps := c.PreservedSegment; ps != nil {
		var out []string
		for _, u := range []string{ps.HeadUUID, ps.TailUUID} {
			if u != "" && !containsString(out, u) {
				out = append(out, u)
			}
		}
		return out
	}
	return nil
}

func toolResult(r *model.Record, blk model.ContentBlock) *ToolResult {
	return &ToolResult{ToolUseID: blk.ToolUseID, UUID: r.UUID, Line: r.Line, Timestamp: r.Timestamp,
		Text: blk.Text, Bytes: blk.Bytes, IsError: blk.IsError, Images: blk.Images}
}

func allResults(bs []Block) bool {
	for _, b := range bs {
		if b.Kind != BlockKindToolResult {
			return false
		}
	}
	return true
}

func otherBlock(blk model.ContentBlock) Block {
	switch blk.Type {
	case model.BlockImage:
		return Block{Kind: BlockKindImage, Images: 1}
	case model.BlockThinking:
		return Block{Kind: BlockKindThinking, Text: blk.Text}
	case model.BlockText:
		return Block{Kind: BlockKindText, Text: blk.Text}
	}
	return Block{Kind: BlockKindOther, Text: string(blk.Type)}
}

// toolInputs returns the "input" of each element of message.content in a
// raw transcript line, by position (nil where there is none). The model
// keeps block sizes, not inputs, so they are read from the line itself.
func toolInputs(raw []byte) []json.RawMessage {
	var line struct {
		Message struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(raw, &line) != nil {
		return []json.RawMessage{}
	}
	var elems []json.RawMessage
	if json.Unmarshal(line.Message.Content, &elems) != nil {
		return []json.RawMessage{}
	}
	out := make([]json.RawMessage, len(elems))
	for i, el := range elems {
		var blk struct {
			Input json.RawMessage `json:"input"`
		}
		if json.Unmarshal(el, &blk) == nil {
			out[i] = blk.Input
		}
	}
	return out
}

// indentJSON is raw indented for reading; raw itself when it cannot be.
func indentJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") != nil {
		return string(raw)
	}
	return buf.String()
}

func (b *exportBuilder) entries(rs []*model.Record) []Entry {
	out := make([]Entry, 0, len(rs))
	for _, r := range rs {
		if e, ok := b.entry(r); ok {
			out = append(out, e)
		}
	}
	return out
}

// entry exports one record. A user record that only carried results of
// calls already shown with their call is left out.
func (b *exportBuilder) entry(r *model.Record) (Entry, bool) {
	e := Entry{UUID: r.UUID, ParentUUID: r.ParentUUID, Line: r.Line, Timestamp: r.Timestamp, PreservedBy: b.preserved[r.UUID]}
	switch {
	case r.IsCompactBoundary() || r.IsMicrocompactBoundary():
		e.Kind, e.Text = EntryBoundary, r.Content
		e.Boundary = b.boundary(r)
	case r.Type == model.RecordUser:
		e.Kind = EntryUser
		switch {
		case r.IsCompactSummary:
			e.Kind = EntryCompactSummary
		case r.IsMeta:
			e.Kind = EntryMeta
		}
		var folded bool
		e.Blocks, folded = b.userBlocks(r)
		if len(e.Blocks) == 0 && folded {
			return e, false
		}
		if e.Kind == EntryUser && len(e.Blocks) > 0 && allResults(e.Blocks) {
			e.Kind = EntryToolResults
		}
	case r.Type == model.RecordAssistant:
		e.Kind = EntryAssistant
		if m := r.Message; m != nil {
			e.Model, e.Usage = m.Model, m.Usage
			if key := m.ID + "\x00" + r.RequestID; m.ID != "" || r.RequestID != "" {
				if b.responses[key] {
					e.Usage = nil
				}
				b.responses[key] = true
			}
		}
		e.Blocks = b.assistantBlocks(r)
	case r.Type == model.RecordAttachment:
		e.Kind = EntryAttachment
		e.Attachment = &Attachment{Type: r.AttachmentType, Bytes: r.AttachmentBytes}
		for _, f := range r.AttachmentFiles {
			e.Attachment.Files = append(e.Attachment.Files, f.Path)
		}
	case r.Type == model.RecordSystem:
		e.Kind, e.Subtype, e.Text = EntrySystem, r.Subtype, r.Content
	default:
		e.Kind, e.Subtype = EntrySystem, string(r.Type)
	}
	return e, true
}

func (b *exportBuilder) boundary(r *model.Record) *Boundary {
	eb := &Boundary{Number: b.boundaryNo[r], Kind: timeline.BoundaryCompact, LogicalParent: r.LogicalParentUUID}
	if c := r.Compact; c != nil {
		eb.Trigger, eb.PreTokens, eb.PostTokens = c.Trigger, c.PreTokens, c.PostTokens
		eb.DurationMs, eb.CumulativeDroppedTokens = c.DurationMs, c.CumulativeDroppedTokens
		eb.Preserved = preservedUUIDs(c)
		eb.Compaction, eb.Direction, eb.MessagesSummarized = timeline.Compaction(b.t, r)
	}
	if r.IsMicrocompactBoundary() {
		eb.Kind = timeline.BoundaryMicrocompact
		if m := r.Microcompact; m != nil {
			eb.Trigger, eb.PreTokens, eb.TokensSaved = m.Trigger, m.PreTokens, m.TokensSaved
		}
	}
	return eb
}

// userBlocks exports a user message's content with pastes marked. folded
// says some tool results were left out because their call shows them.
func (b *exportBuilder) userBlocks(r *model.Record) (out []Block, folded bool) {
	if r.Message == nil {
		return nil, false
	}
	for _, blk := range r.Message.Content {
		switch blk.Type {
		case model.BlockText:
			if r.IsCompactSummary {
				out = append(out, Block{Kind: BlockKindText, Text: blk.Text})
				continue
			}
			out = append(out, b.pm.split(blk.Text)...)
		case model.BlockToolResult:
			if b.calls[blk.ToolUseID] {
				folded = true
				continue
			}
			out = append(out, Block{Kind: BlockKindToolResult, Result: toolResult(r, blk)})
		default:
			out = append(out, otherBlock(blk))
		}
	}
	return out, folded
}

func (b *exportBuilder) assistantBlocks(r *model.Record) []Block {
	if r.Message == nil {
		return nil
	}
	var inputs []json.RawMessage
	out := make([]Block, 0, len(r.Message.Content))
	for i, blk := range r.Message.Content {
		switch blk.Type {
		case model.BlockText:
			out = append(out, Block{Kind: BlockKindText, Text: blk.Text})
		case model.BlockThinking:
			out = append(out, Block{Kind: BlockKindThinking, Text: blk.Text})
		case model.BlockToolUse:
			if inputs == nil {
				inputs = toolInputs(r.Raw)
			}
			var in json.RawMessage
			if i < len(inputs) {
				in = inputs[i]
			}
			call := &ToolCall{ID: blk.ID, Name: blk.Name, InputBytes: blk.Bytes,
				Summary: ToolSummary(blk.Name, in), Input: indentJSON(in), Result: b.results[blk.ID]}
			out = append(out, Block{Kind: BlockKindToolCall, Tool: call})
		default:
			out = append(out, otherBlock(blk))
		}
	}
	return out
}
