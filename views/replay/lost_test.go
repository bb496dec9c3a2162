package replay

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/timeline"
	ctxwindow "github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

// rulesTimeline is engine/ledger's rules-session read as the Replay
// pane's follower reads it (ledger.ScanOptions).
func rulesTimeline(t *testing.T) *timeline.Timeline {
	t.Helper()
	tr, err := model.ReadTranscriptWith(os.DirFS("../../engine/ledger/testdata"), "rules-session.jsonl", ledger.ScanOptions)
	if err != nil {
		t.Fatal(err)
	}
	tl := timeline.Build(tr, ctxwindow.Size200k(), 0)
	return &tl
}

// At a compaction the row counts what it lost and the detail lists each
// item with its turn's line; the ledger is computed once and kept. The
// golden (120×40, first compaction selected) was read by eye: the row
// says "lost 3 rules, 2 files, 1 command, 1 todo, 1 instruction file"
// (cut at the list's width),
// the detail lists r1-r3 (lines 7, 12, 17), legacy.go and round_test.go,
// `ls internal` (ok), the README todo and MEMORY.md, as `replay --lost`
// prints them.
func TestLostAtCompaction(t *testing.T) {
	tl := rulesTimeline(t)
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(120, 40)
	m = openTimeline(t, m, tl)
	m, _ = press(t, m, "[", "[")
	s, _ := m.steps.Selected()
	if s.Kind != timeline.StepBoundary || tl.Boundaries[s.Boundary].Line != 19 {
		t.Fatalf("[ [ selected %+v", s)
	}
	got := screen(m)
	for _, want := range []string{"⟲ compact auto 167k→14k · lost 3 rules, 2 files", "Lost at this compaction: 8 items", "▸ r1   rule    line 7", "Never mock the database", "  c1   command line 10    ls internal (ok)"} {
		if !strings.Contains(got, want) {
			t.Errorf("screen lacks %q:\n%s", want, got)
		}
	}
	// The first compaction has responses after it: kept. The second is
	// the file's last record but a prompt: lines may still be appended
	// that it reads (re-attachments), so it is not kept yet.
	if len(m.lost.byID) != 1 {
		t.Errorf("cached ledgers = %d, want 1", len(m.lost.byID))
	}
	golden.RequireEqual(t, []byte(got))

	// } selects the next keepable item (rules and todos), s asks the shell
	// to keep it; the help offers the three keys only here.
	if h := helpKeys(m); !strings.Contains(h, "} { o s") {
		t.Errorf("help at a compaction with lost rules: %q", h)
	}
	m, _ = press(t, m, "}")
	if !strings.Contains(screen(m), "▸ r2") {
		t.Errorf("} did not select r2:\n%s", screen(m))
	}
	_, out := press(t, m, "s")
	if len(out) != 1 {
		t.Fatalf("s sent %#v", out)
	}
	if k, ok := out[0].(msgs.KeepLost); !ok || k.Item.ID != "r2" || k.Session != tl.Session {
		t.Errorf("s sent %#v", out[0])
	}
	// A file is selected but cannot be kept: the status says why.
	m, _ = press(t, m, "}", "}")
	if _, out := press(t, m, "s"); len(out) != 1 || !out[0].(msgs.Status).Error || !strings.Contains(out[0].(msgs.Status).Text, "f1 is a file") {
		t.Errorf("s on a file sent %#v", out)
	}
	m, _ = press(t, m, "h")
	if h := helpKeys(m); strings.Contains(h, "} { o s") {
		t.Errorf("help on a turn offers the keep keys: %q", h)
	}
}
