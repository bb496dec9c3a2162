package compact

import (
	"math"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// MsgKind says what a message in the pipeline is.
type MsgKind string

// The message kinds.
const (
	MsgPrompt     MsgKind = "prompt"      // a user's request
	MsgAnswer     MsgKind = "answer"      // an assistant message
	MsgToolResult MsgKind = "tool-result" // a user message carrying tool results
	MsgAttachment MsgKind = "attachment"  // context the client attached
	MsgSummary    MsgKind = "summary"     // a compact summary
	MsgMeta       MsgKind = "meta"        // a user message the client marked isMeta
	MsgCollapsed  MsgKind = "collapsed"   // a context-collapse fold (synthetic)
)

// BlockEdit records what a pipeline stage did to a block.
type BlockEdit string

// The edits, one per stage that rewrites blocks.
const (
	EditNone     BlockEdit = ""
	EditBudgeted BlockEdit = "budgeted" // replaced by a preview; original in the side store
	EditSnipped  BlockEdit = "snipped"
	EditCleared  BlockEdit = "cleared" // microcompact
)

// Block is one content block of a pipeline message.
type Block struct {
	Type model.BlockType `json:"type"`
	// Text is the block's text when known; Bytes its size in UTF-8 bytes
	// and Chars in characters either way. Characters are UTF-16 code
	// units, as the client counts them (String.length): the token
	// estimate and the tool-result limits use Chars.
	Text   string `json:"text,omitempty"`
	Bytes  int    `json:"bytes"`
	Chars  int    `json:"chars"`
	Images int    `json:"images,omitempty"`
	// ToolUseID links tool_use and tool_result blocks; ToolName is the
	// tool's name on both.
	ToolUseID string    `json:"toolUseId,omitempty"`
	ToolName  string    `json:"toolName,omitempty"`
	IsError   bool      `json:"isError,omitempty"`
	Edit      BlockEdit `json:"edit,omitempty"`
}

// TextBlock is a block of type typ holding text, sized in bytes and
// characters.
func TextBlock(typ model.BlockType, text string) Block {
	return Block{Type: typ, Text: text, Bytes: len(text), Chars: jsstr.UTF16Len(text)}
}

// Msg is one message of the list the pipeline works on: built from a
// transcript's resume chain, or by hand.
type Msg struct {
	// UUID is the transcript record's uuid ("" or synthetic for messages
	// the pipeline made).
	UUID   string  `json:"uuid"`
	Kind   MsgKind `json:"kind"`
	Blocks []Block `json:"blocks,omitempty"`
	// Attached is the context of an attachment message, which has no blocks.
	Attached timeline.Context `json:"attached,omitempty"`
	// Line is the transcript line, 0 for synthetic messages.
	Line int `json:"line,omitempty"`
	// CollapseID names the collapse commit a MsgCollapsed stands for.
	CollapseID int `json:"collapseId,omitempty"`
	// Relinked is set when the message's record does not chain by
	// parentUuid to the previous message's (after a preserved segment was
	// relinked), so a new preserved segment cannot span the two.
	Relinked bool `json:"relinked,omitempty"`
}

// Input is what the pipeline compacts: the messages, plus what sits
// outside them (the system prompt and tools) and what is needed to write
// records the way the client does.
type Input struct {
	// System is the system prompt and tool definitions, which no stage
	// can shrink.
	System   window.Tokens `json:"system"`
	Messages []Msg         `json:"messages"`
	// Measured is the client's own count of the context when the messages
	// hold an API response: that response's usage (input, cache read,
	// cache creation and output) plus the estimate of the messages after
	// it. The pipeline starts from it and takes each stage's freed tokens
	// off it, as the client does; 0 means estimate everything.
	Measured window.Tokens `json:"measured,omitempty"`
	// Session describes the transcript the records are appended to.
	Session SessionInfo `json:"session"`
}

// SessionInfo is copied into records the pipeline writes.
type SessionInfo struct {
	SessionID, CWD, Version, GitBranch string
	// Leaf is the uuid the new records hang from; LastPrompt the user's
	// last request (written into the last-prompt record).
	Leaf       string
	LastPrompt string
	// CumulativeDroppedTokens is the newest boundary's figure, which the
	// next boundary adds to.
	CumulativeDroppedTokens int
}

func msgTokens(ms []Msg) window.Tokens {
	var t window.Tokens
	for _, m := range ms {
		t += m.Tokens()
	}
	return t
}

// InputFromResume turns the resume chain of t into pipeline input. The
// system prompt and tools become the fixed System figure (SystemTokens at
// the end of the file); records the model never sees (boundaries,
// metadata, prompt snapshots) are left out. For summaries with text, read
// the transcript with ScanOptions.KeepText.
func InputFromResume(t *model.Transcript, res timeline.Resume) Input {
	return inputFrom(timeline.SystemTokens(t, math.MaxInt), res)
}

// InputFromIndex is InputFromResume on an indexed transcript, resumed
// with opts: only the resume chain's records are read again, through
// read (decoding with ScanOptions.KeepText for summaries with text), so
// the memory is the index's and the chain's, not the transcript's.
func InputFromIndex(ix *timeline.Index, opts timeline.ResumeOptions, read timeline.Source) (Input, error) {
	res, err := ix.Resume(opts, read)
	if err != nil {
		return Input{}, err
	}
	return inputFrom(ix.SystemTokens(math.MaxInt), res), nil
}

// inputFrom is InputFromResume with the system figure given.
func inputFrom(system window.Tokens, res timeline.Resume) Input {
	in := Input{System: system}
	toolNames := map[string]string{}
	broken := false // a parent link broke since the previous message
	// The newest response with usage, and which messages are its records.
	var usage *model.Usage
	var respKey string
	var ofResp []bool
	for k, r := range res.Messages {
		if k > 0 && r.ParentUUID != res.Messages[k-1].UUID {
			broken = true
		}
		if r.SessionID != "" {
			in.Session.SessionID, in.Session.CWD = r.SessionID, r.CWD
			in.Session.Version, in.Session.GitBranch = r.Version, r.GitBranch
		}
		if r.IsCompactBoundary() && r.Compact != nil && r.Compact.CumulativeDroppedTokens != nil {
			in.Session.CumulativeDroppedTokens = *r.Compact.CumulativeDroppedTokens
		}
		if r.UUID != "" {
			in.Session.Leaf = r.UUID
		}
		m, ok := msgFromRecord(r, toolNames)
		if !ok {
			continue
		}
		m.Relinked = broken && len(in.Messages) > 0
		broken = false
		if m.Kind == MsgPrompt && len(m.Blocks) > 0 && m.Blocks[0].Text != "" {
			in.Session.LastPrompt = firstLine(m.Blocks[0].Text)
		}
		key := ""
		// A relinked preserved record's usage measured the context
		// before the compaction: it does not count after it.
		stale := res.FromBoundary != "" && r.Line < res.Messages[0].Line
		if r.Type == model.RecordAssistant && r.Message.Usage != nil && !stale {
			key = r.Message.ID + "\x00" + r.RequestID
			if key != respKey || key == "\x00" {
				usage, respKey = r.Message.Usage, key
				clear(ofResp) // an older response: its records no longer matter
			}
		}
		in.Messages = append(in.Messages, m)
		ofResp = append(ofResp, key != "" && key == respKey)
	}
	if usage != nil {
		in.Measured = window.Tokens(usage.ContextTokens() + usage.OutputTokens)
		after := false
		for i, m := range in.Messages {
			// What the response said is its output; what came after it
			// is estimated.
			after = after || ofResp[i]
			if after && !ofResp[i] {
				in.Measured += m.Tokens()
			}
		}
	}
	return in
}

// msgFromRecord converts one record; false for records the model does not
// see. toolNames maps tool_use ids to names so results can carry them.
func msgFromRecord(r *model.Record, toolNames map[string]string) (Msg, bool) {
	m := Msg{UUID: r.UUID, Line: r.Line}
	switch r.Type {
	case model.RecordAttachment:
		if r.AttachmentType == timeline.PromptSnapshot {
			return Msg{}, false
		}
		m.Kind = MsgAttachment
		m.Attached = timeline.RecordContext(r)
		return m, true
	case model.RecordUser, model.RecordAssistant:
	default:
		return Msg{}, false
	}
	if r.Message == nil {
		return Msg{}, false
	}
	switch {
	case r.IsCompactSummary:
		m.Kind = MsgSummary
		// 2.1.331's earlier messages go to the model after the summary.
		if n := r.EarlierChars(); n > 0 {
			m.Attached.Conversation += window.EstimateTokens(n)
		}
	case r.Type == model.RecordAssistant:
		m.Kind = MsgAnswer
	case r.IsMeta:
		m.Kind = MsgMeta
	default:
		m.Kind = MsgPrompt
	}
	if r.Message.Content == nil && r.Message.ContentBytes > 0 {
		m.Blocks = []Block{{Type: model.BlockText, Bytes: r.Message.ContentBytes, Chars: r.Message.ContentChars}}
	}
	for _, cb := range r.Message.Content {
		b := Block{Type: cb.Type, Text: cb.Text, Bytes: cb.Bytes, Chars: cb.Chars, Images: cb.Images, ToolUseID: cb.ID, ToolName: cb.Name, IsError: cb.IsError}
		switch cb.Type {
		case model.BlockToolUse:
			toolNames[cb.ID] = cb.Name
		case model.BlockToolResult:
			b.ToolUseID, b.ToolName = cb.ToolUseID, toolNames[cb.ToolUseID]
			if m.Kind == MsgPrompt {
				m.Kind = MsgToolResult
			}
		}
		m.Blocks = append(m.Blocks, b)
	}
	return m, true
}

// Tokens estimates the block's tokens from its characters and images.
func (b Block) Tokens() window.Tokens {
	return window.EstimateTokens(b.Chars) + window.Tokens(b.Images)*window.ImageTokens
}

// Context returns the message's tokens by category.
func (m Msg) Context() timeline.Context {
	c := m.Attached
	for _, b := range m.Blocks {
		if b.Type == model.BlockToolResult {
			c.ToolResults += b.Tokens()
		} else {
			c.Conversation += b.Tokens()
		}
	}
	return c
}

// Tokens is the message's estimated size.
func (m Msg) Tokens() window.Tokens { return m.Context().Total() }

// Synthetic reports whether the pipeline made the message (it has no
// record in the transcript).
func (m Msg) Synthetic() bool { return m.Line == 0 }

// Tokens estimates the whole context: system plus messages.
func (in Input) Tokens() window.Tokens { return in.System + msgTokens(in.Messages) }
