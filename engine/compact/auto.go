package compact

import (
	"fmt"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// AutocompactOffDetail is what stage 5 reports when the settings turn
// autocompact off.
const AutocompactOffDetail = "autocompact is off (autoCompactEnabled: false)"

// compactKind says what started a compaction.
type compactKind int

const (
	// compactAuto is stage 5: subject to the setting and the breaker.
	compactAuto compactKind = iota
	// compactReactive is prompt-too-long recovery: it ignores the breaker.
	compactReactive
	// compactManual is /compact: it ignores the setting and the breaker
	// and leaves the failure count alone.
	compactManual
)

// preservable is how many of the newest messages a partial compaction
// could keep: back to a synthetic message or a relink, since a preserved
// segment must be one chain of real records.
func preservable(msgs []Msg) int {
	n := 0
	for i := len(msgs) - 1; i >= 0 && !msgs[i].Synthetic(); i-- {
		n++
		if msgs[i].Relinked {
			break
		}
	}
	return n
}

// autocompact is stage 5.
func (p *pipelineRun) autocompact(msgs []Msg) ([]Msg, StageResult) {
	if p.cfg.AutocompactOff {
		return msgs, StageResult{Detail: AutocompactOffDetail}
	}
	return p.compact(msgs, compactAuto)
}

// compact summarizes all but the PreserveRecent newest messages.
func (p *pipelineRun) compact(msgs []Msg, kind compactKind) ([]Msg, StageResult) {
	if kind == compactAuto && p.st.ConsecutiveFailures >= window.MaxConsecutiveCompactFailures {
		return msgs, StageResult{Detail: fmt.Sprintf("circuit breaker open: %d compactions failed in a row", p.st.ConsecutiveFailures)}
	}
	// failed counts a failure towards the breaker, unless the user asked.
	failed := func() {
		if kind != compactManual {
			p.st.ConsecutiveFailures++
		}
	}
	cut := p.compactCut(msgs)
	drop, keep := msgs[:cut], msgs[cut:]
	if len(drop) == 0 {
		return msgs, StageResult{Detail: "nothing older than the preserved messages to summarize"}
	}
	var notes string
	if p.cfg.FlushHook != nil {
		if err := p.cfg.FlushHook.BeforeCompact(drop); err != nil {
			notes = fmt.Sprintf("; flush hook failed: %v", err)
		}
	}
	sum := p.cfg.Summarizer
	if sum == nil {
		sum = ExtractiveSummarizer{}
	}
	text, err := sum.Summarize(drop)
	if err != nil {
		failed()
		return msgs, StageResult{Detail: fmt.Sprintf("summarizer failed (%d in a row): %v%s", p.st.ConsecutiveFailures, err, notes)}
	}
	text = SummaryPreamble + text
	summary := Msg{UUID: p.newUUID(), Kind: MsgSummary, Blocks: []Block{TextBlock(model.BlockText, text)}}
	out := append([]Msg{summary}, keep...)
	pre, post := p.tokens(msgs), p.tokens(out)
	if post >= pre {
		failed()
		return msgs, StageResult{Detail: fmt.Sprintf("the summary (%d tokens) would not shrink the context (%d failures in a row)%s",
			summary.Tokens(), p.st.ConsecutiveFailures, notes)}
	}
	switch {
	case kind == compactManual:
	case post >= p.limit:
		failed() // it helped, but not enough to fit
	default:
		p.st.ConsecutiveFailures = 0
	}
	p.recs = append(p.recs, p.compactRecords(summary, keep, pre, post)...)
	shape := "full"
	if len(keep) > 0 {
		shape = "partial"
	}
	return out, StageResult{Acted: true, Items: len(drop), Detail: fmt.Sprintf("%s compaction: %d messages summarized into %d bytes, %d kept%s",
		shape, len(drop), len(text), len(keep), notes)}
}

// compactCut is where the summarized messages end and the preserved ones
// begin: PreserveRecent from the end, or fewer (see preservable). A cut
// between a tool call and its result is moved back to keep the call too,
// as the client does, when the call can be preserved and something is
// left to summarize; otherwise forward, summarizing the result with it.
func (p *pipelineRun) compactCut(msgs []Msg) int {
	most := preservable(msgs)
	cut := len(msgs) - min(p.cfg.PreserveRecent, most)
	safe := safeCuts(msgs)
	if safe[cut] {
		return cut
	}
	for k := cut - 1; k >= max(len(msgs)-most, 1); k-- {
		if safe[k] {
			return k
		}
	}
	for k := cut + 1; ; k++ {
		if safe[k] { // safe[len(msgs)] always is
			return k
		}
	}
}
