package export

import (
	"fmt"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// Format is the file format of an export.
type Format string

// The export formats.
const (
	// Markdown is CommonMark with GFM tables and <details> blocks.
	Markdown Format = "md"
	// HTML is one self-contained HTML file: inline CSS, no scripts,
	// nothing loaded from the network.
	HTML Format = "html"
	// JSON is the SessionExport (or MemoryExport) structure itself.
	JSON Format = "json"
)

// ParseFormat reads a --format value.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(strings.TrimSpace(s))); f {
	case Markdown, HTML, JSON:
		return f, nil
	case "markdown":
		return Markdown, nil
	}
	return "", fmt.Errorf("unknown export format %q (want md, html or json)", s)
}

// SessionExportSchema names the JSON structure of a session export; it
// changes only when a field changes meaning or goes away.
const SessionExportSchema = "memscope.session-export/v1"

// SessionExport is a readable transcript of one session, independent of
// the output format: the conversation along the main chain in order, with
// compactions, pastes, tool calls and sidechains made explicit. It is what
// `memscope export --format json` prints.
type SessionExport struct {
	Schema    string `json:"schema"`
	SessionID string `json:"sessionId"`
	// Path is the transcript, relative to the home (or as given).
	Path string `json:"path"`
	// CWD is the session's startup folder; Version and GitBranch the
	// client version and branch of its first record.
	CWD       string `json:"cwd"`
	Version   string `json:"clientVersion,omitempty"`
	GitBranch string `json:"gitBranch,omitempty"`
	// Started and LastActivity are the earliest and latest timestamps of
	// the transcript.
	Started      time.Time `json:"started,omitzero"`
	LastActivity time.Time `json:"lastActivity,omitzero"`
	ExportedAt   time.Time `json:"exportedAt"`
	// Models are the assistant models, in order of first use, sidechains
	// included.
	Models []string `json:"models"`
	Usage  Usage    `json:"usage"`
	// Leaf is where the main chain ends and how it was chosen.
	Leaf Leaf `json:"leaf"`
	// Compactions counts compact and microcompact boundaries on the main
	// chain.
	Compactions int `json:"compactions"`
	// Conversation is the main chain, oldest first, across compactions.
	Conversation []Entry `json:"conversation"`
	// Branches are the rewind branches the main chain did not take.
	Branches []Branch `json:"branches"`
	// Sidechains are subagent conversations, inline or from subagent files.
	Sidechains []Sidechain `json:"sidechains"`
	// LegacySummaries are the {summary, leafUuid} records older clients
	// wrote.
	LegacySummaries []string `json:"legacySummaries,omitempty"`
	// Unexported counts chain records that are on no exported path (not
	// on the main chain, a branch or a sidechain).
	Unexported int             `json:"unexported"`
	Problems   []model.Problem `json:"problems"`
}

// Usage sums token usage once per API response (message.id plus
// requestId), main transcript and subagents together.
type Usage struct {
	Responses int          `json:"responses"`
	Tokens    model.Usage  `json:"tokens"`
	ByModel   []ModelUsage `json:"byModel"`
}

// ModelUsage is the usage of one model.
type ModelUsage struct {
	Model     string      `json:"model"`
	Responses int         `json:"responses"`
	Tokens    model.Usage `json:"tokens"`
}

// Leaf says which leaf the main chain was walked from.
type Leaf struct {
	UUID   string              `json:"uuid"`
	Line   int                 `json:"line,omitempty"`
	Source timeline.LeafSource `json:"source"`
	// ChainEnd says how the walk up from the leaf ended: "root" when it
	// reached the start of the session.
	ChainEnd model.ChainEnd `json:"chainEnd"`
}

// EntryKind says what an exported entry is.
type EntryKind string

// The entry kinds.
const (
	EntryUser      EntryKind = "user"
	EntryAssistant EntryKind = "assistant"
	// EntryMeta is a user record the client marks isMeta (command output,
	// caveats): not typed by the person.
	EntryMeta EntryKind = "meta"
	// EntryToolResults is a user record of tool results whose calls are
	// not in the export (otherwise each result is folded into its call).
	EntryToolResults EntryKind = "tool-results"
	// EntryCompactSummary is the summary the model sees after a compaction.
	EntryCompactSummary EntryKind = "compact-summary"
	// EntryBoundary is a compact_boundary or microcompact_boundary.
	EntryBoundary EntryKind = "boundary"
	// EntrySystem is another system record (turn_duration, …).
	EntrySystem EntryKind = "system"
	// EntryAttachment is context the client attached (CLAUDE.md files,
	// environment, skills, …), listed but not reproduced.
	EntryAttachment EntryKind = "attachment"
)

// Entry is one record of the conversation.
type Entry struct {
	Kind       EntryKind `json:"kind"`
	UUID       string    `json:"uuid,omitempty"`
	ParentUUID string    `json:"parentUuid,omitempty"`
	Line       int       `json:"line"`
	Timestamp  time.Time `json:"timestamp,omitzero"`
	// Model and Usage belong to assistant entries; Usage is on the first
	// entry of an API response only (one response can span several lines).
	Model string       `json:"model,omitempty"`
	Usage *model.Usage `json:"usage,omitempty"`
	// Subtype is a system record's subtype.
	Subtype string `json:"subtype,omitempty"`
	// Text is a system record's content.
	Text   string  `json:"text,omitempty"`
	Blocks []Block `json:"blocks,omitempty"`
	// Boundary is set on boundary entries.
	Boundary *Boundary `json:"boundary,omitempty"`
	// Attachment is set on attachment entries.
	Attachment *Attachment `json:"attachment,omitempty"`
	// PreservedBy is the number of the partial compaction that kept this
	// message (the client relinks it after that compaction's summary on
	// resume); 0 for other messages.
	PreservedBy int `json:"preservedBy,omitempty"`
}

// BlockKind says what an exported content block is.
type BlockKind string

// The block kinds.
const (
	BlockKindText       BlockKind = "text"
	BlockKindThinking   BlockKind = "thinking"
	BlockKindToolCall   BlockKind = "tool-call"
	BlockKindToolResult BlockKind = "tool-result"
	BlockKindImage      BlockKind = "image"
	BlockKindPaste      BlockKind = "paste"
	// BlockKindOther is a block type memscope does not render; Text names
	// the type.
	BlockKindOther BlockKind = "other"
)

// Block is one piece of an entry's content.
type Block struct {
	Kind BlockKind `json:"kind"`
	// Text is the text of text, thinking and other blocks.
	Text   string      `json:"text,omitempty"`
	Tool   *ToolCall   `json:"tool,omitempty"`
	Result *ToolResult `json:"result,omitempty"`
	Paste  *Paste      `json:"paste,omitempty"`
	// Images counts images (image blocks).
	Images int `json:"images,omitempty"`
}

// ToolCall is a tool_use with its result folded in.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Summary is one line about the input (the command, the file, the
	// pattern, …).
	Summary string `json:"summary"`
	// Input is the input as indented JSON; InputBytes its size as written.
	Input      string `json:"input"`
	InputBytes int    `json:"inputBytes"`
	// Result is nil when no tool_result names this call.
	Result *ToolResult `json:"result,omitempty"`
}

// ToolResult is a tool_result.
type ToolResult struct {
	ToolUseID string    `json:"toolUseId"`
	UUID      string    `json:"uuid,omitempty"`
	Line      int       `json:"line"`
	Timestamp time.Time `json:"timestamp,omitzero"`
	Text      string    `json:"text"`
	Bytes     int       `json:"bytes"`
	IsError   bool      `json:"isError,omitempty"`
	Images    int       `json:"images,omitempty"`
}

// PasteOrigin says where the text of an exported paste came from.
type PasteOrigin string

// The paste origins.
const (
	// PasteFromTag: inline in the message between <pasted_content> tags.
	PasteFromTag PasteOrigin = "pasted-content-tag"
	// PasteFromHistory: the prompt's history line carries it inline.
	PasteFromHistory PasteOrigin = "history"
	// PasteFromCache: paste-cache/<hash>.txt (or the seed paste-store).
	PasteFromCache PasteOrigin = "paste-cache"
	// PasteUnresolved: a placeholder whose text could not be found.
	PasteUnresolved PasteOrigin = "unresolved"
)

// Paste is pasted text, marked as such and expanded when it can be.
type Paste struct {
	// ID is the N of "[Pasted text #N]", or the tag's id.
	ID          string      `json:"id"`
	Placeholder string      `json:"placeholder,omitempty"`
	Origin      PasteOrigin `json:"origin"`
	// Hash, Status and File describe a paste-cache lookup.
	Hash   model.PasteHash   `json:"hash,omitempty"`
	Status model.PasteStatus `json:"status,omitempty"`
	File   string            `json:"file,omitempty"`
	// Reason says why a paste is unresolved.
	Reason string `json:"reason,omitempty"`
	Lines  int    `json:"lines"`
	Text   string `json:"text"`
}

// Boundary is a compaction.
type Boundary struct {
	// Number counts boundaries on the main chain from 1.
	Number  int                   `json:"number"`
	Kind    timeline.BoundaryKind `json:"kind"`
	Trigger model.CompactTrigger  `json:"trigger"`
	// Token figures as the client wrote them; nil when missing.
	PreTokens               *int `json:"preTokens,omitempty"`
	PostTokens              *int `json:"postTokens,omitempty"`
	DurationMs              *int `json:"durationMs,omitempty"`
	CumulativeDroppedTokens *int `json:"cumulativeDroppedTokens,omitempty"`
	TokensSaved             *int `json:"tokensSaved,omitempty"`
	// LogicalParent is the old leaf the boundary follows.
	LogicalParent string `json:"logicalParent,omitempty"`
	// Preserved lists the uuids a partial compaction kept.
	Preserved []string `json:"preserved,omitempty"`
	// Compaction, Direction and MessagesSummarized say what kind of
	// compaction this was (timeline.Compaction).
	Compaction         timeline.CompactionKind  `json:"compaction,omitempty"`
	Direction          model.SummarizeDirection `json:"direction,omitempty"`
	MessagesSummarized *int                     `json:"messagesSummarized,omitempty"`
}

// Attachment names an attachment without reproducing it.
type Attachment struct {
	Type  string   `json:"type"`
	Bytes int      `json:"bytes"`
	Files []string `json:"files,omitempty"`
}

// Branch is a rewind branch the main chain did not take: from a
// child of a rewind point down its newest path.
type Branch struct {
	// Parent is the rewind point; From the first record of the branch.
	Parent     string  `json:"parent"`
	ParentLine int     `json:"parentLine"`
	From       string  `json:"from"`
	Entries    []Entry `json:"entries"`
}

// Sidechain is one subagent conversation.
type Sidechain struct {
	AgentID string `json:"agentId,omitempty"`
	// Source is "inline" for sidechain records in the main transcript,
	// else the subagent transcript's path.
	Source  string   `json:"source"`
	Records int      `json:"records"`
	Models  []string `json:"models"`
	Usage   Usage    `json:"usage"`
	Entries []Entry  `json:"entries"`
}

// SidechainInline is ExportSidechain.Source for sidechains written into
// the main transcript.
const SidechainInline = "inline"
