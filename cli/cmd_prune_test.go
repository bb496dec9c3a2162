package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// demoMemory materializes the demo at the test clock and returns the
// layout and the shop-api memory folder.
func demoMemory(t *testing.T, e *env) (demo.Layout, string) {
	t.Helper()
	l, err := demo.Materialize(t.TempDir(), e.now())
	if err != nil {
		t.Fatal(err)
	}
	return l, filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), "memory")
}

// snapshot reads every file under dir (the undo journal aside).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.Name() == ".memscope" {
				return filepath.SkipDir
			}
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, what string, a, b map[string]string) {
	t.Helper()
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			t.Errorf("%s: %s differs or is missing", what, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			t.Errorf("%s: %s is new", what, k)
		}
	}
}

// prune --dry-run writes nothing; --apply of chosen actions fixes what
// lint found; undo puts every byte back.
func TestPruneApplyAndUndoOnDemo(t *testing.T) {
	t.Parallel()
	e, out, errb := testEnv(t)
	l, mem := demoMemory(t, e)
	base := []string{"--home", l.Home, "--project", l.Project("shop-api")}
	before := snapshot(t, mem)

	if code := run(e, append([]string{"prune", "--dry-run", "--json"}, base...)); code != 0 {
		t.Fatalf("dry run exit %d: %s", code, errb)
	}
	var plan pruneOutput
	if err := json.Unmarshal(out.Bytes(), &plan); err != nil {
		t.Fatal(err)
	}
	ids := map[string]store.PruneAction{}
	for _, a := range plan.Actions {
		ids[a.ID] = a
		if a.Diff == "" {
			t.Errorf("action %s has no diff", a.ID)
		}
	}
	for _, id := range []string{"merge:feedback_integration_tests_real_db.md", "drop:15", "overflow", "archive:project_checkout_rewrite.md", "index:broken_frontmatter.md"} {
		if _, ok := ids[id]; !ok {
			t.Errorf("plan lacks %s; has %v", id, plan.Actions)
		}
	}
	sameTree(t, "after the dry run", before, snapshot(t, mem))

	out.Reset()
	chosen := "merge:feedback_integration_tests_real_db.md,drop:15,overflow"
	if code := run(e, append([]string{"prune", "--apply", "--only", chosen, "--json"}, base...)); code != 0 {
		t.Fatalf("apply exit %d: %s", code, errb)
	}
	after := snapshot(t, mem)
	ix := after["MEMORY.md"]
	if c := memindex.CapIndex([]byte(ix)); c.Truncated {
		t.Errorf("MEMORY.md still over the cap: %s", c.Warning)
	}
	if strings.Contains(ix, "cache_notes.md") || strings.Contains(ix, "release 2026.2.1") {
		t.Errorf("dangling line or scratch section left in MEMORY.md:\n%s", ix)
	}
	for _, want := range []string{"- [Timezone](user_timezone.md)", "- [project_index_overflow](project_index_overflow.md)"} {
		if !strings.Contains(ix, want) {
			t.Errorf("MEMORY.md lacks %q:\n%s", want, ix)
		}
	}
	if !strings.Contains(after["project_index_overflow.md"], "- release 2026.8.31 search: roll back") {
		t.Error("the overflow file does not hold the moved lines")
	}
	if _, ok := after["feedback_integration_tests_real_db.md"]; ok {
		t.Error("the merged-away duplicate is still there")
	}
	trashed := false
	for k, v := range after {
		if strings.HasPrefix(k, ".trash/") && v == before["feedback_integration_tests_real_db.md"] {
			trashed = true
		}
	}
	if !trashed {
		t.Error("the merged-away duplicate is not in the trash")
	}
	if after["project_checkout_rewrite.md"] != before["project_checkout_rewrite.md"] {
		t.Error("an action that was not chosen was applied")
	}

	// Lint agrees the chosen problems are gone.
	out.Reset()
	run(e, append([]string{"lint", "--json"}, base...))
	var rep lintOutput
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Kind == lint.IndexOverCap || f.Kind == lint.DanglingLink || f.Kind == lint.Duplicate {
			t.Errorf("still found after prune: %+v", f)
		}
	}

	out.Reset()
	if code := run(e, append([]string{"undo", "--list"}, base...)); code != 0 || !strings.Contains(out.String(), "prune: 3 actions") {
		t.Fatalf("undo --list exit %d:\n%s", code, out)
	}
	if code := run(e, append([]string{"undo"}, base...)); code != 0 {
		t.Fatalf("undo exit %d: %s", code, errb)
	}
	restored := snapshot(t, mem)
	for k := range restored {
		if strings.HasPrefix(k, ".trash/") {
			delete(restored, k)
		}
	}
	sameTree(t, "after undo", before, restored)

	errb.Reset()
	if code := run(e, append([]string{"undo"}, base...)); code != 1 || !strings.Contains(errb.String(), "nothing to undo") {
		t.Errorf("second undo exit %d: %s", code, errb)
	}
}

func TestPruneFlags(t *testing.T) {
	e, _, errb := testEnv(t)
	l := sharedDemo(t)
	base := []string{"--home", l.Home, "--project", l.Project("shop-api")}
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--dry-run", "--apply"}, 2, "exclude each other"},
		{[]string{"--stale-action", "burn"}, 2, "archive or delete"},
		{[]string{"--stale", "project=1"}, 1, "staleness"},
		{[]string{"--only", "nope:1"}, 1, `no prune action "nope:1"`},
	}
	for _, tt := range tests {
		errb.Reset()
		if code := run(e, append(append([]string{"prune"}, tt.args...), base...)); code != tt.code || !strings.Contains(errb.String(), tt.msg) {
			t.Errorf("prune %v: exit %d, stderr %q; want %d and %q", tt.args, code, errb, tt.code, tt.msg)
		}
	}
}
