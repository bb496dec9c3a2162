package timeline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// Figures checked by hand and with Python over the same file: two manual
// compactions (lines 28 and 69), four responses with the usage below, the
// summaries are 857 and 1080 bytes, the preserved message 15 bytes.
func TestTimelineRealPartialCompactions(t *testing.T) {
	tr := enginetest.ReadReal(t, "transcript-partial-compactions.jsonl")
	tl := Build(tr, window.Size200k(), 687786)
	if tl.Session != "fedcb1e2-dbe4-5555-90b5-52df88de5bed" || tl.Records != 101 {
		t.Errorf("session %s records %d", tl.Session, tl.Records)
	}
	if len(tl.Boundaries) != 2 {
		t.Fatalf("%d boundaries", len(tl.Boundaries))
	}
	b1, b2 := tl.Boundaries[0], tl.Boundaries[1]
	if b1.Line != 28 || b1.Trigger != model.TriggerManual || *b1.PreTokens != 19110 || *b1.PostTokens != 2550 ||
		b1.SummaryUUID != "226669b9-e284-40d1-a050-6a83d4bcc1fc" || b1.SummaryBytes != 857 || b1.Preserved != nil {
		t.Errorf("first boundary %+v", b1)
	}
	if b2.Line != 69 || *b2.PostTokens != 2610 || b2.SummaryBytes != 1080 || b2.Preserved == nil || b2.PreservedBroken != "" {
		t.Errorf("second boundary %+v", b2)
	}
	wantCtx := []window.Tokens{19099, 19452, 19484, 19538}
	if len(tl.Turns) != len(wantCtx) {
		t.Fatalf("%d turns", len(tl.Turns))
	}
	for i, w := range wantCtx {
		if tl.Turns[i].ContextTokens != w || tl.Turns[i].OutputTokens != 11 || tl.Turns[i].Level != window.LevelOK {
			t.Errorf("turn %d %+v, want context %d", i, tl.Turns[i], w)
		}
	}
	var kinds string
	for _, s := range tl.Steps {
		kinds += string(s.Kind[0])
	}
	if kinds != "tbttbt" {
		t.Errorf("step kinds %s, want turn boundary turn turn boundary turn", kinds)
	}
	// The system prompt with tools: the larger prompt snapshot is 57321
	// bytes as written (Python re-serialized it and found it in the line),
	// 14331 tokens, at every step, the first turn included (its snapshot
	// with tools is written just after the response).
	for i, s := range tl.Steps {
		if s.Context.System != 14331 {
			t.Errorf("step %d system %d, want 14331", i, s.Context.System)
		}
	}
	// After each compaction the model sees only the summary (plus the
	// preserved message after the second): 857 bytes → 215 tokens;
	// 1080 + 15 bytes → 270 + 4.
	if c := tl.Steps[1].Context; c.Conversation != 215 || c.Total() != 14331+215 || tl.Steps[1].Measured != 2550 {
		t.Errorf("first boundary step %+v measured %d", c, tl.Steps[1].Measured)
	}
	if c := tl.Steps[4].Context; c.Conversation != 274 || c.Total() != 14331+274 {
		t.Errorf("second boundary step %+v", c)
	}
	// Turn 1: a 26-byte prompt and a 15-byte answer (7 + 4 tokens), the
	// instructions attachment's CLAUDE.md files (58) and MEMORY.md (6275).
	c := tl.Steps[0].Context
	if c.Conversation != 11 || c.Memory != 6275 || c.ToolResults != 0 || c.Instructions < 58 {
		t.Errorf("first turn context %+v", c)
	}
	if tl.Resume.FromBoundary != b2.UUID || len(tl.Resume.Messages) != 19 {
		t.Errorf("resume %+v", tl.Resume)
	}
	// State at the first boundary: the boundary and its summary only.
	st := tl.State(1)
	if ids(st.Messages) != b1.UUID+" "+b1.SummaryUUID || st.LeafSource != LeafGiven {
		t.Errorf("state 1: %q", ids(st.Messages))
	}
	// State at turn 1 has no boundary and ends at the turn's record.
	st = tl.State(0)
	if st.FromBoundary != "" || st.Messages[len(st.Messages)-1].UUID != tl.Turns[0].UUID {
		t.Errorf("state 0 from %q ends %s", st.FromBoundary, ids(st.Messages[len(st.Messages)-1:]))
	}
	if len(tl.State(99).Messages) != 0 {
		t.Error("state out of range has messages")
	}
}

func TestTimelineMultiBlockResponsesAndLevels(t *testing.T) {
	usage := func(in int) string {
		return `,"usage":{"input_tokens":` + itoa(in) + `,"cache_read_input_tokens":1000,"cache_creation_input_tokens":0,"output_tokens":5}`
	}
	s := enginetest.Line("user", "u1", "", `,"message":{"role":"user","content":"hello"}`) +
		enginetest.Line("assistant", "a1", "u1", `,"requestId":"r1","message":{"id":"m1","content":[{"type":"text","text":"x"}]`+usage(150000)+`}`) +
		enginetest.Line("assistant", "a1b", "a1", `,"requestId":"r1","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]`+usage(150000)+`}`) +
		enginetest.Line("user", "u2", "a1b", `,"message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"`+repeat("z", 4000)+`"}]}`) +
		enginetest.Line("assistant", "a2", "u2", `,"requestId":"r2","message":{"id":"m2","content":[{"type":"text","text":"y"}]`+usage(170000)+`}`) +
		enginetest.Line("system", "mc", "a2", `,"subtype":"microcompact_boundary","microcompactMetadata":{"trigger":"auto","preTokens":171000,"tokensSaved":25000}`) +
		enginetest.Line("assistant", "s1", "a2", `,"isSidechain":true,"requestId":"r3","message":{"id":"m3","content":[]`+usage(10)+`}`)
	tl := Build(enginetest.BuildTranscript(t, s), window.Size200k(), 0)
	if len(tl.Turns) != 2 {
		t.Fatalf("turns %+v", tl.Turns)
	}
	// 200k window: effective 180000, warning 147000, autocompact 167000, blocked 177000.
	if tl.Turns[0].UUID != "a1b" || tl.Turns[0].ContextTokens != 151000 || tl.Turns[0].Level != window.LevelWarning {
		t.Errorf("turn 0 %+v", tl.Turns[0])
	}
	if tl.Turns[1].ContextTokens != 171000 || tl.Turns[1].Level != window.LevelAutocompact {
		t.Errorf("turn 1 %+v", tl.Turns[1])
	}
	if len(tl.Steps) != 3 || tl.Steps[0].Leaf != "a1b" || tl.Steps[2].Kind != StepBoundary {
		t.Errorf("steps %+v", tl.Steps)
	}
	if b := tl.Boundaries[0]; b.Kind != BoundaryMicrocompact || *b.TokensSaved != 25000 {
		t.Errorf("microcompact boundary %+v", b)
	}
	// The 4000-byte tool result is 1000 tokens of tool results at turn 2.
	if c := tl.Steps[1].Context; c.ToolResults != 1000 {
		t.Errorf("turn 2 context %+v", c)
	}
	if tl.Thresholds != (Thresholds{Effective: 180000, Warning: 147000, Autocompact: 167000, Blocked: 177000}) {
		t.Errorf("thresholds %+v", tl.Thresholds)
	}
}

func TestTimelineBranchesSidechainsAndBrokenSegment(t *testing.T) {
	s := enginetest.Line("user", "u1", "", `,"message":{"content":"`+repeat("a", 400)+`"}`) +
		enginetest.Line("assistant", "a1", "u1", "") +
		enginetest.Line("user", "u2", "a1", "") +
		enginetest.Line("user", "u2b", "a1", "") +
		enginetest.Line("user", "sc", "u2b", `,"isSidechain":true,"agentId":"x"`) +
		enginetest.Boundary("B", "u2b", enginetest.Segment("u2b", "S", "nope")) +
		enginetest.Line("user", "S", "B", `,"isCompactSummary":true,"message":{"content":"`+repeat("s", 40)+`"}`)
	tr := enginetest.BuildTranscript(t, s)
	tl := Build(tr, window.Size200k(), 0)
	if len(tl.Branches) != 1 || tl.Branches[0].Parent != "a1" || len(tl.Branches[0].Children) != 2 {
		t.Errorf("branches %+v", tl.Branches)
	}
	if len(tl.Sidechains) != 1 || tl.Sidechains[0].AgentID != "x" {
		t.Errorf("sidechains %+v", tl.Sidechains)
	}
	if tl.Boundaries[0].PreservedBroken == "" {
		t.Error("broken segment not reported")
	}
	// Broken links: the model sees the full history, 400 bytes (100
	// tokens) of it before the boundary plus the 40-byte summary (10).
	if c := tl.Steps[0].Context; c.Conversation != 110 {
		t.Errorf("boundary step context %+v", c)
	}
	if !tl.Resume.Fallback || ids(tl.Resume.Messages) != "u1 a1 u2b B S" {
		t.Errorf("resume %+v %q", tl.Resume, ids(tl.Resume.Messages))
	}
}

// A 2.1.331 compact summary may carry earlierMessages, which the client
// sends after the summary: the resumed context counts them. The real
// transcript is read as it is and again with its first summary given two
// earlier messages (a copy in memory; the fixture is not edited), and the
// user rows a rowSource.
func TestTimelineEarlierMessagesCount(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(enginetest.RealDir, "transcript-partial-compactions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"isCompactSummary": true`) })
	if i < 0 {
		t.Fatal("no compact summary in the fixture")
	}
	earlier := `"earlierMessages":[{"kind":"user","text":"` + strings.Repeat("u", 400) + `"},{"kind":"reply","text":"` + strings.Repeat("é", 396) + `"}],"rowSource":"local",`
	lines[i] = "{" + earlier + strings.TrimPrefix(lines[i], "{")
	tr, err := model.ReadTranscriptWith(fstest.MapFS{"t.jsonl": {Data: []byte(strings.Join(lines, "\n"))}}, "t.jsonl", model.ScanOptions{Content: true, KeepText: true})
	if err != nil {
		t.Fatal(err)
	}
	var summary *model.Record
	for _, r := range tr.Records {
		if r.IsCompactSummary {
			summary = r
			break
		}
	}
	if summary == nil || len(summary.EarlierMessages) != 2 || summary.EarlierMessages[1].Kind != "reply" || summary.RowSource != model.RowLocal || summary.EarlierChars() != 796 {
		t.Fatalf("summary decoded as %+v", summary)
	}
	base := Build(enginetest.ReadReal(t, "transcript-partial-compactions.jsonl"), window.Size200k(), 687786)
	with := Build(tr, window.Size200k(), 687786)
	// 400 + 396 characters: 100 + 99 tokens more, from the boundary on
	// until the second compaction replaces the summary.
	if d := with.Steps[1].Context.Conversation - base.Steps[1].Context.Conversation; d != 199 {
		t.Errorf("boundary step conversation +%d, want +199", d)
	}
	if d := with.Steps[2].Context.Total() - base.Steps[2].Context.Total(); d != 199 {
		t.Errorf("next turn +%d, want +199", d)
	}
	if d := with.Steps[4].Context.Total() - base.Steps[4].Context.Total(); d != 0 {
		t.Errorf("after the second compaction +%d, want 0", d)
	}
}
