package engine

import (
	"strings"

	"github.com/memscope/memscope/model"
)

// Context is what fills a context window, by category, in tokens
// estimated at CharsPerToken (images at ImageTokens).
type Context struct {
	// System is the system prompt and tool definitions: the size of the
	// newest prompt snapshot on the chain (each replaces the last).
	System Tokens `json:"system"`
	// Instructions are CLAUDE.md and rules files and the other context
	// attachments (skills, agents, environment, date, …).
	Instructions Tokens `json:"instructions"`
	// Memory is auto and team memory (MEMORY.md, memory attachments).
	Memory Tokens `json:"memory"`
	// Conversation is user and assistant text, tool calls and summaries.
	Conversation Tokens `json:"conversation"`
	// ToolResults are tool outputs.
	ToolResults Tokens `json:"toolResults"`
}

// Total is the sum of the categories.
func (c Context) Total() Tokens {
	return c.System + c.Instructions + c.Memory + c.Conversation + c.ToolResults
}

// add returns c with d added; a prompt snapshot replaces System.
func (c Context) add(d Context, snapshot bool) Context {
	sys := c.System + d.System
	if snapshot {
		sys = d.System
	}
	return Context{System: sys, Instructions: c.Instructions + d.Instructions, Memory: c.Memory + d.Memory,
		Conversation: c.Conversation + d.Conversation, ToolResults: c.ToolResults + d.ToolResults}
}

// promptSnapshot is the attachment that holds the system prompt as sent.
const promptSnapshot = "prompt_snapshot"

// RecordContext is what one record adds to the context, and whether it
// is a prompt snapshot (which replaces the system prompt rather than
// adding to it). Records the model never sees (boundaries, metadata) add
// nothing.
func RecordContext(r *model.Record) (Context, bool) {
	var c Context
	switch r.Type {
	case model.RecordAttachment:
		switch {
		case r.AttachmentType == promptSnapshot:
			c.System = EstimateTokens(r.AttachmentBytes)
			return c, true
		case len(r.AttachmentFiles) > 0:
			for _, f := range r.AttachmentFiles {
				if f.IsMemory() {
					c.Memory += EstimateTokens(f.Bytes)
				} else {
					c.Instructions += EstimateTokens(f.Bytes)
				}
			}
		case strings.Contains(r.AttachmentType, "memor"):
			c.Memory = EstimateTokens(r.AttachmentBytes)
		default:
			c.Instructions = EstimateTokens(r.AttachmentBytes)
		}
	case model.RecordUser, model.RecordAssistant:
		m := r.Message
		if m == nil {
			break
		}
		if m.Content == nil {
			c.Conversation = EstimateTokens(m.ContentBytes)
			break
		}
		for _, b := range m.Content {
			t := EstimateTokens(b.Bytes) + Tokens(b.Images)*ImageTokens
			if b.Type == model.BlockToolResult {
				c.ToolResults += t
			} else {
				c.Conversation += t
			}
		}
	}
	return c, false
}

// contextMemo computes the context at each record once: a record's
// context is its parent's plus its own, so a whole timeline costs one
// pass however long the chains are.
type contextMemo struct {
	t    *model.Transcript
	memo map[*model.Record]Context
}

func newContextMemo(t *model.Transcript) *contextMemo {
	return &contextMemo{t: t, memo: map[*model.Record]Context{}}
}

// of returns the context the model saw at r (r included), following the
// same links resume follows.
func (m *contextMemo) of(r *model.Record) Context {
	var stack []*model.Record
	onStack := map[*model.Record]bool{}
	for cur := r; cur != nil; cur = m.t.Get(cur.ParentUUID) {
		if _, ok := m.memo[cur]; ok || onStack[cur] {
			break
		}
		onStack[cur] = true
		stack = append(stack, cur)
	}
	for i := len(stack) - 1; i >= 0; i-- {
		rec := stack[i]
		var base Context
		if p := m.t.Get(rec.ParentUUID); p != nil {
			base = m.memo[p] // zero for a cycle's entry point
		} else if rec.IsCompactBoundary() {
			base = m.fallbackBase(rec)
		}
		own, snap := RecordContext(rec)
		c := base.add(own, snap)
		if p := m.t.Get(rec.ParentUUID); p != nil && rec.IsCompactSummary {
			c = m.addPreserved(p, rec, c)
		}
		m.memo[rec] = c
	}
	return m.memo[r]
}

// fallbackBase is what a compact boundary starts from: nothing, unless its
// preserved segment is broken, in which case the client loads the full
// history behind it.
func (m *contextMemo) fallbackBase(b *model.Record) Context {
	if b.Compact == nil || b.Compact.PreservedSegment == nil {
		return Context{}
	}
	v := view{t: m.t, from: 1}
	if _, err := preservedSegment(v, b.Compact.PreservedSegment); err == nil {
		return Context{}
	}
	var c Context
	if prev := v.get(b.LogicalParentUUID); prev != nil {
		chain, _ := walk(v, prev, true)
		for _, r := range chain {
			own, snap := RecordContext(r)
			c = c.add(own, snap)
		}
	}
	return c
}

// addPreserved adds a partial compaction's preserved segment at its
// anchor (the summary under the boundary).
func (m *contextMemo) addPreserved(boundary, anchor *model.Record, c Context) Context {
	if !boundary.IsCompactBoundary() || boundary.Compact == nil || boundary.Compact.PreservedSegment == nil ||
		boundary.Compact.PreservedSegment.AnchorUUID != anchor.UUID {
		return c
	}
	seg, err := preservedSegment(view{t: m.t, from: 1}, boundary.Compact.PreservedSegment)
	if err != nil {
		return c
	}
	for _, r := range seg {
		own, snap := RecordContext(r)
		c = c.add(own, snap)
	}
	return c
}
