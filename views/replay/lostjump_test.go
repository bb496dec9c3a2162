package replay

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/style"
)

// cliLedger is the ledger `replay --lost --json` prints for the rules
// session (cli's replay --lost calls ledger.Build on the transcript).
func cliLedger(t *testing.T) ledger.Ledger {
	t.Helper()
	tr, err := model.ReadTranscriptWith(os.DirFS("../../engine/ledger/testdata"), "rules-session.jsonl", ledger.ScanOptions)
	if err != nil {
		t.Fatal(err)
	}
	return ledger.Build(tr)
}

// o on a lost item opens the turn it came from: the step whose chain
// holds the item's record (the line and uuid `replay --lost --json`
// gives), its message marked; esc returns to the compaction with the
// same item selected, and a second esc leaves the timeline as before.
// The golden (120×40, r2 opened) was read by eye: the step list's cursor
// is on the turn ending at line 13, the detail starts with "⟲ lost 1:r2
// at line 12 · esc back to the compaction", the rule's sentence and "the
// compaction at line 19 dropped this rule", and the chain marks the user
// message of line 12 with ▶.
func TestOpenLostItemAtItsTurn(t *testing.T) {
	tl := rulesTimeline(t)
	want, ok := cliLedger(t).Boundaries[0].Item("r2")
	if !ok || want.Line != 12 || want.UUID == "" {
		t.Fatalf("the CLI's ledger of the first compaction has no r2 at line 12: %+v", want)
	}
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(120, 40)
	m = openTimeline(t, m, tl)
	if m, _ := press(t, m, "h"); m.LostSelected() {
		t.Error("a lost item is selected on a turn")
	}
	m, _ = press(t, m, "[", "[", "}")
	boundary := m.Step()
	if !m.LostSelected() {
		t.Fatal("no lost item selected at the compaction after }")
	}

	m, _ = press(t, m, "o")
	s, _ := m.steps.Selected()
	if s.Kind != timeline.StepTurn || s.Line < want.Line || s.Line >= 19 {
		t.Fatalf("o selected %+v; want the turn holding line %d, before the compaction at 19", s, want.Line)
	}
	if m.state == nil || m.stateFor != s.Index {
		t.Fatal("o did not compute the state at the item's turn")
	}
	found := false
	for _, r := range m.state.Messages {
		found = found || r.UUID == want.UUID && r.Line == want.Line
	}
	if !found {
		t.Errorf("the chain at the opened step lacks the item's record %s (line %d)", want.UUID, want.Line)
	}
	got := screen(m)
	for _, w := range []string{"⟲ lost 1:r2 at line 12 · esc back to the compaction", "the compaction at line 19 dropped this rule", "▶ "} {
		if !strings.Contains(got, w) {
			t.Errorf("screen lacks %q:\n%s", w, got)
		}
	}
	golden.RequireEqual(t, []byte(got))
	if m.LostSelected() {
		t.Error("at the opened turn a lost item counts as selected")
	}

	m, _ = press(t, m, "esc")
	if m.Mode() != ModeTimeline || m.Step() != boundary {
		t.Fatalf("esc: mode %s step %d, want the compaction's step %d", m.Mode(), m.Step(), boundary)
	}
	if got := screen(m); !strings.Contains(got, "▸ r2") || strings.Contains(got, "⟲ lost 1:") {
		t.Errorf("after esc the compaction should show r2 selected and no opened item:\n%s", got)
	}
	m, _ = press(t, m, "esc")
	if m.Mode() != ModeSessions {
		t.Errorf("a second esc: mode %s, want the session list", m.Mode())
	}
}

// o where no lost item is selected does nothing (the binding table says
// why: "needs a lost item selected").
func TestOpenLostNeedsAnItem(t *testing.T) {
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(120, 40)
	m = openTimeline(t, m, rulesTimeline(t))
	m, _ = press(t, m, "h") // the last step is a compaction: a turn
	before := m.Step()
	m, out := press(t, m, "o")
	if m.Step() != before || len(out) != 0 || m.jump != nil {
		t.Errorf("o on a turn: step %d→%d, sent %#v", before, m.Step(), out)
	}
	a, _ := keymap.ActionNamed("open_lost")
	if ok, why := a.AvailableIn(keymap.Context{Pane: keymap.PaneID(keymap.PaneIndex("Replay"))}); ok || why != "needs a lost item selected" {
		t.Errorf("open_lost with no item: %v %q", ok, why)
	}
}
