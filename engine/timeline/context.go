package timeline

import (
	"sort"
	"strings"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// Context is what fills a context window, by category, in tokens
// estimated at CharsPerToken characters (UTF-16 code units; images at
// ImageTokens).
type Context struct {
	// System is the system prompt and tool definitions, from the prompt
	// snapshots the client writes (see SystemTokens).
	System window.Tokens `json:"system"`
	// Instructions are CLAUDE.md and rules files and the other context
	// attachments (skills, agents, environment, date, …).
	Instructions window.Tokens `json:"instructions"`
	// Memory is auto and team memory (MEMORY.md, memory attachments).
	Memory window.Tokens `json:"memory"`
	// Conversation is user and assistant text, tool calls and summaries.
	Conversation window.Tokens `json:"conversation"`
	// ToolResults are tool outputs.
	ToolResults window.Tokens `json:"toolResults"`
}

// PromptSnapshot is the attachment that holds the system prompt as sent.
const PromptSnapshot = "prompt_snapshot"

// SystemTokens estimates the system prompt and tool definitions in effect
// at line: the largest of the prompt snapshots written up to it and the
// next one after it. The client writes two snapshots a turn, the system
// prompt alone before the request and with the tools just after the
// response; the tools go with every request, so the larger is the better
// figure, and a turn's own snapshot with tools comes after its response.
func SystemTokens(t *model.Transcript, line int) window.Tokens { return newSystemIndex(t).at(line) }

// systemIndex answers SystemTokens for many lines after one pass.
type systemIndex struct {
	lines   []int // snapshot lines, in file order
	sizes   []int
	upToMax []int // upToMax[i] = largest of sizes[:i+1]
}

func newSystemIndex(t *model.Transcript) systemIndex {
	var x systemIndex
	for _, r := range t.Records {
		x.add(r)
	}
	return x
}

// add takes the next record in file order.
func (x *systemIndex) add(r *model.Record) {
	if r.AttachmentType == PromptSnapshot {
		best := r.AttachmentChars
		if n := len(x.upToMax); n > 0 {
			best = max(best, x.upToMax[n-1])
		}
		x.lines, x.sizes, x.upToMax = append(x.lines, r.Line), append(x.sizes, r.AttachmentChars), append(x.upToMax, best)
	}
}

// RecordContext is what one record adds to the context. Records the model
// never sees as messages (boundaries, metadata, prompt snapshots, which
// SystemTokens accounts for) add nothing.
func RecordContext(r *model.Record) Context {
	var c Context
	switch r.Type {
	case model.RecordAttachment:
		switch {
		case r.AttachmentType == PromptSnapshot:
		case len(r.AttachmentFiles) > 0:
			for _, f := range r.AttachmentFiles {
				if f.IsMemory() {
					c.Memory += window.EstimateTokens(f.Chars)
				} else {
					c.Instructions += window.EstimateTokens(f.Chars)
				}
			}
		case strings.Contains(r.AttachmentType, "memor"):
			c.Memory = window.EstimateTokens(r.AttachmentChars)
		default:
			c.Instructions = window.EstimateTokens(r.AttachmentChars)
		}
	case model.RecordUser, model.RecordAssistant:
		// A compact summary's earlier messages are sent after it.
		c.Conversation = window.EstimateTokens(r.EarlierChars())
		m := r.Message
		if m == nil {
			break
		}
		if m.Content == nil {
			c.Conversation += window.EstimateTokens(m.ContentChars)
			break
		}
		for _, b := range m.Content {
			t := window.EstimateTokens(b.Chars) + window.Tokens(b.Images)*window.ImageTokens
			if b.Type == model.BlockToolResult {
				c.ToolResults += t
			} else {
				c.Conversation += t
			}
		}
	}
	return c
}

// Total is the sum of the categories.
func (c Context) Total() window.Tokens {
	return c.System + c.Instructions + c.Memory + c.Conversation + c.ToolResults
}

// Add returns c with d added.
func (c Context) Add(d Context) Context {
	return Context{System: c.System + d.System, Instructions: c.Instructions + d.Instructions, Memory: c.Memory + d.Memory,
		Conversation: c.Conversation + d.Conversation, ToolResults: c.ToolResults + d.ToolResults}
}

func (x systemIndex) at(line int) window.Tokens {
	i := sort.SearchInts(x.lines, line+1) // snapshots at or before line
	best := 0
	if i > 0 {
		best = x.upToMax[i-1]
	}
	if i < len(x.sizes) {
		best = max(best, x.sizes[i])
	}
	return window.EstimateTokens(best)
}
