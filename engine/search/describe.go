package search

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// How a hit is described to people, the same in the command's text
// report and in the TUI's Search overlay.

// Group is the heading of a file's hits: the store, the file, and
// what the file belongs to.
func (h Hit) Group() string {
	parts := []string{string(h.Store), model.SanitizeLine(h.File)}
	if h.SessionID != "" && h.Store != StoreHistory {
		s := "session " + format.ShortID(model.SanitizeLine(h.SessionID))
		if h.AgentID != "" {
			s += " agent " + model.SanitizeLine(h.AgentID)
		}
		parts = append(parts, s)
	}
	if h.Label != "" {
		parts = append(parts, model.SanitizeLine(h.Label))
	}
	if h.Project != "" && h.Store != StoreHistory {
		parts = append(parts, model.SanitizeLine(h.Project))
	}
	return strings.Join(parts, " · ")
}

// Place is a hit's line: where in the file, who said it, when, and
// whether the model still sees it.
func (h Hit) Place() string {
	parts := []string{"line " + strconv.Itoa(h.Line)}
	if h.Role != "" && h.Store == StoreTranscripts {
		parts = append(parts, h.Role)
	}
	parts = append(parts, model.SanitizeLine(h.Where))
	if h.Store == StoreHistory && h.Project != "" {
		parts = append(parts, model.SanitizeLine(h.Project))
	}
	if !h.Time.IsZero() {
		parts = append(parts, h.Time.UTC().Format("2006-01-02 15:04 UTC"))
	}
	if h.UUID != "" {
		parts = append(parts, "uuid "+format.ShortID(model.SanitizeLine(h.UUID)))
	}
	if c := h.Seeing(); c != "" {
		parts = append(parts, c)
	}
	if h.Count > 1 {
		parts = append(parts, strconv.Itoa(h.Count)+" matches")
	}
	for _, r := range h.Prompts {
		parts = append(parts, fmt.Sprintf("pasted as #%d in history.jsonl line %d", r.PasteID, r.Line))
	}
	return strings.Join(parts, " · ")
}

// Seeing says whether the model still sees a transcript hit.
func (h Hit) Seeing() string {
	switch h.Compaction {
	case CompactionAfter:
		return "after the last compaction"
	case CompactionBefore:
		if h.Seen != nil && *h.Seen {
			return "before the last compaction, preserved"
		}
		return "compacted away (the model no longer sees it)"
	}
	return ""
}
