package compact

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// The preview is cut at 2000 bytes; a cut inside a multi-byte character
// would hand the model (and a written summary) invalid UTF-8.
func TestPipelineBudgetPreviewKeepsWholeCharacters(t *testing.T) {
	big := result("r1", "Bash", "toolu_big", 0)
	text := "x" + strings.Repeat("é", 160000) // byte 2000 falls inside an é; 40001 tokens
	big.Blocks[0] = textResult("toolu_big", text)
	in := Input{Messages: []Msg{Prompt("u", "run it"), big}}
	res, _ := Run(in, SmallConfig(), &State{}, enginetest.Now)
	b := res.Messages[1].Blocks[0]
	if b.Edit != EditBudgeted {
		t.Fatalf("block not budgeted: stages %q", StageNames(res))
	}
	head, _, _ := strings.Cut(b.Text, "\n\n[Output too large")
	if !utf8.ValidString(b.Text) || len(head) != 1999 || !strings.HasPrefix(text, head) {
		t.Errorf("preview head is %d bytes, valid UTF-8 %v; want the 1999 bytes before the cut character", len(head), utf8.ValidString(b.Text))
	}
}

// textResult is a tool result holding text, sized the way the model's
// reader sizes it.
func textResult(id, text string) Block {
	b := TextBlock(model.BlockToolResult, text)
	b.ToolUseID, b.ToolName = id, "Bash"
	return b
}

// The limits are the client's: 50000 characters per result and 200000
// per message, characters being UTF-16 code units. CJK text is three
// bytes a character and an emoji four bytes for two units, so a result
// just under the limit in characters is far over it in bytes.
func TestBudgetLimitsCountCharacters(t *testing.T) {
	cases := []struct {
		name     string
		results  []string
		budgeted []bool
	}{
		{"cjk 49999 chars (149997 bytes) kept", []string{strings.Repeat("中", 49999)}, []bool{false}},
		{"cjk 50000 chars kept", []string{strings.Repeat("中", 50000)}, []bool{false}},
		{"cjk 50001 chars cut", []string{strings.Repeat("中", 50001)}, []bool{true}},
		{"emoji 49998 units (99996 bytes) kept", []string{strings.Repeat("😀", 24999)}, []bool{false}},
		{"emoji 50002 units cut", []string{strings.Repeat("😀", 25001)}, []bool{true}},
		{"ascii 50001 cut", []string{strings.Repeat("a", 50001)}, []bool{true}},
		// 4 × 49000 = 196000 characters (588000 bytes) in one message: under 200000.
		{"message of cjk under 200000 chars kept", slices.Repeat([]string{strings.Repeat("字", 49000)}, 4), []bool{false, false, false, false}},
		// A fifth makes 245000: the largest (the last, one longer) is cut.
		{"message over 200000 chars: largest cut", append(slices.Repeat([]string{strings.Repeat("字", 49000)}, 4), strings.Repeat("字", 49001)),
			[]bool{false, false, false, false, true}},
	}
	for _, c := range cases {
		m := Msg{UUID: "r", Kind: MsgToolResult, Line: 1}
		for i, text := range c.results {
			m.Blocks = append(m.Blocks, textResult(fmt.Sprint("t", i), text))
		}
		p := &pipelineRun{cfg: SmallConfig(), st: &State{}}
		out, _ := p.budget([]Msg{m})
		for i, b := range out[0].Blocks {
			if got := b.Edit == EditBudgeted; got != c.budgeted[i] {
				t.Errorf("%s: result %d budgeted %v, want %v", c.name, i, got, c.budgeted[i])
			}
			if b.Edit == EditBudgeted && !strings.Contains(b.Text, fmt.Sprintf("(%d characters)", jsstr.UTF16Len(c.results[i]))) {
				t.Errorf("%s: placeholder does not give the size in characters: %q", c.name, b.Text[len(b.Text)-120:])
			}
		}
	}
}

// The preview stays 2000 bytes, cut on a character boundary, for
// three-byte and four-byte characters alike.
func TestBudgetPreviewIsBytesOnARuneBoundary(t *testing.T) {
	for _, unit := range []string{"中", "😀", "é"} {
		text := strings.Repeat(unit, 60000)
		p := &pipelineRun{cfg: SmallConfig(), st: &State{}}
		out, _ := p.budget([]Msg{{UUID: "r", Kind: MsgToolResult, Line: 1, Blocks: []Block{textResult("t", text)}}})
		b := out[0].Blocks[0]
		head, _, _ := strings.Cut(b.Text, "\n\n[Output too large")
		// The longest whole-character prefix of at most 2000 bytes.
		want := 2000 / len(unit) * len(unit)
		if b.Edit != EditBudgeted || len(head) != want || !strings.HasPrefix(text, head) || !utf8.ValidString(b.Text) {
			t.Errorf("%s: preview head %d bytes, want %d", unit, len(head), want)
		}
		if b.Chars != jsstr.UTF16Len(b.Text) || b.Bytes != len(b.Text) {
			t.Errorf("%s: preview sized %d chars %d bytes, text has %d and %d", unit, b.Chars, b.Bytes, jsstr.UTF16Len(b.Text), len(b.Text))
		}
		if orig := p.st.SideStore["t"]; orig.Text != text {
			t.Errorf("%s: side store lost the original", unit)
		}
	}
}

// Read from a transcript, a CJK result of 49999 characters passes the
// per-result limit, where counting its 149997 bytes would have cut it.
func TestBudgetOnTranscriptWithCJK(t *testing.T) {
	for _, n := range []int{49999, 50001} {
		body := strings.Repeat("中", n)
		src := enginetest.Line("user", "u1", "", `,"message":{"role":"user","content":"read it"}`) +
			enginetest.Line("assistant", "a1", "u1", `,"message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]}`) +
			enginetest.Line("user", "r1", "a1", `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"`+body+`"}]}`)
		tr := enginetest.BuildTranscript(t, src)
		in := InputFromResume(tr, timeline.ResumeTranscript(tr, timeline.ResumeOptions{}))
		p := &pipelineRun{cfg: SmallConfig(), st: &State{}}
		out, sr := p.budget(in.Messages)
		if want := n > 50000; (sr.Items == 1) != want || (out[2].Blocks[0].Edit == EditBudgeted) != want {
			t.Errorf("%d characters: budgeted %d results, want cut %v", n, sr.Items, want)
		}
	}
}
