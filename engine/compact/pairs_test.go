package compact

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// toolUse is an assistant message holding one or more tool calls.
func toolUse(uuid string, ids ...string) Msg {
	m := Msg{UUID: uuid, Kind: MsgAnswer, Line: 1}
	for _, id := range ids {
		b := TextBlock(model.BlockToolUse, `{"command":"make test"}`)
		b.ToolUseID, b.ToolName = id, "Bash"
		m.Blocks = append(m.Blocks, b)
	}
	return m
}

// pairedMsgs makes a conversation whose every tool_result follows its
// tool_use, in the shapes the client writes: one record per content block,
// so parallel calls are several answer records and then several result
// records (or, as the API sends them, one message with several results).
func pairedMsgs(r *rand.Rand, n int) []Msg {
	tools := []string{"Read", "Bash", "Grep", "Edit", "WebFetch"}
	var msgs []Msg
	t := 0
	for len(msgs) < n {
		i := len(msgs)
		switch r.IntN(5) {
		case 0:
			msgs = append(msgs, Prompt(fmt.Sprint("p", i), fmt.Sprintf("request %d %s", i, strings.Repeat("w ", r.IntN(3000)))))
		case 1:
			msgs = append(msgs, Answer(fmt.Sprint("a", i), fmt.Sprintf("I will fix %d. %s", i, strings.Repeat("z", r.IntN(20000)))))
		default:
			k := 1 + r.IntN(3)
			var ids []string
			for range k {
				t++
				ids = append(ids, fmt.Sprint("toolu_", t))
			}
			together := r.IntN(3) == 0
			if together {
				msgs = append(msgs, toolUse(fmt.Sprint("c", i), ids...))
			} else {
				for j, id := range ids {
					msgs = append(msgs, toolUse(fmt.Sprintf("c%d.%d", i, j), id))
				}
			}
			var res Msg
			for j, id := range ids {
				m := result(fmt.Sprintf("r%d.%d", i, j), tools[r.IntN(len(tools))], id, r.IntN(60000))
				if !together && r.IntN(2) == 0 {
					msgs = append(msgs, m)
					continue
				}
				res.UUID, res.Kind, res.Line = m.UUID, MsgToolResult, 1
				res.Blocks = append(res.Blocks, m.Blocks...)
			}
			if len(res.Blocks) > 0 {
				msgs = append(msgs, res)
			}
		}
	}
	return msgs
}

// checkPairs fails when a visible tool_result has no tool_use before it,
// or a tool_use whose result the input holds has lost it.
func checkPairs(t *testing.T, what string, input, visible []Msg) {
	t.Helper()
	answered := map[string]bool{}
	for _, m := range input {
		for _, b := range m.Blocks {
			if b.Type == model.BlockToolResult {
				answered[b.ToolUseID] = true
			}
		}
	}
	used, resulted := map[string]bool{}, map[string]bool{}
	for i, m := range visible {
		for _, b := range m.Blocks {
			switch b.Type {
			case model.BlockToolUse:
				used[b.ToolUseID] = true
			case model.BlockToolResult:
				if !used[b.ToolUseID] {
					t.Fatalf("%s: message %d (%s) holds the result of %s, whose tool_use is not before it", what, i, m.UUID, b.ToolUseID)
				}
				resulted[b.ToolUseID] = true
			}
		}
	}
	for id := range used {
		if answered[id] && !resulted[id] {
			t.Fatalf("%s: the tool_use %s is visible but its result is not", what, id)
		}
	}
}

// pipelineStagesFor runs the first k stages of the pipeline with the
// runner RunPipeline uses, so every intermediate state can be checked.
func pipelineStagesFor(in Input, cfg Config, st *State, k int) Result {
	p := newRun(in, cfg, st, enginetest.Now, cfg.Window.AutocompactAt())
	res, _ := p.runStages(pipelineStages()[:k], in.Messages)
	return res
}

// After every stage, and after prompt-too-long recovery, no visible
// tool_result lacks its tool_use and no answered tool_use lacks its result.
func TestPipelineKeepsToolPairsProperty(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 8))
	for iter := range testenv.Size(t, 400, 100) {
		cfg, in := randomInput(r, pairedMsgs)
		checkPairs(t, fmt.Sprintf("iter %d: input", iter), in.Messages, in.Messages)
		for k := 1; k <= len(pipelineStages()); k++ {
			c := cfg
			c.NewUUID = seqUUIDs()
			res := pipelineStagesFor(in, c, &State{}, k)
			checkPairs(t, fmt.Sprintf("iter %d: after %d stages (%s)", iter, k, StageNames(res)), in.Messages, res.Messages)
		}
		st := &State{}
		st.Collapse.stage(in.Messages, cfg)
		res, _ := RecoverPromptTooLong(in, cfg, st, enginetest.Now)
		checkPairs(t, fmt.Sprintf("iter %d: recovery (%s)", iter, StageNames(res)), in.Messages, res.Messages)
	}
}

// With the paired conversations too, undoing the collapse gives back
// exactly the input, before and after draining the staged folds.
func TestCollapseUndoKeepsPairsProperty(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 10))
	folded := 0
	for iter := range testenv.Size(t, 300, 100) {
		cfg := randomConfig(r)
		in := Input{Messages: pairedMsgs(r, 5+r.IntN(80))}
		st := &State{}
		p := &pipelineRun{cfg: cfg, st: st, in: in, limit: cfg.Window.AutocompactAt()}
		out, _ := p.collapse(in.Messages)
		checkPairs(t, fmt.Sprintf("iter %d: collapse", iter), in.Messages, out)
		if got := st.Collapse.Expand(out); !reflect.DeepEqual(got, in.Messages) {
			t.Fatalf("iter %d: expand gave %d messages for %d", iter, len(got), len(in.Messages))
		}
		drained, _ := p.drainCollapses(out)
		checkPairs(t, fmt.Sprintf("iter %d: drain", iter), in.Messages, drained)
		if got := st.Collapse.Expand(drained); !reflect.DeepEqual(got, in.Messages) {
			t.Fatalf("iter %d: expand after drain differs", iter)
		}
		folded += len(st.Collapse.Log)
	}
	if folded == 0 {
		t.Fatal("no fold was committed: the property was never exercised")
	}
}

// A span ending between a call and its result is shrunk to end before
// the call; a pair longer than the span makes the span grow to hold it.
func TestCollapseSpanBoundaries(t *testing.T) {
	big := func(id string) Msg { return Prompt(id, strings.Repeat("detail ", 3000)) }
	cases := []struct {
		name  string
		msgs  []Msg
		span  int
		spans [][]string // uuids of each staged span
	}{
		{"shrunk before the call",
			[]Msg{big("p0"), big("p1"), toolUse("c2", "t1"), result("r3", "Bash", "t1", 20000), big("p4"), big("p5"), big("tail")},
			3, [][]string{{"p0", "p1"}, {"c2", "r3", "p4"}}},
		{"parallel calls split over records",
			[]Msg{big("p0"), toolUse("c1", "t1"), toolUse("c2", "t2"), result("r3", "Bash", "t1", 20000), result("r4", "Bash", "t2", 20000), big("p5"), big("tail")},
			3, [][]string{{"p0"}, {"c1", "c2", "r3", "r4"}}},
		{"extended to hold a long pair",
			[]Msg{toolUse("c0", "t1"), big("p1"), big("p2"), result("r3", "Bash", "t1", 20000), big("p4"), big("p5"), big("tail")},
			2, [][]string{{"c0", "p1", "p2", "r3"}, {"p4", "p5"}}},
	}
	for _, c := range cases {
		cfg := SmallConfig()
		cfg.CollapseSpan, cfg.CollapseProtectTail = c.span, 1
		var s CollapseStore
		s.stage(c.msgs, cfg)
		var got [][]string
		for _, sc := range s.Staged {
			var ids []string
			for _, m := range sc.Originals {
				ids = append(ids, m.UUID)
			}
			got = append(got, ids)
		}
		if !reflect.DeepEqual(got, c.spans) {
			t.Errorf("%s: spans %q, want %q", c.name, got, c.spans)
		}
	}
}

// A partial compaction whose preserved messages would begin with a
// result keeps its call too (as the client does), or, when the call
// cannot be preserved, summarizes the result with it.
func TestCompactCutKeepsPairs(t *testing.T) {
	cfg := SmallConfig()
	cfg.CollapseProtectTail = 100
	base := BigConversation(6)
	cases := []struct {
		name     string
		tail     []Msg
		preserve int
		first    string // the first preserved message
	}{
		{"extended to the call", []Msg{toolUse("c", "t1"), result("r", "Bash", "t1", 400), Answer("done", "ok")}, 2, "c"},
		{"parallel calls", []Msg{toolUse("c1", "t1"), toolUse("c2", "t2"), result("r1", "Bash", "t1", 400), result("r2", "Bash", "t2", 400), Answer("done", "ok")}, 2, "c1"},
		{"no pair at the cut", []Msg{toolUse("c", "t1"), result("r", "Bash", "t1", 400), Answer("done", "ok")}, 1, "done"},
	}
	for _, c := range cases {
		cfg.PreserveRecent = c.preserve
		in := Input{Messages: append(cloneMsgs(base), c.tail...), Session: SessionInfo{Leaf: "done"}}
		res, err := Run(in, cfg, &State{}, enginetest.Now)
		if err != nil || len(res.Messages) < 2 || res.Messages[0].Kind != MsgSummary {
			t.Fatalf("%s: err %v stages %q", c.name, err, StageNames(res))
		}
		if res.Messages[1].UUID != c.first {
			t.Errorf("%s: preserved from %s, want %s", c.name, res.Messages[1].UUID, c.first)
		}
		checkPairs(t, c.name, in.Messages, res.Messages)
	}
	// The call is a message the pipeline made (it cannot be preserved as
	// one chain with the result): the result goes into the summary.
	cfg.PreserveRecent = 2
	call := toolUse("c", "t1")
	call.Line = 0
	in := Input{Messages: append(cloneMsgs(base), call, result("r", "Bash", "t1", 400), Answer("done", "ok")), Session: SessionInfo{Leaf: "done"}}
	res, _ := Run(in, cfg, &State{}, enginetest.Now)
	if len(res.Messages) != 2 || res.Messages[1].UUID != "done" {
		t.Errorf("synthetic call: kept %d messages after the summary", len(res.Messages)-1)
	}
}

// A fold staged while a call had no result yet is not committed once the
// result has arrived after the span: it would hide the call.
func TestCollapseDropsAStagedFoldThatNowSplitsAPair(t *testing.T) {
	cfg := SmallConfig()
	cfg.CollapseSpan, cfg.CollapseProtectTail = 3, 1
	big := func(id string) Msg { return Prompt(id, strings.Repeat("detail ", 3000)) }
	msgs := []Msg{big("p0"), toolUse("c1", "t9"), big("p2"), big("p3"), big("tail")}
	st := &State{}
	st.Collapse.stage(msgs, cfg)
	if len(st.Collapse.Staged) != 1 || len(st.Collapse.Staged[0].Originals) != 3 {
		t.Fatalf("staged %+v", st.Collapse.Staged)
	}
	later := append(cloneMsgs(msgs), result("r9", "Bash", "t9", 100), big("p5"))
	p := &pipelineRun{cfg: cfg, st: st}
	out, sr := p.drainCollapses(later)
	if sr.Items != 0 || !reflect.DeepEqual(out, later) || len(st.Collapse.Staged) != 0 || len(st.Collapse.Log) != 0 {
		t.Errorf("drain committed %d folds (log %d, staged %d)", sr.Items, len(st.Collapse.Log), len(st.Collapse.Staged))
	}
	// Without the result the same fold is committed.
	st.Collapse.stage(msgs, cfg)
	if out, sr := p.drainCollapses(msgs); sr.Items != 1 || len(out) != 3 {
		t.Errorf("drain without the result: %d folds, %d messages", sr.Items, len(out))
	}
}

// BenchmarkCollapseDrain stages and commits every fold of a 10000-message
// conversation of tool calls, the pair checks included.
func BenchmarkCollapseDrain(b *testing.B) {
	msgs := pairedMsgs(rand.New(rand.NewPCG(1, 1)), 10000)
	cfg := SmallConfig()
	b.ResetTimer()
	for range b.N {
		p := &pipelineRun{cfg: cfg, st: &State{}}
		p.st.Collapse.stage(msgs, cfg)
		if _, sr := p.drainCollapses(msgs); sr.Items == 0 {
			b.Fatal("nothing folded")
		}
	}
}
