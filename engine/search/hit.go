package search

import (
	"fmt"
	"strings"
	"time"
)

// Store is a place Claude Code keeps what it remembers.
type Store string

// The stores a search reads, in the order --in lists them.
const (
	StoreTranscripts Store = "transcripts"
	StoreHistory     Store = "history"
	StorePastes      Store = "pastes"
	StoreMemory      Store = "memory"
	StoreClaudeMd    Store = "claudemd"
	StoreFileHistory Store = "filehistory"
)

// Stores lists every store.
var Stores = []Store{StoreTranscripts, StoreHistory, StorePastes, StoreMemory, StoreClaudeMd, StoreFileHistory}

// ParseStores reads a comma-separated list of stores ("" is all of them).
func ParseStores(s string) ([]Store, error) {
	if strings.TrimSpace(s) == "" {
		return Stores, nil
	}
	var out []Store
	seen := map[Store]bool{}
	for _, part := range strings.Split(s, ",") {
		st := Store(strings.TrimSpace(part))
		ok := false
		for _, k := range Stores {
			ok = ok || k == st
		}
		if !ok {
			return nil, fmt.Errorf("unknown store %q (the stores: %s)", part, storeNames())
		}
		if !seen[st] {
			seen[st] = true
			out = append(out, st)
		}
	}
	return out, nil
}

func storeNames() string {
	names := make([]string, len(Stores))
	for i, s := range Stores {
		names[i] = string(s)
	}
	return strings.Join(names, ",")
}

// Compaction says where a transcript hit sits against the session's last
// compaction.
type Compaction string

// The places.
const (
	// CompactionNone: the session never compacted.
	CompactionNone Compaction = "none"
	// CompactionBefore: before the last compaction, so the model no
	// longer sees it (unless Seen says it was preserved).
	CompactionBefore Compaction = "before"
	// CompactionAfter: after the last compaction.
	CompactionAfter Compaction = "after"
)

// Hit is one place the query matched: one text field of a transcript
// record or a history line, or one line of a file.
type Hit struct {
	Store Store `json:"store"`
	// File is the file's path inside the home, or its absolute path for
	// files outside it (a project's CLAUDE.md).
	File string `json:"file"`
	// Line is the 1-based line: the record's in a JSONL file, the
	// match's in a text file.
	Line int `json:"line"`
	// Where says what the text is: "text", "thinking", "tool_use Bash
	// input.command", "tool_result", "compact summary", "prompt",
	// "paste #1", "frontmatter", "body", "line".
	Where string `json:"where"`
	// Project is the project's folder (or its projects/ slug when the
	// folder is not known).
	Project string `json:"project,omitempty"`
	// Transcript hits.
	SessionID string `json:"sessionId,omitempty"`
	AgentID   string `json:"agentId,omitempty"`
	UUID      string `json:"uuid,omitempty"`
	Role      string `json:"role,omitempty"`
	// Time is the record's or the history line's timestamp, else the
	// file's modification time.
	Time time.Time `json:"timestamp,omitzero"`
	// Compaction places a transcript hit against the last compaction;
	// Seen says whether the model still sees it when the session resumes
	// (after the last compaction, or preserved by a partial one).
	Compaction Compaction `json:"compaction,omitempty"`
	Seen       *bool      `json:"seen,omitempty"`
	// Label says which store a memory or CLAUDE.md file belongs to
	// ("auto memory", "team memory", "agent memory (user) reviewer",
	// "project instructions", …); for a paste, its hash.
	Label string `json:"label,omitempty"`
	// Vault marks a hit read from the rescue vault's copy of a file the
	// home no longer has (vault.SearchLost, which labels it VaultLabel);
	// File is where the home had it.
	Vault bool `json:"vault,omitempty"`
	// Prompts are the history lines that refer to a paste hit.
	Prompts []PromptRef `json:"prompts,omitempty"`
	// Snippet is the text around the match, on one line, with secrets
	// masked unless asked otherwise and terminal controls removed;
	// Match is the byte range of the match in Snippet.
	Snippet string `json:"snippet"`
	Match   [2]int `json:"match"`
	// Count is the number of matches in the field (or line).
	Count int `json:"count"`
	// Offset is the match's byte offset in the field's text (or the
	// file), for a viewer to find it.
	Offset int `json:"offset"`
}

// VaultLabel labels a hit read from the rescue vault's copy of a file
// the home no longer has.
const VaultLabel = "only in the vault"

// PromptRef is a history line that refers to a paste.
type PromptRef struct {
	Line    int       `json:"line"`
	Project string    `json:"project,omitempty"`
	Time    time.Time `json:"timestamp,omitzero"`
	PasteID int       `json:"pasteId"`
}

// Key is the hit's group: the file it is in.
func (h Hit) Key() string { return string(h.Store) + "\x00" + h.File }
