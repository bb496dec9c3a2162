package compact

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// randomMsgs makes a conversation of n messages with results of varied
// tools and sizes, the shape the stages act on.
func randomMsgs(r *rand.Rand, n int) []Msg {
	tools := []string{"Read", "Bash", "Grep", "Edit", "WebFetch", "Task"}
	// Half the messages are tiny, so folds and summaries can be larger
	// than what they replace and the growth guards get exercised.
	size := func(max int) int {
		if r.IntN(2) == 0 {
			return r.IntN(40)
		}
		return r.IntN(max)
	}
	var msgs []Msg
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("m%d", i)
		switch r.IntN(4) {
		case 0:
			msgs = append(msgs, Prompt(id, fmt.Sprintf("request %d %s", i, strings.Repeat("w ", size(3000)))))
		case 1:
			msgs = append(msgs, Answer(id, fmt.Sprintf("I will fix %d. %s", i, strings.Repeat("z", size(20000)))))
		case 2:
			m := result(id, tools[r.IntN(len(tools))], "t"+id, size(90000))
			m.Blocks[0].IsError = r.IntN(5) == 0
			if r.IntN(6) == 0 {
				m.Blocks[0].Images = 1
			}
			msgs = append(msgs, m)
		default:
			msgs = append(msgs, Msg{UUID: id, Kind: MsgAttachment, Line: 1, Attached: timeline.Context{Instructions: window.Tokens(r.IntN(3000))}})
		}
	}
	return msgs
}

// randomConfig varies every parameter and turns stages off at random, so
// that the later stages (collapse, autocompact) get their turn.
func randomConfig(r *rand.Rand) Config {
	cfg := DefaultConfig(window.Config{ContextWindow: window.Tokens(60000 + r.IntN(60000)), MaxOutputTokens: 32000})
	cfg.SnipProtectHead, cfg.SnipProtectTail = r.IntN(4), r.IntN(10)
	cfg.MicrocompactKeepRecent = r.IntN(5)
	cfg.MicrocompactMinSavings = window.Tokens(r.IntN(30000))
	cfg.CollapseSpan, cfg.CollapseProtectTail = 1+r.IntN(12), r.IntN(12)
	cfg.CollapseSummaryBytes = 50 + r.IntN(2000)
	cfg.PreserveRecent = r.IntN(4)
	if r.IntN(3) == 0 {
		cfg.ToolResultMaxChars, cfg.MessageResultMaxChars = 1<<30, 1<<30
	}
	if r.IntN(3) == 0 {
		cfg.SnipTools = nil
	}
	if r.IntN(3) == 0 {
		cfg.CollapseProtectTail = 1 << 20
	}
	cfg.NewUUID = seqUUIDs()
	return cfg
}

// randomInput is a random configuration and up to 125 messages from gen.
func randomInput(r *rand.Rand, gen func(*rand.Rand, int) []Msg) (Config, Input) {
	cfg := randomConfig(r)
	return cfg, Input{System: window.Tokens(r.IntN(20000)), Messages: gen(r, 5+r.IntN(120)), Session: SessionInfo{Leaf: "leaf"}}
}

func TestPipelineProperties(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range testenv.Size(t, 300, 100) {
		cfg, in := randomInput(r, randomMsgs)
		orig := cloneMsgs(in.Messages)
		st := &State{ConsecutiveFailures: r.IntN(4)}
		res, err := Run(in, cfg, st, enginetest.Now)
		if err != nil {
			t.Fatalf("iter %d: %v", iter, err)
		}
		prev := res.Before
		var micro, compact int
		for _, s := range res.Stages {
			if s.After > s.Before || s.Freed != s.Before-s.After || s.Before != prev {
				t.Fatalf("iter %d: stage %s went %d → %d (freed %d, previous figure %d)", iter, s.Stage, s.Before, s.After, s.Freed, prev)
			}
			prev = s.After
			if s.Acted && s.Stage == StageMicrocompact {
				micro++
			}
			if s.Acted && s.Stage == StageAutocompact && !strings.HasPrefix(s.Detail, "undone") {
				compact++
			}
		}
		if got := in.System + msgTokens(res.Messages); got != res.After {
			t.Fatalf("iter %d: result says %d tokens, messages hold %d", iter, res.After, got)
		}
		if !reflect.DeepEqual(in.Messages, orig) {
			t.Fatalf("iter %d: the input was modified", iter)
		}
		// Boundary records match what the stages did.
		var mb, cb int
		if len(res.Records) > 0 {
			for _, rec := range scanRecords(t, res.Records) {
				if rec.IsMicrocompactBoundary() {
					mb++
				}
				if rec.IsCompactBoundary() {
					cb++
				}
			}
		}
		if mb != micro || cb != compact {
			t.Fatalf("iter %d: %d microcompact records for %d runs, %d compact records for %d", iter, mb, micro, cb, compact)
		}
	}
}

// With every stage but collapse disabled, undoing the collapse gives back
// exactly the input.
func TestCollapseUndoProperty(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for iter := range testenv.Size(t, 300, 100) {
		cfg := randomConfig(r)
		cfg.ToolResultMaxChars, cfg.MessageResultMaxChars = 1<<30, 1<<30
		cfg.SnipTools = nil
		cfg.MicrocompactMinSavings = 1 << 30
		cfg.Summarizer = failingSummarizer{}
		in := Input{Messages: randomMsgs(r, 5+r.IntN(60))}
		st := &State{}
		res, _ := Run(in, cfg, st, enginetest.Now)
		if got := st.Collapse.Expand(res.Messages); !reflect.DeepEqual(got, in.Messages) {
			t.Fatalf("iter %d: expand gave %d messages for %d", iter, len(got), len(in.Messages))
		}
		// Draining the rest and expanding again still restores the input.
		p := &pipelineRun{cfg: cfg, st: st}
		drained, _ := p.drainCollapses(res.Messages)
		if got := st.Collapse.Expand(drained); !reflect.DeepEqual(got, in.Messages) {
			t.Fatalf("iter %d: expand after drain differs", iter)
		}
	}
}

// randomTranscript writes a session with prompts, answers, rewinds,
// sidechains and full or partial compactions, some with broken links.
func randomTranscript(r *rand.Rand) string {
	var sb strings.Builder
	var chain []string // the current branch, oldest first
	n := 0
	next := func() string { n++; return fmt.Sprintf("r%d", n) }
	parent := func() string {
		if len(chain) == 0 {
			return ""
		}
		return chain[len(chain)-1]
	}
	for step := 0; step < 10+r.IntN(60); step++ {
		switch k := r.IntN(10); {
		case k < 5:
			u := next()
			typ := []string{"user", "assistant", "attachment"}[r.IntN(3)]
			sb.WriteString(enginetest.Line(typ, u, parent(), `,"message":{"content":"x"}`))
			chain = append(chain, u)
		case k == 5 && len(chain) > 2: // rewind
			chain = chain[:1+r.IntN(len(chain)-1)]
		case k == 6:
			sb.WriteString(enginetest.Line("user", next(), parent(), `,"isSidechain":true`))
		case k == 7 && len(chain) > 0:
			sb.WriteString(enginetest.LastPrompt(chain[len(chain)-1]))
		case k >= 8 && len(chain) > 0:
			b, s := next(), next()
			pres := ""
			var keep []string
			if r.IntN(2) == 0 && len(chain) > 1 {
				h := r.IntN(len(chain))
				keep = chain[h:]
				head, tail := keep[0], keep[len(keep)-1]
				if r.IntN(4) == 0 {
					tail = "missing"
				}
				pres = enginetest.Segment(head, s, tail)
			}
			sb.WriteString(enginetest.Boundary(b, parent(), pres))
			sb.WriteString(enginetest.Line("user", s, b, `,"isCompactSummary":true`))
			chain = []string{b, s}
		}
	}
	return sb.String()
}

func TestResumeProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for iter := range testenv.Size(t, 500, 150) {
		src := randomTranscript(r)
		tr := enginetest.BuildTranscript(t, src)
		res := timeline.ResumeTranscript(tr, timeline.ResumeOptions{})
		enginetest.AssertAfterBoundary(t, res.FromBoundary, res.Fallback, res.Messages, res.Preserved)
		if res.FromBoundary != "" && !res.Fallback {
			// The chain starts at the newest boundary on the leaf's branch.
			if !res.Messages[0].IsCompactBoundary() {
				t.Fatalf("iter %d: chain starts at %s", iter, res.Messages[0].UUID)
			}
		}
		// Boundary count equals boundary records.
		tl := timeline.Build(tr, window.Size200k(), int64(len(src)))
		if len(tl.Boundaries) != tr.Summary.CompactBoundaries+tr.Summary.MicrocompactBoundaries ||
			len(tl.Boundaries) != strings.Count(src, `"subtype":"compact_boundary"`) {
			t.Fatalf("iter %d: %d boundaries in the timeline, %d in the summary", iter, len(tl.Boundaries), tr.Summary.CompactBoundaries)
		}
		for k := range tl.Steps {
			st := tl.State(k)
			enginetest.AssertAfterBoundary(t, st.FromBoundary, st.Fallback, st.Messages, st.Preserved)
		}
	}
}

// Records the pipeline appends resume to what the pipeline produced: the
// boundary, the summary and the preserved messages.
func TestCompactRecordsResume(t *testing.T) {
	var src strings.Builder
	parent := ""
	for i := 0; i < 12; i++ {
		u, a := fmt.Sprintf("u%d", i), fmt.Sprintf("a%d", i)
		src.WriteString(enginetest.Line("user", u, parent, fmt.Sprintf(`,"sessionId":"s","message":{"role":"user","content":"request %d"}`, i)))
		src.WriteString(enginetest.Line("assistant", a, u, fmt.Sprintf(`,"sessionId":"s","message":{"role":"assistant","content":[{"type":"text","text":"I will do it. %s"}]}`, strings.Repeat("d", 20000))))
		parent = a
	}
	src.WriteString(enginetest.LastPrompt(parent))
	tr := enginetest.BuildTranscript(t, src.String())
	in := InputFromResume(tr, timeline.ResumeTranscript(tr, timeline.ResumeOptions{}))
	if len(in.Messages) != 24 || in.Session.Leaf != "a11" || in.Session.LastPrompt != "request 11" || in.Session.SessionID != "s" {
		t.Fatalf("input %d messages, session %+v", len(in.Messages), in.Session)
	}
	cfg := SmallConfig()
	cfg.PreserveRecent, cfg.CollapseProtectTail = 3, 100
	res, err := Run(in, cfg, &State{}, enginetest.Now)
	if err != nil || !res.Fits || len(res.Records) != 3 {
		t.Fatalf("err %v fits %v records %d (%q)", err, res.Fits, len(res.Records), StageNames(res))
	}
	out := []byte(src.String())
	for _, rec := range res.Records {
		out = append(append(out, rec...), '\n')
	}
	tr2 := enginetest.BuildTranscript(t, string(out))
	r2 := timeline.ResumeTranscript(tr2, timeline.ResumeOptions{})
	var got []string
	for _, m := range r2.Messages {
		got = append(got, m.UUID)
	}
	want := []string{r2.FromBoundary, res.Messages[0].UUID, "a10", "u11", "a11"}
	if r2.Fallback || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("resume of the written file %q (fallback %v: %s), want %q", got, r2.Fallback, r2.FallbackReason, want)
	}
	if !bytes.HasPrefix(out, []byte(src.String())) {
		t.Error("the original lines changed")
	}
	if model.SubtypeCompactBoundary != tr2.Get(r2.FromBoundary).Subtype {
		t.Error("from-boundary is not a compact boundary")
	}
}
