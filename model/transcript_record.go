package model

import (
	"encoding/json"
	"time"
)

// RecordType is the "type" field of a transcript line. Unknown types are
// kept as they are.
type RecordType string

// The record types memscope interprets. Other types (api-request-blob,
// cost-state, file-history-snapshot, …) are counted and otherwise kept.
const (
	RecordUser       RecordType = "user"
	RecordAssistant  RecordType = "assistant"
	RecordSystem     RecordType = "system"
	RecordAttachment RecordType = "attachment"
	RecordLastPrompt RecordType = "last-prompt"
	RecordSummary    RecordType = "summary"
)

// The system subtypes that mark a compaction.
const (
	SubtypeCompactBoundary      = "compact_boundary"
	SubtypeMicrocompactBoundary = "microcompact_boundary"
)

// CompactTrigger says what started a compaction: "auto" or "manual".
type CompactTrigger string

// The triggers the client writes.
const (
	TriggerAuto   CompactTrigger = "auto"
	TriggerManual CompactTrigger = "manual"
)

// Record is one transcript line, decoded only as far as memscope needs.
// Chain records (user, assistant, system, attachment) carry UUID and
// ParentUUID; metadata records (last-prompt, summary, mode, …) do not.
type Record struct {
	// Line is the 1-based line number; Offset the byte offset of the line.
	Line   int
	Offset int64
	// Size is the length of the line in bytes, without the newline.
	Size int

	Type    RecordType
	Subtype string

	UUID              string
	ParentUUID        string // "" when null or absent
	LogicalParentUUID string // a compact boundary's link to the old leaf
	SessionID         string
	CWD               string
	Version           string
	GitBranch         string
	AgentID           string // set on sidechain (subagent) records
	RequestID         string

	IsSidechain               bool
	IsMeta                    bool
	IsCompactSummary          bool
	IsVisibleInTranscriptOnly bool

	// RowSource is where a user row came from (2.1.331): local, harness,
	// hook or recorded; "" in older transcripts.
	RowSource RowSource
	// EarlierMessages are the messages a compact summary carries after
	// the summary (2.1.331, CLAUDE_CODE_ELEGANT_MIST): the client sends
	// them to the model after it, so they count in the resumed context.
	EarlierMessages []EarlierMessage

	// Timestamp is zero when absent or unparseable.
	Timestamp time.Time

	// Message is the decoded "message" of user and assistant records.
	Message *Message
	// Content is the top-level "content" string of system records
	// ("Conversation compacted").
	Content string
	// AttachmentType is attachment.type of attachment records; AttachmentBytes
	// the size of the attachment object as written, AttachmentChars the
	// same in characters (UTF-16 code units, see ContentBlock.Chars).
	AttachmentType  string
	AttachmentBytes int
	AttachmentChars int
	// AttachmentFiles lists the files an attachment carries: the
	// "instructions" attachment holds every CLAUDE.md, rules file and
	// MEMORY.md loaded at session start; single-file attachments (a nested
	// memory) have one.
	AttachmentFiles []AttachmentFile

	// Compact is compactMetadata of a compact_boundary record.
	Compact *CompactMetadata
	// Summarize is summarizeMetadata of the summary row a partial
	// compaction from the rewind menu writes after its boundary.
	Summarize *SummarizeMetadata
	// Microcompact is microcompactMetadata of a microcompact_boundary record.
	Microcompact *MicrocompactMetadata

	// LeafUUID, LastPrompt and Summary belong to last-prompt and legacy
	// summary records.
	LeafUUID   string
	LastPrompt string
	Summary    string

	// Raw is a copy of the line, only when ScanOptions.KeepRaw is set.
	Raw []byte
}

// RowSource says where a user row came from.
type RowSource string

// The row sources 2.1.331 writes.
const (
	RowLocal    RowSource = "local"
	RowHarness  RowSource = "harness"
	RowHook     RowSource = "hook"
	RowRecorded RowSource = "recorded"
)

// EarlierMessage is one message a compact summary keeps after the
// summary text: kind user, reply or note (2.1.331), or card (2.1.332): a
// question the model asked with AskUserQuestion (Input) and its answer
// (Text).
type EarlierMessage struct {
	Kind  string          `json:"kind"`
	Text  string          `json:"text"`
	Input json.RawMessage `json:"input,omitempty"`
}

// The earlierMessages kinds the client sends; entries of other kinds, and
// entries with empty text, are dropped.
const (
	EarlierUser  = "user"
	EarlierReply = "reply"
	EarlierNote  = "note"
	EarlierCard  = "card"
)

// noResponseRequested follows a card that no reply or card follows.
const noResponseRequested = "No response requested."

// Sent reports whether the client sends the entry on resume.
func (m EarlierMessage) Sent() bool {
	switch m.Kind {
	case EarlierUser, EarlierReply, EarlierNote, EarlierCard:
		return m.Text != ""
	}
	return false
}

// EarlierChars is the length of the earlier messages the client sends, in
// UTF-16 code units, as the context counts characters: each sent entry's
// text; a card adds its AskUserQuestion tool_use (name and input, as
// JSON) and, when no reply or card follows it, the "No response
// requested." line.
func (r *Record) EarlierChars() int {
	n := 0
	for i, m := range r.EarlierMessages {
		if !m.Sent() {
			continue
		}
		n += utf16Units([]byte(m.Text))
		if m.Kind != EarlierCard {
			continue
		}
		n += len(`{"type":"tool_use","name":"AskUserQuestion","input":}`) + utf16Units(m.Input)
		answered := false
		for _, next := range r.EarlierMessages[i+1:] {
			if next.Sent() {
				answered = next.Kind == EarlierReply || next.Kind == EarlierCard
				break
			}
		}
		if !answered {
			n += len(noResponseRequested)
		}
	}
	return n
}

// IsChain reports whether the record takes part in the message tree.
func (r *Record) IsChain() bool { return r.UUID != "" }

// IsCompactBoundary reports whether r is a compact_boundary record.
func (r *Record) IsCompactBoundary() bool {
	return isBoundary(r.Type, r.Subtype, SubtypeCompactBoundary)
}

// IsMicrocompactBoundary reports whether r is a microcompact_boundary record.
func (r *Record) IsMicrocompactBoundary() bool {
	return isBoundary(r.Type, r.Subtype, SubtypeMicrocompactBoundary)
}

// isBoundary reports whether a record of type typ and subtype sub is a
// system record of the given subtype.
func isBoundary(typ RecordType, sub, subtype string) bool {
	return typ == RecordSystem && sub == subtype
}

// Message is the API message inside a user or assistant record.
type Message struct {
	Role  string
	ID    string // message.id; the same response can span several lines
	Model string
	Usage *Usage
	// CacheWrite1h is the part of Usage.CacheCreationInputTokens written
	// to the 1-hour cache (usage.cache_creation.ephemeral_1h_input_tokens),
	// and Fast says usage.speed was "fast": both change the price
	// (engine/pricing.ResponseOf).
	CacheWrite1h int64
	Fast         bool
	// Content is the decoded content blocks; a plain string content is one
	// text block. Nil unless ScanOptions.Content is set.
	Content []ContentBlock
	// ContentBytes is the decoded size of all content, counted whether or
	// not the blocks themselves were kept; ContentChars the same in
	// characters (see ContentBlock.Chars).
	ContentBytes int
	ContentChars int
}

// BlockType is the "type" of a content block: text, tool_use,
// tool_result, image, thinking, …
type BlockType string

// The block types memscope interprets.
const (
	BlockText       BlockType = "text"
	BlockToolUse    BlockType = "tool_use"
	BlockToolResult BlockType = "tool_result"
	BlockImage      BlockType = "image"
	BlockThinking   BlockType = "thinking"
)

// ContentBlock is one block of a message's content.
type ContentBlock struct {
	Type BlockType
	// Bytes is the decoded size of the block's text (text, thinking,
	// tool_result content, tool_use input as written). Escapes count as one
	// byte each; it is exact for ASCII.
	Bytes int
	// Chars is the same text's length in characters as the client counts
	// them: UTF-16 code units, JavaScript's String.length (an emoji is 2,
	// a CJK character 1, an invalid UTF-8 byte 1 as the U+FFFD it is read
	// as). The client's character limits and token estimates use it.
	Chars int
	// Text is the block's text, only when ScanOptions.KeepText is set.
	Text string
	// ID and Name identify a tool_use block.
	ID, Name string
	// ToolUseID links a tool_result to its tool_use.
	ToolUseID string
	IsError   bool
	// Images counts images inside a tool_result (or 1 for an image block).
	Images int
	// Input is a tool_use block's input as written (JSON), only when
	// ScanOptions.KeepText is set.
	Input string
}

// Usage is the token usage of one API response.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
}

// ContextTokens is what the request put in the context window: input plus
// cache reads plus cache writes.
func (u Usage) ContextTokens() int64 {
	return u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens
}

// Add returns the field-wise sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:              u.InputTokens + v.InputTokens,
		OutputTokens:             u.OutputTokens + v.OutputTokens,
		CacheCreationInputTokens: u.CacheCreationInputTokens + v.CacheCreationInputTokens,
		CacheReadInputTokens:     u.CacheReadInputTokens + v.CacheReadInputTokens,
	}
}

// CompactMetadata is compactMetadata of a compact_boundary record. Pointer
// fields are nil when the client did not write them.
type CompactMetadata struct {
	Trigger                 CompactTrigger     `json:"trigger"`
	PreTokens               *int               `json:"preTokens,omitempty"`
	PostTokens              *int               `json:"postTokens,omitempty"`
	DurationMs              *int               `json:"durationMs,omitempty"`
	CumulativeDroppedTokens *int               `json:"cumulativeDroppedTokens,omitempty"`
	PreservedSegment        *PreservedSegment  `json:"preservedSegment,omitempty"`
	PreservedMessages       *PreservedMessages `json:"preservedMessages,omitempty"`
	// MessagesSummarized counts the messages a partial compaction from the
	// rewind menu summarized ("Summarize from here" / "up to here").
	MessagesSummarized *int `json:"messagesSummarized,omitempty"`
}

// SummarizeDirection says which side of the chosen message a partial
// compaction from the rewind menu summarized.
type SummarizeDirection string

// The directions the client writes: "from" summarizes the chosen message
// and everything after it (the earlier messages stay as they were),
// "up_to" everything before it (the later messages stay).
const (
	SummarizeFrom SummarizeDirection = "from"
	SummarizeUpTo SummarizeDirection = "up_to"
)

// SummarizeMetadata is summarizeMetadata of a partial compaction's summary
// row. MessagesSummarized is nil when the client did not write it.
type SummarizeMetadata struct {
	MessagesSummarized *int               `json:"messagesSummarized,omitempty"`
	Direction          SummarizeDirection `json:"direction,omitempty"`
}

// PreservedSegment names the messages a partial compaction kept: the chain
// from TailUUID back to HeadUUID is relinked after AnchorUUID (the summary)
// on resume.
type PreservedSegment struct {
	HeadUUID   string `json:"headUuid"`
	AnchorUUID string `json:"anchorUuid"`
	TailUUID   string `json:"tailUuid"`
}

// PreservedMessages lists the uuids a partial compaction kept.
type PreservedMessages struct {
	AnchorUUID string   `json:"anchorUuid"`
	UUIDs      []string `json:"uuids"`
	AllUUIDs   []string `json:"allUuids"`
}

// MicrocompactMetadata is microcompactMetadata of a microcompact_boundary
// record. Fields are nil or empty when absent.
type MicrocompactMetadata struct {
	Trigger          CompactTrigger `json:"trigger"`
	PreTokens        *int           `json:"preTokens,omitempty"`
	TokensSaved      *int           `json:"tokensSaved,omitempty"`
	CompactedToolIDs []string       `json:"compactedToolIds,omitempty"`
}

// AttachmentFile is one file inside an attachment record.
type AttachmentFile struct {
	Path string
	// ReplacesPath is set on a nested_memory read inside a git worktree
	// whose main-checkout copy was already loaded (2.1.332): the file it
	// replaces for the session.
	ReplacesPath string
	// Type is the client's label for whose file it is: User, Project,
	// Local, Managed, AutoMem, TeamMem, …
	Type string
	// Bytes is the decoded size of the file's content as sent; Chars the
	// same in characters (see ContentBlock.Chars).
	Bytes int
	Chars int
	// Globs are the paths: globs of a path-scoped rule that joined
	// mid-session (a nested_memory attachment's content.globs).
	Globs []string
	// Text is the content as sent, kept only for memory files (IsMemory)
	// and only with ScanOptions.MemoryText.
	Text string
}

// The attachment types that record what instructions were loaded: the
// session start's list, and a rule or CLAUDE.md joining mid-session.
const (
	AttachmentInstructions = "instructions"
	AttachmentNestedMemory = "nested_memory"
)

// The AttachmentFile types that hold auto memory rather than instructions.
const (
	AttachmentAutoMem = "AutoMem"
	AttachmentTeamMem = "TeamMem"
)

// IsMemory reports whether the file is auto or team memory.
func (f AttachmentFile) IsMemory() bool {
	return f.Type == AttachmentAutoMem || f.Type == AttachmentTeamMem
}

// IsWriteTool reports whether a tool call named name writes a file by
// its input.file_path: Write, Edit and MultiEdit (what the gate judges
// and live and provenance follow; Bash commands are not).
func IsWriteTool(name string) bool { return name == "Write" || name == "Edit" || name == "MultiEdit" }
