package store

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// manyNotes is a memory folder of n tiny notes and a MEMORY.md indexing
// the first 250, as scripts/memscope-hostile's manyfiles scenario writes it.
func manyNotes(tb testing.TB, n int) *model.MemoryDir {
	tb.Helper()
	fsys := fstest.MapFS{}
	var idx strings.Builder
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("note_%07d.md", i)
		fsys[name] = &fstest.MapFile{Data: fmt.Appendf(nil, "---\nname: note-%d\ndescription: Tiny note %d\ntype: project\n---\n\nNote %d.\n", i, i, i), ModTime: enginetest.Now}
		if i < 250 {
			fmt.Fprintf(&idx, "- [Note %d](%s) — tiny note %d\n", i, name, i)
		}
	}
	fsys["MEMORY.md"] = &fstest.MapFile{Data: []byte(idx.String())}
	md, _ := model.ReadMemoryDir(fsys, ".")
	if len(md.Files) != n {
		tb.Fatalf("read %d of %d notes", len(md.Files), n)
	}
	return md
}

// Every orphan of a big folder gets its own action and diff, and the
// plan's diff adds them all. Either size has more orphans than
// PruneDiffActions, so the actions past the cap are checked too.
func TestPlanPruneManyFiles(t *testing.T) {
	t.Parallel()
	n := testenv.Size(t, 3000, 1500)
	if n-250 <= PruneDiffActions {
		t.Fatalf("%d orphans do not pass the cap of %d diffs", n-250, PruneDiffActions)
	}
	p := PlanPrune(manyNotes(t, n), PruneOptions{Now: enginetest.Now})
	orphans := 0
	for i, a := range p.Actions {
		if a.Kind != PruneIndexOrphan {
			continue
		}
		orphans++
		diff := a.Diff
		if i >= PruneDiffActions {
			if diff != "" {
				t.Fatalf("action %d (%s) past the cap has a diff", i, a.ID)
			}
			var err error
			if diff, err = p.Preview([]string{a.ID}); err != nil {
				t.Fatal(err)
			}
		}
		if !strings.Contains(diff, a.Paths[0]) {
			t.Fatalf("action %s: diff does not name its file:\n%s", a.ID, diff)
		}
	}
	if !strings.Contains(p.Diff, fmt.Sprintf("note_%07d.md", n-1)) {
		t.Error("the plan's diff does not index the last note")
	}
	if orphans != n-250 {
		t.Errorf("%d orphan actions, want %d", orphans, n-250)
	}
}

func BenchmarkPlanPruneManyFiles(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		md := manyNotes(b, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				PlanPrune(md, PruneOptions{Now: enginetest.Now})
			}
		})
	}
}
