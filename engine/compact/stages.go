package compact

import (
	"fmt"
	"slices"
	"sort"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// ClearedToolResult is the text microcompact leaves in a cleared result.
const ClearedToolResult = "[Old tool result content cleared]"

// cloneMsgs copies the messages and their blocks, so a stage can edit
// without touching its input (the runner may undo it).
func cloneMsgs(msgs []Msg) []Msg {
	out := make([]Msg, len(msgs))
	for i, m := range msgs {
		m.Blocks = slices.Clone(m.Blocks)
		out[i] = m
	}
	return out
}

// setText replaces a block's content with text.
func setText(b *Block, text string, edit BlockEdit) {
	b.Text, b.Bytes, b.Chars, b.Images, b.Edit = text, len(text), jsstr.UTF16Len(text), 0, edit
}

// budget is stage 1: results over the per-result limit, then the largest
// results of messages over the per-message limit, become a preview. Both
// limits count characters (UTF-16 code units, Block.Chars), as the client
// does; the preview is cut in bytes.
func (p *pipelineRun) budget(msgs []Msg) ([]Msg, StageResult) {
	out := cloneMsgs(msgs)
	n := 0
	for i := range out {
		blocks := out[i].Blocks
		var results []int
		total := 0
		for j, b := range blocks {
			if b.Type == model.BlockToolResult && b.Edit == EditNone {
				results = append(results, j)
				total += b.Chars
			}
		}
		// Largest first, so the per-message limit is met with the fewest cuts.
		sort.SliceStable(results, func(a, b int) bool { return blocks[results[a]].Chars > blocks[results[b]].Chars })
		for _, j := range results {
			b := &blocks[j]
			if b.Chars <= p.cfg.ToolResultMaxChars && total <= p.cfg.MessageResultMaxChars {
				continue
			}
			total -= b.Chars
			p.keepOriginal(*b)
			setText(b, p.preview(*b), EditBudgeted)
			total += b.Chars
			n++
		}
	}
	return out, StageResult{Acted: n > 0, Items: n, Detail: fmt.Sprintf("%d tool results replaced by a %d-byte preview", n, p.cfg.PreviewBytes)}
}

func (p *pipelineRun) keepOriginal(b Block) {
	if p.st.SideStore == nil {
		p.st.SideStore = map[string]Block{}
	}
	p.st.SideStore[b.ToolUseID] = b
}

// preview is what the model sees of a budgeted result: its first
// PreviewBytes bytes, cut back to a character boundary, and where the rest
// was saved, as the client does.
func (p *pipelineRun) preview(b Block) string {
	head := jsstr.TruncateUTF8(b.Text, p.cfg.PreviewBytes)
	return fmt.Sprintf("%s\n\n[Output too large (%d characters). Full output saved to tool-results/%s.txt; this is the first %d bytes.]",
		head, b.Chars, b.ToolUseID, p.cfg.PreviewBytes)
}

// snip is stage 2: large results of low-value tools outside the protected
// head and tail are dropped, oldest first, until the context fits.
func (p *pipelineRun) snip(msgs []Msg) ([]Msg, StageResult) {
	out := cloneMsgs(msgs)
	cur := p.tokens(out)
	n := 0
	for i := p.cfg.SnipProtectHead; i < len(out)-p.cfg.SnipProtectTail && cur >= p.limit; i++ {
		for j := range out[i].Blocks {
			b := &out[i].Blocks[j]
			if b.Type != model.BlockToolResult || b.Edit != EditNone || b.Tokens() < p.cfg.SnipMinTokens ||
				!slices.Contains(p.cfg.SnipTools, b.ToolName) {
				continue
			}
			before := b.Tokens()
			setText(b, fmt.Sprintf("[snipped: %d tokens of %s output]", before, b.ToolName), EditSnipped)
			cur -= before - b.Tokens()
			n++
		}
	}
	return out, StageResult{Acted: n > 0, Items: n, Detail: fmt.Sprintf("%d low-value tool results dropped outside the first %d and last %d messages",
		n, p.cfg.SnipProtectHead, p.cfg.SnipProtectTail)}
}

// microcompact is stage 3: results of compactable tools older than the
// newest few are cleared, if that saves enough to be worth a cache miss.
func (p *pipelineRun) microcompact(msgs []Msg) ([]Msg, StageResult) {
	type ref struct{ i, j int }
	var refs []ref
	for i, m := range msgs {
		for j, b := range m.Blocks {
			if b.Type == model.BlockToolResult && b.Edit != EditCleared && slices.Contains(p.cfg.CompactableTools, b.ToolName) {
				refs = append(refs, ref{i, j})
			}
		}
	}
	if len(refs) <= p.cfg.MicrocompactKeepRecent {
		return msgs, StageResult{Detail: fmt.Sprintf("%d compactable results, all among the %d kept", len(refs), p.cfg.MicrocompactKeepRecent)}
	}
	old := refs[:len(refs)-p.cfg.MicrocompactKeepRecent]
	var saved window.Tokens
	for _, r := range old {
		saved += msgs[r.i].Blocks[r.j].Tokens() - window.EstimateTextTokens(ClearedToolResult)
	}
	if saved < p.cfg.MicrocompactMinSavings {
		return msgs, StageResult{Detail: fmt.Sprintf("would save %d tokens, under the %d minimum", saved, p.cfg.MicrocompactMinSavings)}
	}
	out := cloneMsgs(msgs)
	var ids []string
	for _, r := range old {
		b := &out[r.i].Blocks[r.j]
		ids = append(ids, b.ToolUseID)
		setText(b, ClearedToolResult, EditCleared)
	}
	pre := p.tokens(msgs)
	p.recs = append(p.recs, p.microcompactRecord(pre, pre-p.tokens(out), ids))
	return out, StageResult{Acted: true, Items: len(old), Detail: fmt.Sprintf("cleared %d old results of compactable tools, kept the newest %d",
		len(old), p.cfg.MicrocompactKeepRecent)}
}
