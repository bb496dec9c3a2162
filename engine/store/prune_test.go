package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/memindex"
)

// pruneFixture has one of everything prune fixes: a near-duplicate pair
// (one indexed), a stale project memory, an orphan, a dangling line, a
// long line, and a scratch section that pushes the index over the cap.
func pruneFixture() map[string]string {
	ix := "# Memory\n\n- [Terse](feedback_terse.md) — short answers\n- [Freeze](project_freeze.md) — merge freeze\n" +
		"- [Gone](gone.md) — deleted long ago\n" +
		"- [Mocks](feedback_no_mocks.md) — " + strings.Repeat("never mock the database driver ", 6) + "\n\n## Scratch\n\n"
	for i := 1; i <= 200; i++ {
		ix += fmt.Sprintf("- note %d: something to remember\n", i)
	}
	ix += "\n## Later\n\n- [Role](user_role.md) — backend lead\n"
	return map[string]string{
		"MEMORY.md":         ix,
		"feedback_terse.md": enginetest.FreshMemory("terse", "Short answers", "feedback", "Answer briefly.\n"),
		"project_freeze.md": enginetest.ClientMemory("freeze", "Merge freeze in December", "project", "No merges; [[real-db]] still applies.\n"),
		"feedback_no_mocks.md": enginetest.FreshMemory("no-mocks", "Never mock the database", "feedback",
			"Integration tests hit the real Postgres, never a mocked driver; a mocked driver hid a broken migration.\n"),
		"feedback_real_db.md": enginetest.FreshMemory("real-db", "Use the real database in tests", "feedback",
			"Use the real Postgres in integration tests; a mocked driver hid a broken migration last spring.\n"),
		"user_role.md":     enginetest.FreshMemory("role", "Backend lead", "user", "Go.\n"),
		"user_timezone.md": enginetest.FreshMemory("timezone", "Works from Lisbon", "user", "UTC+0.\n"),
	}
}

func TestPrunePlan(t *testing.T) {
	s, _ := openFixture(t, pruneFixture())
	p := s.PlanPrune(PruneOptions{Now: enginetest.OpsNow})
	var ids []string
	for _, a := range p.Actions {
		ids = append(ids, a.ID)
	}
	want := []string{"merge:feedback_real_db.md", "archive:project_freeze.md", "drop:5", "index:user_timezone.md", "shorten:6", "overflow"}
	if !slices.Equal(ids, want) {
		t.Fatalf("plan ids = %q\nwant %q", ids, want)
	}
	if p.Diff == "" || !strings.Contains(p.Actions[0].Summary, "[[real-db]] links become [[no-mocks]]") {
		t.Errorf("diff %d bytes, merge summary %q", len(p.Diff), p.Actions[0].Summary)
	}
	del := s.PlanPrune(PruneOptions{Now: enginetest.OpsNow, StaleAction: PruneDelete})
	if del.Actions[1].ID != "delete:project_freeze.md" {
		t.Errorf("stale action with delete: %s", del.Actions[1].ID)
	}
}

// Each action alone, and all of them, apply exactly the diff the plan
// showed; undo restores every byte.
func TestPruneApplyUndo(t *testing.T) {
	t.Parallel()
	plan0 := func() Plan {
		s, _ := openFixture(t, pruneFixture())
		return s.PlanPrune(PruneOptions{Now: enginetest.OpsNow})
	}()
	cases := [][]string{nil}
	for _, a := range plan0.Actions {
		cases = append(cases, []string{a.ID})
	}
	for _, ids := range cases {
		t.Run(fmt.Sprint(ids), func(t *testing.T) {
			s, dir := openFixture(t, pruneFixture())
			before := enginetest.ReadTree(t, dir)
			p := s.PlanPrune(PruneOptions{Now: enginetest.OpsNow})
			shown, err := p.Preview(ids)
			if err != nil {
				t.Fatal(err)
			}
			ch, err := s.Apply(p, ids, WriteOptions{Now: enginetest.OpsNow})
			if err != nil {
				t.Fatal(err)
			}
			if ch.Diff != shown {
				t.Errorf("applied diff differs from the preview:\n%s\n---- preview:\n%s", ch.Diff, shown)
			}
			after := enginetest.ReadTree(t, dir)
			check := pruneChecks[firstOr(ids, "all")]
			check(t, before, after)
			if _, err := s.Undo(); err != nil {
				t.Fatal(err)
			}
			restored := enginetest.ReadTree(t, dir)
			for k := range restored {
				if strings.HasPrefix(k, ".trash/") || strings.HasPrefix(k, ".archive/") {
					t.Errorf("undo left %s", k)
				}
			}
			if d := enginetest.DiffTrees(before, restored); d != "" {
				t.Errorf("undo did not restore:\n%s", d)
			}
		})
	}
}

func firstOr(s []string, def string) string {
	if len(s) == 0 {
		return def
	}
	return s[0]
}

var pruneChecks = map[string]func(t *testing.T, before, after map[string]string){
	"all": func(t *testing.T, before, after map[string]string) {
		if c := memindex.CapIndex([]byte(after["MEMORY.md"])); c.Truncated {
			t.Errorf("still over the cap")
		}
	},
	"merge:feedback_real_db.md": func(t *testing.T, before, after map[string]string) {
		if _, ok := after["feedback_real_db.md"]; ok || after[".trash/20261122-111420.836/feedback_real_db.md"] != before["feedback_real_db.md"] {
			t.Error("duplicate not moved to the trash")
		}
		if !strings.Contains(after["project_freeze.md"], "[[no-mocks]] still applies") {
			t.Errorf("link not repointed: %q", after["project_freeze.md"])
		}
	},
	"archive:project_freeze.md": func(t *testing.T, before, after map[string]string) {
		if after[".archive/project_freeze.md"] != before["project_freeze.md"] || strings.Contains(after["MEMORY.md"], "project_freeze.md") {
			t.Error("not archived with its index line")
		}
	},
	"drop:5": func(t *testing.T, before, after map[string]string) {
		if after["MEMORY.md"] != strings.Replace(before["MEMORY.md"], "- [Gone](gone.md) — deleted long ago\n", "", 1) {
			t.Error("dangling line not dropped alone")
		}
	},
	"index:user_timezone.md": func(t *testing.T, before, after map[string]string) {
		want := strings.Replace(before["MEMORY.md"], "database driver \n", "database driver \n- [user_timezone](user_timezone.md) — Works from Lisbon\n", 1)
		if after["MEMORY.md"] != want {
			t.Errorf("orphan not indexed after the last loaded entry:\n%s", after["MEMORY.md"][:400])
		}
	},
	"shorten:6": func(t *testing.T, before, after map[string]string) {
		line := strings.Split(after["MEMORY.md"], "\n")[5]
		if jsstr.UTF16Len(line) != memindex.LineMaxChars || !strings.HasSuffix(line, "…") || !strings.HasPrefix(line, "- [Mocks](feedback_no_mocks.md) — never mock") {
			t.Errorf("shortened line %q (%d)", line, jsstr.UTF16Len(line))
		}
	},
	"overflow": func(t *testing.T, before, after map[string]string) {
		ix := after["MEMORY.md"]
		if memindex.CapIndex([]byte(ix)).Truncated || strings.Contains(ix, "note 1:") || !strings.Contains(ix, "- [Role](user_role.md)") ||
			!strings.Contains(ix, "- [project_index_overflow](project_index_overflow.md) — Lines moved out") {
			t.Errorf("index after overflow:\n%s", ix)
		}
		of := after["project_index_overflow.md"]
		if !strings.Contains(of, "## Scratch\n\n- note 1: something to remember\n") || !strings.HasSuffix(of, "- note 200: something to remember\n") {
			t.Errorf("overflow file:\n%s", of)
		}
	},
}

func TestPruneRefusesStalePlan(t *testing.T) {
	s, dir := openFixture(t, pruneFixture())
	p := s.PlanPrune(PruneOptions{Now: enginetest.OpsNow})
	enginetest.WriteTree(t, dir, map[string]string{"project_freeze.md": "changed\n"})
	var ce *ConflictError
	if _, err := s.Apply(p, nil, WriteOptions{Now: enginetest.OpsNow}); !errors.As(err, &ce) || ce.Path != "project_freeze.md" {
		t.Fatalf("applied over a changed file: %v", err)
	}
	s.Reload()
	if _, err := s.Apply(p, nil, WriteOptions{Now: enginetest.OpsNow}); !errors.Is(err, ErrPlanStale) {
		t.Errorf("after reload: %v, want ErrPlanStale", err)
	}
	if _, err := s.Apply(s.PlanPrune(PruneOptions{Now: enginetest.OpsNow}), []string{"nope"}, WriteOptions{Now: enginetest.OpsNow}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown id: %v", err)
	}
}

// A prune apply that fails halfway leaves every file as it was.
func TestPruneApplyAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	enginetest.WriteTree(t, dir, pruneFixture())
	fsys := &failingFS{FS: DirFS(dir), failRename: 3}
	s, _ := Open(dir, fsys)
	before := enginetest.ReadTree(t, dir)
	if _, err := s.Apply(s.PlanPrune(PruneOptions{Now: enginetest.OpsNow}), nil, WriteOptions{Now: enginetest.OpsNow}); err == nil {
		t.Fatal("no error")
	}
	if d := enginetest.DiffTrees(before, enginetest.ReadTree(t, dir)); d != "" {
		t.Errorf("files changed:\n%s", d)
	}
	entries, _ := os.ReadFile(filepath.Join(dir, journal.Path))
	if strings.Contains(string(entries), "prune") {
		t.Error("the failed prune stays journaled")
	}
}

func TestPruneRebuildsMissingIndex(t *testing.T) {
	files := pruneFixture()
	delete(files, "MEMORY.md")
	s, dir := openFixture(t, files)
	p := s.PlanPrune(PruneOptions{Now: enginetest.OpsNow})
	if p.Actions[0].ID != "rebuild" {
		t.Fatalf("first action %s", p.Actions[0].ID)
	}
	if _, err := s.Apply(p, []string{"rebuild"}, WriteOptions{Now: enginetest.OpsNow}); err != nil {
		t.Fatal(err)
	}
	if got := enginetest.ReadTree(t, dir)["MEMORY.md"]; got != memindex.BackfillIndex(s.Memory().Files).Text || got == "" {
		t.Errorf("rebuilt index = %q", got)
	}
}

func TestShortenIndexLine(t *testing.T) {
	long := "- [T](t.md) — " + strings.Repeat("é", 200)
	tests := []struct {
		in   string
		ok   bool
		want int
	}{
		{long, true, memindex.LineMaxChars},
		{"- [T](t.md) — " + strings.Repeat("😀", 100), true, memindex.LineMaxChars - 1},
		{"- [T](t.md) — short", false, 0},
		{"- [" + strings.Repeat("x", 160) + "](t.md) — hook", false, 0},
		{"plain text " + strings.Repeat("y", 200), false, 0},
	}
	for _, tt := range tests {
		got, ok := shortenIndexLine(tt.in)
		if ok != tt.ok || ok && jsstr.UTF16Len(got) != tt.want {
			t.Errorf("shortenIndexLine(%.30q…) = %d chars, %v", tt.in, jsstr.UTF16Len(got), ok)
		}
	}
}

// TestPruneConverges: plan, apply all, plan again → nothing left to do.
// (move-overflow used to carry index lines out of MEMORY.md, so the files
// they linked came back as index-orphan actions on the next plan.)
func TestPruneConverges(t *testing.T) {
	s, dir := openFixture(t, pruneFixture())
	p := s.PlanPrune(PruneOptions{Now: enginetest.OpsNow})
	if _, err := s.Apply(p, nil, WriteOptions{Now: enginetest.OpsNow}); err != nil {
		t.Fatal(err)
	}
	again, probs := Open(dir, nil)
	if len(probs) > 0 {
		t.Fatalf("after apply: %v", probs)
	}
	p2 := again.PlanPrune(PruneOptions{Now: enginetest.OpsNow})
	for _, a := range p2.Actions {
		t.Errorf("the second plan still proposes %s: %s", a.ID, a.Summary)
	}
}

// TestPruneConvergesWhenOverflowCarriesEntries: an index whose links run
// past the cap; move-overflow carries those lines out, and the next plan
// must not propose putting them back (index-orphan) only to overflow again.
func TestPruneConvergesWhenOverflowCarriesEntries(t *testing.T) {
	files := map[string]string{}
	ix := "# Memory\n\n"
	for i := 1; i <= memindex.MaxLines+10; i++ {
		name := fmt.Sprintf("note-%03d", i)
		ix += fmt.Sprintf("- [Note %d](project_%s.md) — fact %d\n", i, strings.ReplaceAll(name, "-", "_"), i)
		files["project_"+strings.ReplaceAll(name, "-", "_")+".md"] = enginetest.FreshMemory(name, fmt.Sprintf("Fact number %d about topic %d", i, i*7919), "project", fmt.Sprintf("Distinct body %d %d.\n", i, i*104729))
	}
	files["MEMORY.md"] = ix
	s, dir := openFixture(t, files)
	p := s.PlanPrune(PruneOptions{Now: enginetest.OpsNow})
	if len(p.Actions) == 0 {
		t.Fatal("an index past the cap gets no plan")
	}
	if _, err := s.Apply(p, nil, WriteOptions{Now: enginetest.OpsNow}); err != nil {
		t.Fatal(err)
	}
	again, _ := Open(dir, nil)
	if ix, _ := os.ReadFile(filepath.Join(dir, "MEMORY.md")); memindex.CapIndex(ix).Truncated {
		lines := strings.Split(string(ix), "\n")
		t.Errorf("after apply MEMORY.md is still cut (%d lines); its end:\n%s", len(lines), strings.Join(lines[max(len(lines)-5, 0):], "\n"))
	}
	for _, a := range again.PlanPrune(PruneOptions{Now: enginetest.OpsNow}).Actions {
		t.Errorf("the second plan still proposes %s: %s", a.ID, a.Summary)
	}
}
