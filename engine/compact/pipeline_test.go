package compact

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// A 60k window: effective 52000, autocompact at 39000, blocked at 49000.
var smallWindow = window.Config{ContextWindow: 60000, MaxOutputTokens: 8000}

func Prompt(uuid, text string) Msg {
	return Msg{UUID: uuid, Kind: MsgPrompt, Line: 1, Blocks: []Block{TextBlock(model.BlockText, text)}}
}

func Answer(uuid, text string) Msg {
	return Msg{UUID: uuid, Kind: MsgAnswer, Line: 1, Blocks: []Block{TextBlock(model.BlockText, text)}}
}

func result(uuid, tool, id string, n int) Msg {
	text := strings.Repeat("x", n)
	b := TextBlock(model.BlockToolResult, text)
	b.ToolUseID, b.ToolName = id, tool
	return Msg{UUID: uuid, Kind: MsgToolResult, Line: 1, Blocks: []Block{b}}
}

func seqUUIDs() func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }
}

func SmallConfig() Config {
	cfg := DefaultConfig(smallWindow)
	cfg.NewUUID = seqUUIDs()
	return cfg
}

func StageNames(r Result) string {
	var out []string
	for _, s := range r.Stages {
		mark := ""
		if s.Acted {
			mark = "*"
		}
		out = append(out, string(s.Stage)+mark)
	}
	return strings.Join(out, " ")
}

func TestPipelineStopsWhenItFits(t *testing.T) {
	in := Input{System: 1000, Messages: []Msg{Prompt("u", "hi"), Answer("a", "hello")}}
	res, err := Run(in, SmallConfig(), &State{}, enginetest.Now)
	if err != nil || len(res.Stages) != 0 || !res.Fits || res.After != res.Before || !reflect.DeepEqual(res.Messages, in.Messages) {
		t.Errorf("err %v stages %q fits %v", err, StageNames(res), res.Fits)
	}
}

func TestPipelineToolResultBudget(t *testing.T) {
	// One 160000-byte result (40000 tokens) puts the context over 39000;
	// the budget alone brings it back.
	big := result("r1", "Bash", "toolu_big", 160000)
	big.Blocks[0].Text = "HEAD" + big.Blocks[0].Text[4:]
	in := Input{Messages: []Msg{Prompt("u", "run it"), big}}
	st := &State{}
	res, _ := Run(in, SmallConfig(), st, enginetest.Now)
	if StageNames(res) != "tool-result-budget*" || !res.Fits {
		t.Fatalf("stages %q fits %v", StageNames(res), res.Fits)
	}
	b := res.Messages[1].Blocks[0]
	if b.Edit != EditBudgeted || !strings.HasPrefix(b.Text, "HEAD") || !strings.Contains(b.Text, "tool-results/toolu_big.txt") || b.Bytes > 2200 {
		t.Errorf("budgeted block %q (%d bytes)", b.Text[:40], b.Bytes)
	}
	if orig := st.SideStore["toolu_big"]; orig.Bytes != 160000 || orig.Text != big.Blocks[0].Text {
		t.Errorf("side store lost the original: %d bytes", orig.Bytes)
	}
	if in.Messages[1].Blocks[0].Bytes != 160000 {
		t.Error("the input messages were modified")
	}
	s := res.Stages[0]
	if s.Before-s.After != s.Freed || s.Freed < 39000 {
		t.Errorf("stage figures %+v", s)
	}
}

func TestPipelineBudgetPerMessage(t *testing.T) {
	// Five 45000-byte results in one message: 225000 > 200000, so the
	// largest is cut (the last, at 45010) and the rest stay.
	m := Msg{UUID: "r", Kind: MsgToolResult, Line: 1}
	for i := 0; i < 5; i++ {
		n := 45000
		if i == 4 {
			n = 45010
		}
		m.Blocks = append(m.Blocks, Block{Type: model.BlockToolResult, Bytes: n, Chars: n, ToolUseID: fmt.Sprint("t", i), ToolName: "Read"})
	}
	p := &pipelineRun{cfg: SmallConfig(), st: &State{}}
	out, sr := p.budget([]Msg{m})
	var edits []string
	for _, b := range out[0].Blocks {
		edits = append(edits, string(b.Edit))
	}
	if sr.Items != 1 || strings.Join(edits, ",") != ",,,,budgeted" {
		t.Errorf("items %d edits %q", sr.Items, edits)
	}
}

func TestPipelineSnipProtectsHeadAndTail(t *testing.T) {
	cfg := SmallConfig()
	cfg.SnipProtectHead, cfg.SnipProtectTail = 1, 2
	// Seven 36000-byte results (9000 tokens each): 63000 tokens. Snip
	// drops the oldest unprotected ones until under 39000: three of them.
	msgs := []Msg{result("h", "Bash", "t0", 36000)}
	for i := 1; i <= 4; i++ {
		msgs = append(msgs, result(fmt.Sprint("m", i), "Bash", fmt.Sprint("t", i), 36000))
	}
	msgs = append(msgs, result("tail1", "Bash", "t5", 36000), result("tail2", "Bash", "t6", 36000))
	msgs[2].Blocks[0].ToolName = "Edit" // not a snip tool: kept
	p := &pipelineRun{cfg: cfg, st: &State{}, limit: cfg.Window.AutocompactAt()}
	out, sr := p.snip(msgs)
	var edits []string
	for _, m := range out {
		edits = append(edits, string(m.Blocks[0].Edit))
	}
	if strings.Join(edits, ",") != ",snipped,,snipped,snipped,," || sr.Items != 3 {
		t.Errorf("edits %q items %d", edits, sr.Items)
	}
	if p.tokens(out) >= 39000 {
		t.Errorf("still %d tokens", p.tokens(out))
	}
}

func TestPipelineMicrocompact(t *testing.T) {
	cfg := SmallConfig()
	p := &pipelineRun{cfg: cfg, st: &State{}, in: Input{Session: SessionInfo{SessionID: "s", Leaf: "leaf0"}}, now: enginetest.Now}
	// Five Read results of 20000 bytes (5000 tokens): clearing the two
	// oldest saves under 20000 tokens, so nothing happens.
	var msgs []Msg
	for i := 0; i < 5; i++ {
		msgs = append(msgs, result(fmt.Sprint("r", i), "Read", fmt.Sprint("t", i), 20000))
	}
	out, sr := p.microcompact(msgs)
	if sr.Acted || !reflect.DeepEqual(out, msgs) || len(p.recs) != 0 || !strings.Contains(sr.Detail, "under the 20000 minimum") {
		t.Errorf("small saving acted: %+v", sr)
	}
	// Eight results: the five oldest (25000 tokens) are cleared.
	for i := 5; i < 8; i++ {
		msgs = append(msgs, result(fmt.Sprint("r", i), "Read", fmt.Sprint("t", i), 20000))
	}
	out, sr = p.microcompact(msgs)
	var cleared int
	for i, m := range out {
		if m.Blocks[0].Edit == EditCleared {
			cleared++
			if i >= 5 || m.Blocks[0].Text != ClearedToolResult {
				t.Errorf("message %d cleared: %q", i, m.Blocks[0].Text)
			}
		}
	}
	if !sr.Acted || cleared != 5 || len(p.recs) != 1 {
		t.Fatalf("cleared %d acted %v records %d", cleared, sr.Acted, len(p.recs))
	}
	recs := scanRecords(t, p.recs)
	mc := recs[0]
	if !mc.IsMicrocompactBoundary() || mc.ParentUUID != "leaf0" || mc.Microcompact == nil ||
		len(mc.Microcompact.CompactedToolIDs) != 5 || *mc.Microcompact.TokensSaved < 20000 {
		t.Errorf("microcompact record %+v %+v", mc, mc.Microcompact)
	}
}

// scanRecords parses written lines with the model's reader.
func scanRecords(t *testing.T, lines [][]byte) []*model.Record {
	t.Helper()
	var data []byte
	for _, l := range lines {
		data = append(append(data, l...), '\n')
	}
	var out []*model.Record
	s, err := model.ScanTranscript(strings.NewReader(string(data)), "out", model.ScanOptions{Content: true, KeepText: true}, func(r *model.Record) error {
		out = append(out, r)
		return nil
	})
	if err != nil || len(s.Problems) != 0 {
		t.Fatalf("written records do not read back: %v %v", err, s.Problems)
	}
	return out
}

func TestCollapseUndoRestoresExactMessages(t *testing.T) {
	cfg := SmallConfig()
	cfg.CollapseSpan, cfg.CollapseProtectTail = 3, 2
	var msgs []Msg
	for i := 0; i < 12; i++ {
		msgs = append(msgs, Prompt(fmt.Sprint("u", i), "please do thing "+fmt.Sprint(i)+strings.Repeat(" more detail", 1200)))
	}
	st := &State{}
	p := &pipelineRun{cfg: cfg, st: st, limit: cfg.Window.AutocompactAt()}
	out, sr := p.collapse(msgs)
	if !sr.Acted || len(out) >= len(msgs) || p.tokens(out) >= p.limit {
		t.Fatalf("collapse %+v: %d → %d messages, %d tokens", sr, len(msgs), len(out), p.tokens(out))
	}
	if got := st.Collapse.Expand(out); !reflect.DeepEqual(got, msgs) {
		t.Errorf("Expand did not restore the messages: %d vs %d", len(got), len(msgs))
	}
	// The last two messages were protected.
	if out[len(out)-1].UUID != "u11" || out[len(out)-2].UUID != "u10" {
		t.Errorf("tail changed: %s %s", out[len(out)-2].UUID, out[len(out)-1].UUID)
	}
	if len(st.Collapse.Log) != sr.Items || len(st.Collapse.Staged) == 0 {
		t.Errorf("log %d staged %d", len(st.Collapse.Log), len(st.Collapse.Staged))
	}
	// Draining commits the rest, and Expand still restores everything.
	p.limit = 0
	drained, dr := p.drainCollapses(out)
	if dr.Items == 0 || len(st.Collapse.Staged) != 0 || len(drained) >= len(out) {
		t.Errorf("drain %+v", dr)
	}
	if got := st.Collapse.Expand(drained); !reflect.DeepEqual(got, msgs) {
		t.Error("Expand after drain did not restore the messages")
	}
}

type recordingHook struct{ got []Msg }

type failingSummarizer struct{}

func BigConversation(n int) []Msg {
	var msgs []Msg
	for i := 0; i < n; i++ {
		msgs = append(msgs, Prompt(fmt.Sprint("u", i), fmt.Sprintf("request %d: add a flag", i)),
			Answer(fmt.Sprint("a", i), fmt.Sprintf("I will use a bool flag instead of an env var. %s", strings.Repeat("detail ", 4000))))
	}
	return msgs
}

func TestPipelineAutocompactPartialWithFlushHook(t *testing.T) {
	cfg := SmallConfig()
	hook := &recordingHook{}
	cfg.FlushHook, cfg.PreserveRecent = hook, 2
	cfg.CollapseProtectTail = 100 // leave it to autocompact
	msgs := BigConversation(8)    // about 56000 tokens, nothing to budget, snip, clear
	in := Input{Messages: msgs, Session: SessionInfo{SessionID: "sess", CWD: "/w", Version: "2.1.330", GitBranch: "main",
		Leaf: "a7", LastPrompt: "request 7: add a flag", CumulativeDroppedTokens: 100}}
	st := &State{ConsecutiveFailures: 2}
	res, err := Run(in, cfg, st, enginetest.Now)
	if err != nil || !res.Fits {
		t.Fatalf("err %v fits %v stages %q", err, res.Fits, StageNames(res))
	}
	last := res.Stages[len(res.Stages)-1]
	if last.Stage != StageAutocompact || !last.Acted || st.ConsecutiveFailures != 0 {
		t.Errorf("last stage %+v failures %d", last, st.ConsecutiveFailures)
	}
	if len(res.Messages) != 3 || res.Messages[0].Kind != MsgSummary || res.Messages[1].UUID != "u7" || res.Messages[2].UUID != "a7" {
		t.Fatalf("messages after compaction: %+v", res.Messages)
	}
	if len(hook.got) != 14 || hook.got[0].UUID != "u0" || hook.got[13].UUID != "a6" {
		t.Errorf("flush hook got %d messages", len(hook.got))
	}
	sum := res.Messages[0].Blocks[0].Text
	for _, want := range []string{SummaryPreamble, "User requests:", "request 0: add a flag", "Decisions:", "I will use a bool flag instead of an env var"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	recs := scanRecords(t, res.Records)
	if len(recs) != 3 {
		t.Fatalf("%d records", len(recs))
	}
	b, s, lp := recs[0], recs[1], recs[2]
	c := b.Compact
	if !b.IsCompactBoundary() || b.ParentUUID != "" || b.LogicalParentUUID != "a7" || c.Trigger != "auto" ||
		*c.PreTokens != int(last.Before) || *c.PostTokens != int(last.After) || *c.CumulativeDroppedTokens != 100+int(last.Freed) ||
		c.PreservedSegment == nil || c.PreservedSegment.HeadUUID != "u7" || c.PreservedSegment.TailUUID != "a7" ||
		c.PreservedSegment.AnchorUUID != s.UUID || b.SessionID != "sess" || b.Version != "2.1.330" {
		t.Errorf("boundary %+v meta %+v", b, c)
	}
	if s.ParentUUID != b.UUID || !s.IsCompactSummary || !s.IsVisibleInTranscriptOnly || s.Message.Content[0].Text != sum {
		t.Errorf("summary record %+v", s)
	}
	if lp.Type != model.RecordLastPrompt || lp.LeafUUID != s.UUID || lp.LastPrompt != "request 7: add a flag" {
		t.Errorf("last-prompt %+v", lp)
	}
	if !strings.HasPrefix(string(res.Records[0]), `{"parentUuid":null,"logicalParentUuid":"a7","isSidechain":false,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","uuid":`) {
		t.Errorf("boundary not written the client's way: %s", res.Records[0])
	}
}

func TestPipelineCircuitBreaker(t *testing.T) {
	cfg := SmallConfig()
	cfg.Summarizer = failingSummarizer{}
	cfg.CollapseProtectTail = 100
	st := &State{}
	in := Input{Messages: BigConversation(8)}
	for i := 1; i <= 4; i++ {
		res, _ := Run(in, cfg, st, enginetest.Now)
		last := res.Stages[len(res.Stages)-1]
		if res.Fits || last.Acted {
			t.Fatalf("run %d: a failing summarizer compacted", i)
		}
		want := "summarizer failed"
		if i == 4 {
			want = "circuit breaker open"
		}
		if !strings.Contains(last.Detail, want) {
			t.Errorf("run %d: detail %q, want %q", i, last.Detail, want)
		}
	}
	if st.ConsecutiveFailures != 3 {
		t.Errorf("failures %d, want 3 (the open breaker does not count)", st.ConsecutiveFailures)
	}
}

func TestRecoverPromptTooLong(t *testing.T) {
	cfg := SmallConfig()
	cfg.CollapseSpan, cfg.CollapseProtectTail = 4, 2

	// Staged folds are enough: no compaction.
	st := &State{}
	msgs := BigConversation(10) // about 70000 tokens: over the 52000 effective window
	st.Collapse.stage(msgs, cfg)
	res, err := RecoverPromptTooLong(Input{Messages: msgs}, cfg, st, enginetest.Now)
	if err != nil || StageNames(res) != "context-collapse*" || res.After > smallWindow.Effective() {
		t.Errorf("drain: err %v stages %q after %d", err, StageNames(res), res.After)
	}

	// Nothing staged: one reactive compact, even with the breaker open.
	st = &State{ConsecutiveFailures: 3}
	res, err = RecoverPromptTooLong(Input{Messages: msgs}, cfg, st, enginetest.Now)
	if err != nil || StageNames(res) != "context-collapse autocompact*" {
		t.Errorf("reactive: err %v stages %q", err, StageNames(res))
	}

	// The system prompt alone is over the window: the reactive compact
	// runs once, and the recovery fails with prompt_too_long.
	huge := []Msg{Prompt("u0", strings.Repeat("a", 300000)), Answer("a0", "ok")}
	res, err = RecoverPromptTooLong(Input{Messages: huge, System: 60000}, cfg, &State{}, enginetest.Now)
	if !errors.Is(err, ErrPromptTooLong) || StageNames(res) != "context-collapse autocompact*" || res.Fits {
		t.Errorf("err %v stages %q, want prompt_too_long after one reactive compact", err, StageNames(res))
	}
}

// A stage that would grow the context is undone, records and all.
func TestPipelineUndoesAGrowingStage(t *testing.T) {
	cfg := SmallConfig()
	p := &pipelineRun{cfg: cfg, st: &State{}, limit: 10}
	grow := stage{StageSnip, func(p *pipelineRun, msgs []Msg) ([]Msg, StageResult) {
		p.recs = append(p.recs, []byte(`{"type":"x"}`))
		return append(cloneMsgs(msgs), Prompt("extra", strings.Repeat("y", 4000))), StageResult{Acted: true}
	}}
	in := []Msg{Prompt("u", strings.Repeat("x", 400))}
	res, _ := p.runStages([]stage{grow}, in)
	s := res.Stages[0]
	if s.Acted || s.Freed != 0 || s.After != s.Before || !strings.HasPrefix(s.Detail, "undone") ||
		len(res.Records) != 0 || !reflect.DeepEqual(res.Messages, in) {
		t.Errorf("growing stage kept: %+v, %d records, %d messages", s, len(res.Records), len(res.Messages))
	}
}

func (h *recordingHook) BeforeCompact(msgs []Msg) error { h.got = msgs; return nil }

func (failingSummarizer) Summarize([]Msg) (string, error) { return "", errors.New("model unavailable") }
