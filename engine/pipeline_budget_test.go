package engine

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The preview is cut at 2000 bytes; a cut inside a multi-byte character
// would hand the model (and a written summary) invalid UTF-8.
func TestPipelineBudgetPreviewKeepsWholeCharacters(t *testing.T) {
	big := result("r1", "Bash", "toolu_big", 0)
	text := "x" + strings.Repeat("é", 80000) // byte 2000 falls inside an é
	big.Blocks[0].Text, big.Blocks[0].Bytes = text, len(text)
	in := Input{Messages: []Msg{prompt("u", "run it"), big}}
	res, _ := RunPipeline(in, testConfig(), &PipelineState{}, testNow)
	b := res.Messages[1].Blocks[0]
	if b.Edit != EditBudgeted {
		t.Fatalf("block not budgeted: stages %q", stageNames(res))
	}
	head, _, _ := strings.Cut(b.Text, "\n\n[Output too large")
	if !utf8.ValidString(b.Text) || len(head) != 1999 || !strings.HasPrefix(text, head) {
		t.Errorf("preview head is %d bytes, valid UTF-8 %v; want the 1999 bytes before the cut character", len(head), utf8.ValidString(b.Text))
	}
}
