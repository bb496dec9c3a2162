package export

import (
	"bytes"
	"encoding/json"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// exportBuilder turns the records of one transcript into entries. Tool
// results are folded into the call that asked for them, so a first pass
// over the file notes both (note), and the entries are made in a second
// (entry), one record at a time.
type exportBuilder struct {
	pm *pasteMatcher
	// calls are the tool_use ids present in the transcript, by
	// model.KeyHash; result finds the first tool_result block of a
	// tool_use id (nil when there is none), keeping its first error in err.
	calls  map[[16]byte]struct{}
	result func(id string) (*ToolResult, error)
	err    error
	// boundaryNo numbers boundaries in file order, by line; preserved
	// marks the messages a partial compaction kept; compaction is
	// timeline.Compaction of a boundary.
	boundaryNo map[int]int
	preserved  map[string]int
	compaction func(r *model.Record) (timeline.CompactionKind, model.SummarizeDirection, *int)
	// responses are the API responses whose usage an entry already shows
	// (model.KeyHash of message.id and requestId): the client writes one
	// response over several lines.
	responses map[[16]byte]struct{}
}

func newExportBuilder(pm *pasteMatcher) *exportBuilder {
	return &exportBuilder{pm: pm, calls: map[[16]byte]struct{}{}, boundaryNo: map[int]int{}, preserved: map[string]int{},
		responses: map[[16]byte]struct{}{}}
}

// note reads what entries need to know of the whole transcript from
// record r (one of its kept records, in file order): its boundary and
// the tool calls it makes. It reports the tool_use ids of its
// tool_result blocks, for the caller to keep where the first of each is.
func (b *exportBuilder) note(r *model.Record, result func(toolUseID string)) {
	if r.IsCompactBoundary() || r.IsMicrocompactBoundary() {
		b.boundaryNo[r.Line] = len(b.boundaryNo) + 1
		if c := r.Compact; c != nil {
			for _, u := range preservedUUIDs(c) {
				b.preserved[u] = b.boundaryNo[r.Line]
			}
		}
	}
	if r.Message == nil {
		return
	}
	for _, blk := range r.Message.Content {
		switch {
		case blk.Type == model.BlockToolUse && blk.ID != "":
			b.calls[model.KeyHash([]byte(blk.ID))] = struct{}{}
		case blk.Type == model.BlockToolResult && blk.ToolUseID != "":
			result(blk.ToolUseID)
		}
	}
}

// isCall reports whether the transcript has a tool_use with id.
func (b *exportBuilder) isCall(id string) bool {
	_, ok := b.calls[model.KeyHash([]byte(id))]
	return ok
}

// resultOf is the first tool_result of call id, nil when there is none
// or it cannot be read (b.err says why).
func (b *exportBuilder) resultOf(id string) *ToolResult {
	res, err := b.result(id)
	if err != nil && b.err == nil {
		b.err = err
	}
	return res
}

// toolResultIn is the first tool_result block of record r for call id.
func toolResultIn(r *model.Record, id string) *ToolResult {
	if r.Message == nil {
		return nil
	}
	for _, blk := range r.Message.Content {
		if blk.Type == model.BlockToolResult && blk.ToolUseID == id {
			return toolResult(r, blk)
		}
	}
	return nil
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
			if key, ok := timeline.TurnKey(r); ok {
				h := model.KeyHash([]byte(key))
				if _, shown := b.responses[h]; shown {
					e.Usage = nil
				}
				b.responses[h] = struct{}{}
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
	eb := &Boundary{Number: b.boundaryNo[r.Line], Kind: timeline.BoundaryCompact, LogicalParent: r.LogicalParentUUID}
	if c := r.Compact; c != nil {
		eb.Trigger, eb.PreTokens, eb.PostTokens = c.Trigger, c.PreTokens, c.PostTokens
		eb.DurationMs, eb.CumulativeDroppedTokens = c.DurationMs, c.CumulativeDroppedTokens
		eb.Preserved = preservedUUIDs(c)
		eb.Compaction, eb.Direction, eb.MessagesSummarized = b.compaction(r)
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
			if b.isCall(blk.ToolUseID) {
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
				Summary: ToolSummary(blk.Name, in), Input: indentJSON(in), Result: b.resultOf(blk.ID)}
			out = append(out, Block{Kind: BlockKindToolCall, Tool: call})
		default:
			out = append(out, otherBlock(blk))
		}
	}
	return out
}
