package compact

import "github.com/memscope/memscope/model"

// safeCuts reports, for each k from 0 to len(msgs), whether cutting the
// list between msgs[k-1] and msgs[k] keeps every tool call on the same
// side as its result. The API rejects a tool_result whose tool_use is not
// in the visible history (and a tool_use left without its result), so a
// fold or a compaction may only start and end at such a cut. A tool_use
// id with no result in msgs (or a result with no call) constrains nothing.
// The first and last cuts are always safe.
func safeCuts(msgs []Msg) []bool {
	type span struct {
		lo, hi     int
		use, reply bool
	}
	ids := map[string]*span{}
	for i, m := range msgs {
		for _, b := range m.Blocks {
			if b.ToolUseID == "" || b.Type != model.BlockToolUse && b.Type != model.BlockToolResult {
				continue
			}
			s := ids[b.ToolUseID]
			if s == nil {
				s = &span{lo: i, hi: i}
				ids[b.ToolUseID] = s
			}
			s.hi = i
			s.use = s.use || b.Type == model.BlockToolUse
			s.reply = s.reply || b.Type == model.BlockToolResult
		}
	}
	// A pair over messages lo..hi makes cuts lo+1..hi unsafe: count the
	// pairs open at each cut with a difference array.
	open := make([]int, len(msgs)+2)
	for _, s := range ids {
		if s.use && s.reply && s.hi > s.lo {
			open[s.lo+1]++
			open[s.hi+1]--
		}
	}
	safe := make([]bool, len(msgs)+1)
	n := 0
	for k := range safe {
		n += open[k]
		safe[k] = n == 0
	}
	return safe
}

// safeSpanEnd picks where a span starting at the safe cut from should
// end: at want if that cut is safe, else at the nearest safe cut before
// it (shrinking the span), else at the nearest one after it up to limit
// (extending it over a pair longer than the span). -1 when none is.
func safeSpanEnd(safe []bool, from, want, limit int) int {
	for k := want; k > from; k-- {
		if safe[k] {
			return k
		}
	}
	for k := want + 1; k <= limit; k++ {
		if safe[k] {
			return k
		}
	}
	return -1
}
