package replay

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

// atFirstCompaction is the rules session opened at its first compaction
// (r1 selected), at 120×40.
func atFirstCompaction(t *testing.T) Model {
	t.Helper()
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(120, 40)
	m = openTimeline(t, m, rulesTimeline(t))
	m, _ = press(t, m, "[", "[")
	if !m.LostSelected() {
		t.Fatal("no lost item selected at the first compaction")
	}
	return m
}

// keepSent is the one KeepLost the keys sent, or a failure.
func keepSent(t *testing.T, out []any) msgs.KeepLost {
	t.Helper()
	if len(out) != 1 {
		t.Fatalf("sent %#v, want one KeepLost", out)
	}
	k, ok := out[0].(msgs.KeepLost)
	if !ok {
		t.Fatalf("sent %#v, want a KeepLost", out[0])
	}
	return k
}

// t opens the chooser under the selected item; tab moves between the
// CLI's three places (--to memory, rules:FILE, claudemd), the rules
// file's name is typed in place (s and t, keys elsewhere, included),
// enter asks the shell to keep the item there. The golden
// (120×40, rules file chosen, "style" typed) was read by eye: under
// "▸ r1 rule line 7 Never mock…" the chooser says "keep 1:r1 to:", then
// one place a line, "▸ rules file .claude/rules/style" marked between
// "memory (MEMORY.md)" and "CLAUDE.md", then "tab next place · enter keep
// · esc cancel"; r2 and the rest follow.
func TestKeepLostToAPlaceChosen(t *testing.T) {
	m := atFirstCompaction(t)
	m, out := press(t, m, "t")
	if len(out) != 0 || !m.chooser.open || !m.Filtering() {
		t.Fatalf("t: sent %#v, chooser open %v, has the keyboard %v", out, m.chooser.open, m.Filtering())
	}
	if got := screen(m); !strings.Contains(got, "keep 1:r1 to:") || !strings.Contains(got, "▸ memory (MEMORY.md)") || !strings.Contains(got, "  rules file .claude/rules/") {
		t.Errorf("the chooser is not shown under r1:\n%s", got)
	}
	if h := helpKeys(m); !strings.HasPrefix(h, "tab shift+tab enter esc") {
		t.Errorf("the footer while choosing: %q", h)
	}
	// Memory: enter at once.
	_, out = press(t, m, "enter")
	if k := keepSent(t, toAny(out)); k.To != (ledger.Target{Kind: ledger.ToMemory}) || k.Item.ID != "r1" {
		t.Errorf("enter on memory sent %+v", k)
	}
	// A rules file, named in place: what the CLI's --to rules:style makes.
	m, _ = press(t, m, "tab", "s", "t", "y", "l", "e")
	got := screen(m)
	if !strings.Contains(got, "▸ rules file .claude/rules/style") {
		t.Errorf("tab and typing did not choose the rules file and name it:\n%s", got)
	}
	golden.RequireEqual(t, []byte(got))
	m2, out := press(t, m, "enter")
	if k := keepSent(t, toAny(out)); k.To != (ledger.Target{Kind: ledger.ToRules, File: "style.md"}) || k.Item.ID != "r1" {
		t.Errorf("enter on rules sent %+v", k)
	}
	if m2.chooser.open || m2.Filtering() {
		t.Error("the chooser stays open after enter")
	}
	// CLAUDE.md: one more tab; shift+tab goes back.
	m3, _ := press(t, m, "tab", "shift+tab", "tab")
	if _, out = press(t, m3, "enter"); keepSent(t, toAny(out)).To != (ledger.Target{Kind: ledger.ToClaudeMD}) {
		t.Errorf("enter on CLAUDE.md sent %#v", out)
	}
	// A name with a folder is refused as the CLI refuses it, and the
	// chooser stays.
	m4, _ := press(t, atFirstCompaction(t), "t", "tab", ".", ".", "/", "x", "enter")
	if !m4.chooser.open {
		t.Error("a bad rules file name closed the chooser")
	}
	// esc cancels: nothing is asked of the shell.
	m5, out := press(t, m, "esc")
	if m5.chooser.open || len(out) != 1 || out[0].(msgs.Status).Text != "not kept: nothing was written" {
		t.Errorf("esc: open %v, sent %#v", m5.chooser.open, out)
	}
}

// A file or a command is no rule: t says so as s does, with no chooser.
func TestKeepLostToRefusesAFile(t *testing.T) {
	m := atFirstCompaction(t)
	m, _ = press(t, m, "}", "}", "}") // r1 r2 r3 f1
	m, out := press(t, m, "t")
	if m.chooser.open || len(out) != 1 || !strings.Contains(out[0].(msgs.Status).Text, "f1 is a file") {
		t.Errorf("t on a file: open %v, sent %#v", m.chooser.open, out)
	}
}

func toAny[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
