package ui

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/views/msgs"
)

// lostRule is a rule a compaction dropped, as the Replay pane hands it
// to the shell (the pane's own tests check the pane sends the ledger's
// item; here the shell's writing is under test).
var lostRule = ledger.Item{ID: "r1", Kind: ledger.KindRule, Text: "Never mock the database in the integration tests of the cart.",
	Detail: "correction", Line: 7, UUID: "00000000-0000-4000-8000-000000000007"}

// keep sends the pane's request and runs what it starts.
func keep(t *testing.T, m Model, to ledger.Target) Model {
	t.Helper()
	next, cmd := m.Update(msgs.KeepLost{Item: lostRule, Session: "5e1f0c2a-1111-4222-8333-444455556666", To: to})
	return drain(t, next.(Model), cmd)
}

// readOrEmpty is the file at path, "" when it does not exist.
func readOrEmpty(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The pane's t keeps a lost rule in each of the CLI's three places
// (ledger.Keep, as `replay --lost --keep --to` does): a feedback memory
// linked from MEMORY.md, a line of .claude/rules/<file>, a line of the
// project's CLAUDE.md. A second keep of the same rule is refused (lint's
// near-duplicate rule) with the reason in the status line, and u takes
// each keep back, the rules file's and CLAUDE.md's too (their journals
// are in the home). Fails on old code: the shell wrote a memory whatever
// the pane asked.
func TestKeepLostInEachPlace(t *testing.T) {
	m, l := demoModel(t, 120, 40)
	// The demo's MEMORY.md is over its cap (the next test): keep its
	// first lines only, so a memory's line would load.
	ix := strings.SplitAfter(readMemory(t, l, "MEMORY.md"), "\n")
	if err := os.WriteFile(memPath(l, "MEMORY.md"), []byte(strings.Join(ix[:20], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	m = press(t, m, "ctrl+r")
	project := l.Project("shop-api")
	if got := m.projectPath(m.data.open); got != project {
		t.Fatalf("the open project's folder is %q, want %q", got, project)
	}
	cases := []struct {
		to   ledger.Target
		path string
		want string
	}{
		{ledger.Target{Kind: ledger.ToMemory}, memPath(l, "MEMORY.md"), ".md) — " + lostRule.Text},
		{ledger.Target{Kind: ledger.ToRules, File: "kept.md"}, filepath.Join(project, ".claude", "rules", "kept.md"), "- " + lostRule.Text + "\n"},
		{ledger.Target{Kind: ledger.ToClaudeMD}, filepath.Join(project, "CLAUDE.md"), "- " + lostRule.Text + "\n"},
	}
	for _, c := range cases {
		before := readOrEmpty(t, c.path)
		m = keep(t, m, c.to)
		after := readOrEmpty(t, c.path)
		if m.statusErr || !strings.Contains(after, c.want) || !strings.Contains(m.status, "u undoes it") {
			t.Fatalf("keep to %s: status %q (error %v); %s:\n%s", c.to.Kind, m.status, m.statusErr, c.path, after)
		}
		m = keep(t, m, c.to)
		if !m.statusErr || !strings.HasPrefix(m.status, "not kept: already kept") || readOrEmpty(t, c.path) != after {
			t.Errorf("a second keep to %s: status %q; the file must not change", c.to.Kind, m.status)
		}
		m = press(t, m, "u")
		if got := readOrEmpty(t, c.path); got != before || m.statusErr {
			t.Errorf("u after the keep to %s: status %q, %s:\n%s\nwant it as before", c.to.Kind, m.status, c.path, got)
		}
	}
}

// MEMORY.md past its cap (the demo's has 209 lines): the keep to memory
// is refused and the status line names the key that keeps the rule
// elsewhere; nothing is written.
func TestKeepLostOverTheCapSaysWhereElse(t *testing.T) {
	m, l := demoModel(t, 120, 40)
	ix := memPath(l, "MEMORY.md")
	full := readOrEmpty(t, ix)
	m = keep(t, m, ledger.Target{Kind: ledger.ToMemory})
	if !m.statusErr || !strings.Contains(m.status, "MEMORY.md is full") || !strings.Contains(m.status, "t keeps it in a rules file or CLAUDE.md") {
		t.Errorf("status %q (error %v)", m.status, m.statusErr)
	}
	if readOrEmpty(t, ix) != full {
		t.Error("MEMORY.md changed")
	}
}
