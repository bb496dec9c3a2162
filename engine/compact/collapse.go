package compact

import (
	"fmt"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/model"
)

// CollapseCommit is one fold of context collapse: a span of messages and
// the summary that stands for it in the projection. The originals are kept,
// so the fold can be undone exactly.
type CollapseCommit struct {
	ID        int   `json:"id"`
	Originals []Msg `json:"originals"`
	Summary   Msg   `json:"summary"`
}

// CollapseStore is context collapse's separate store: the commit log
// (folds in effect, oldest first) and the staged folds not yet needed.
// The transcript itself is never changed; the model sees a projection.
type CollapseStore struct {
	Log    []CollapseCommit `json:"log"`
	Staged []CollapseCommit `json:"staged"`
	nextID int
}

// findSpan returns where span starts in msgs, or -1.
func findSpan(msgs, span []Msg) int {
	for i := 0; i+len(span) <= len(msgs); i++ {
		match := true
		for k := range span {
			if !sameMsg(msgs[i+k], span[k]) {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

func sameMsg(a, b Msg) bool {
	return a.UUID == b.UUID && a.Kind == b.Kind && a.Line == b.Line && a.CollapseID == b.CollapseID && a.Tokens() == b.Tokens()
}

// Expand undoes every fold in msgs: each collapsed message is replaced by
// the messages it stands for (folds inside folds included). Messages not
// made by this store are left as they are.
func (s *CollapseStore) Expand(msgs []Msg) []Msg {
	byID := map[int]CollapseCommit{}
	for _, c := range s.Log {
		byID[c.ID] = c
	}
	var out []Msg
	var expand func(ms []Msg, depth int)
	expand = func(ms []Msg, depth int) {
		for _, m := range ms {
			c, ok := byID[m.CollapseID]
			if m.Kind != MsgCollapsed || !ok || depth > len(s.Log) {
				out = append(out, m)
				continue
			}
			expand(c.Originals, depth+1)
		}
	}
	expand(msgs, 0)
	return out
}

// stage proposes folds for msgs: spans of up to span messages older than
// the protected tail, each only if its summary is smaller than it. A span
// never separates a tool call from its result (see safeCuts): its end is
// moved back before the call, or, when the pair is longer than the span,
// forward past the result, never into the protected tail.
func (s *CollapseStore) stage(msgs []Msg, cfg Config) {
	s.Staged = s.Staged[:0]
	end := len(msgs) - cfg.CollapseProtectTail
	safe := safeCuts(msgs)
	for i, j := 0, 0; i+1 < end; i = j {
		if j = safeSpanEnd(safe, i, min(i+cfg.CollapseSpan, end), end); j < 0 {
			break
		}
		span := msgs[i:j]
		text := fmt.Sprintf("[Collapsed %d messages] %s", len(span), Extract(span, cfg.CollapseSummaryBytes))
		if len(text) > cfg.CollapseSummaryBytes {
			text = jsstr.TruncateUTF8(text, cfg.CollapseSummaryBytes)
		}
		s.nextID++
		sum := Msg{UUID: fmt.Sprintf("collapse-%d", s.nextID), Kind: MsgCollapsed, CollapseID: s.nextID,
			Blocks: []Block{TextBlock(model.BlockText, text)}}
		if sum.Tokens() >= msgTokens(span) {
			continue
		}
		s.Staged = append(s.Staged, CollapseCommit{ID: s.nextID, Originals: append([]Msg(nil), span...), Summary: sum})
	}
}

// apply commits staged folds, oldest first, while more is wanted, and
// returns the projection. A staged fold whose span is no longer in msgs,
// or would now separate a tool call from its result, is dropped.
func (s *CollapseStore) apply(msgs []Msg, more func(cur []Msg) bool) ([]Msg, int) {
	n := 0
	var keep []CollapseCommit
	safe := safeCuts(msgs)
	for _, c := range s.Staged {
		if !more(msgs) {
			keep = append(keep, c)
			continue
		}
		at := findSpan(msgs, c.Originals)
		if at < 0 {
			continue
		}
		if !safe[at] || !safe[at+len(c.Originals)] {
			continue
		}
		// The summary holds no tool blocks and the fold no pair that
		// crosses its ends, so the cuts around it are the span's ends.
		safe = append(safe[:at+1], safe[at+len(c.Originals):]...)
		out := make([]Msg, 0, len(msgs)-len(c.Originals)+1)
		out = append(out, msgs[:at]...)
		out = append(out, c.Summary)
		msgs = append(out, msgs[at+len(c.Originals):]...)
		s.Log = append(s.Log, c)
		n++
	}
	s.Staged = keep
	return msgs, n
}

// collapse is stage 4: stage folds over the old history, then commit as
// many as it takes to fit.
func (p *pipelineRun) collapse(msgs []Msg) ([]Msg, StageResult) {
	s := &p.st.Collapse
	s.stage(msgs, p.cfg)
	staged := len(s.Staged)
	out, n := s.apply(msgs, func(cur []Msg) bool { return p.tokens(cur) >= p.limit })
	return out, StageResult{Acted: n > 0, Items: n, Detail: fmt.Sprintf("committed %d of %d staged folds of up to %d messages; %d left staged",
		n, staged, p.cfg.CollapseSpan, len(s.Staged))}
}

// drainCollapses is the first step of prompt-too-long recovery: commit
// every staged fold.
func (p *pipelineRun) drainCollapses(msgs []Msg) ([]Msg, StageResult) {
	s := &p.st.Collapse
	staged := len(s.Staged)
	out, n := s.apply(msgs, func([]Msg) bool { return true })
	return out, StageResult{Acted: n > 0, Items: n, Detail: fmt.Sprintf("drained %d of %d staged folds", n, staged)}
}
