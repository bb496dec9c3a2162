package replay

import (
	"os"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/timeline"
	ctxwindow "github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/style"
)

// A subagent's own transcript that compacted (engine/ledger's
// subagent-compacted.jsonl, written by hand in the client's shape; see
// cli's TestReplayLostAllFindsACompactedSubagent), opened in the pane as
// the session list opens an [subagent] row: its compaction row counts
// what `replay --lost` lists (1 file, 1 command), the detail lists
// round_half.go and the failed go test, and o opens the file's read at
// its turn (line 6).
func TestLostInASubagentTranscript(t *testing.T) {
	tr, err := model.ReadTranscriptWith(os.DirFS("../../engine/ledger/testdata"), "subagent-compacted.jsonl", ledger.ScanOptions)
	if err != nil {
		t.Fatal(err)
	}
	tl := timeline.Build(tr, ctxwindow.Size200k(), 0)
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(120, 40)
	m = openTimeline(t, m, &tl)
	m, _ = press(t, m, "[")
	s, _ := m.steps.Selected()
	if s.Kind != timeline.StepBoundary || tl.Boundaries[s.Boundary].Line != 9 {
		t.Fatalf("[ selected %+v; want the compaction at line 9", s)
	}
	got := screen(m)
	for _, w := range []string{"· lost 1 file, 1 command", "Lost at this compaction: 2 items", "▸ f1   file    line 6", "c1   command line 4"} {
		if !strings.Contains(got, w) {
			t.Errorf("screen lacks %q:\n%s", w, got)
		}
	}
	m, _ = press(t, m, "o")
	if s, _ := m.steps.Selected(); s.Kind != timeline.StepTurn || s.Line < 6 || s.Line >= 9 {
		t.Errorf("o selected %+v; want the turn holding line 6", s)
	}
	if got := screen(m); !strings.Contains(got, "⟲ lost 1:f1 at line 6") || !strings.Contains(got, "▶ assistant [Read]") {
		t.Errorf("after o:\n%s", got)
	}
}
