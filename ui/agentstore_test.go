package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/model"
)

// m walks the open project's memory stores: the demo's shop-api has its
// auto memory, the user-scope planner's and the project-scope reviewer's.
// In an agent's store the panes show its files and index, and a delete
// goes to that folder's trash and journal and undoes there.
func TestNextMemoryStore(t *testing.T) {
	t.Parallel()
	m, l := demoModel(t, 120, 40)
	reviewer := filepath.Join(l.Project("shop-api"), ".claude", "agent-memory", "reviewer")
	m = press(t, m, "4")
	if s := screen(m); !strings.Contains(s, "user_role.md") || !strings.Contains(s, "project memory · store 1/3") {
		t.Fatalf("project memory first:\n%s", s)
	}
	// The stores come in the one list's order (model.HomeMemoryStores):
	// the project's own, then the user scope's.
	m = press(t, m, "m")
	s := screen(m)
	if !strings.Contains(s, "agent reviewer (project scope, checked in) · store 2/3") || !strings.Contains(s, "migrations.md") || strings.Contains(s, "user_role.md") {
		t.Fatalf("second store:\n%s", s)
	}
	if got := m.feeds.edits.MemoryDir(); got != reviewer {
		t.Errorf("editor and lint paths resolve in %s, want %s", got, reviewer)
	}
	m = press(t, m, "3")
	if s := screen(m); !strings.Contains(s, "5/200") || !strings.Contains(s, "agent reviewer") {
		t.Errorf("Index pane on the reviewer's MEMORY.md:\n%s", s)
	}

	m = press(t, m, "4", "g", "d", "y")
	if _, err := os.Stat(filepath.Join(reviewer, "error-wrapping.md")); !os.IsNotExist(err) {
		t.Fatalf("d y left error-wrapping.md (status %q): %v", m.status, err)
	}
	if trashed, _ := filepath.Glob(filepath.Join(reviewer, ".trash", "*", "error-wrapping.md")); len(trashed) != 1 {
		t.Errorf("not in the agent's trash: %v", trashed)
	}
	if _, err := os.Stat(filepath.Join(reviewer, ".memscope", "journal.jsonl")); err != nil {
		t.Errorf("the agent's journal: %v", err)
	}
	m = press(t, m, "u")
	if _, err := os.Stat(filepath.Join(reviewer, "error-wrapping.md")); err != nil || m.statusErr {
		t.Errorf("u did not put it back (status %q): %v", m.status, err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(memPath(l, "MEMORY.md")), ".memscope")); !os.IsNotExist(err) {
		t.Errorf("the project's memory got a journal: %v", err)
	}
	m = press(t, m, "m")
	if s := screen(m); !strings.Contains(s, "agent planner (user scope, every project) · store 3/3") || !strings.Contains(s, "plan-shape.md") {
		t.Fatalf("third store:\n%s", s)
	}
	m = press(t, m, "m")
	if s := screen(m); !strings.Contains(s, "user_role.md") || !strings.Contains(s, "store 1/3") {
		t.Errorf("m after the last store goes back to project memory:\n%s", s)
	}
}

// The Replay list labels a subagent's transcript from its meta file.
func TestReplayLabelsSubagents(t *testing.T) {
	t.Parallel()
	m := sharedDemoModel(t, 140, 40)
	m = press(t, m, "7")
	if s := screen(m); !strings.Contains(s, "[subagent] agent-a1b2c3d4 of 7c0d5e92 · Explore “Find webhook order creation”") {
		t.Errorf("Replay list:\n%s", s)
	}
}

// The Replay list shows a session's .replaced copy (the client's local GC
// kept it when it rewrote the transcript after a compaction) as that
// session's earlier history, labelled, and opens it like any session
// (issue 29).
func TestReplayListsReplacedCopies(t *testing.T) {
	t.Parallel()
	l, err := demo.Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	slug := model.Slug(filepath.ToSlash(l.Project("shop-api")))
	mains, _ := filepath.Glob(filepath.Join(l.Home, "projects", slug, "*.jsonl"))
	if len(mains) == 0 {
		t.Fatal("no shop-api transcript in the demo")
	}
	data, err := os.ReadFile(mains[0])
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSuffix(filepath.Base(mains[0]), ".jsonl")
	copyDir := filepath.Join(l.Home, "projects", slug, id, model.ReplacedDir)
	if err := os.MkdirAll(copyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(copyDir, "1763800000000-ab12"+model.ReplacedSuffix), data, 0o644); err != nil {
		t.Fatal(err)
	}
	m := demoModelAt(t, l, true, 160, 40)
	m = press(t, m, "7")
	s := screen(m)
	if !strings.Contains(s, "[earlier history, .replaced copy]") {
		t.Fatalf("Replay list lacks the .replaced copy:\n%s", s)
	}
	if n := strings.Count(s, "[earlier history, .replaced copy]"); n != 1 {
		t.Errorf("%d rows for one copy:\n%s", n, s)
	}
}
