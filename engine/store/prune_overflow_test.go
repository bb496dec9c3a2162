package store

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

// Index entries past the cap that move-overflow parks in its file are
// not orphans to lint (nor to prune, which converges in one pass), and
// the overflow file's length is not a warning: lint asks for nothing
// that would undo the move.
func TestOverflowParkedFilesAreNotWarned(t *testing.T) {
	files := map[string]string{}
	var ix strings.Builder
	ix.WriteString("# Memory\n")
	for i := 1; i <= 230; i++ {
		name := fmt.Sprintf("project_note_%03d.md", i)
		files[name] = fmt.Sprintf("---\nname: note-%03d\ndescription: note %d\nmetadata:\n  type: project\n  modified: 2026-11-21T10:00:00Z\n---\n\nNote %d.\n", i, i, i)
		fmt.Fprintf(&ix, "- [Note %d](%s) — note %d %s\n", i, name, i, strings.Repeat("detail ", 8))
	}
	files["MEMORY.md"] = ix.String()
	s, _ := openFixture(t, files)
	o := PruneOptions{Now: enginetest.OpsNow}
	p := s.PlanPrune(o)
	if _, err := s.Apply(p, []string{"overflow"}, WriteOptions{Now: enginetest.OpsNow}); err != nil {
		t.Fatal(err)
	}
	md := s.Memory()
	parked := memindex.OverflowLinked(md)
	if len(parked) < 20 {
		t.Fatalf("move-overflow parked %d files; the fixture should park 30 or so", len(parked))
	}
	r := lint.Run(lint.Input{Memory: md, Now: enginetest.OpsNow})
	for _, f := range r.Findings {
		if f.Severity != lint.SevInfo && (parked[f.Path] != "" || memindex.IsOverflowFile(fileOf(s, f.Path))) {
			t.Errorf("lint warns about what prune moved: %s %s %s: %s", f.Severity, f.Kind, f.Path, f.Message)
		}
		if f.Kind == lint.Orphan && parked[f.Path] != "" && !strings.Contains(f.Message, parked[f.Path]) {
			t.Errorf("parked %s does not say where it is linked: %s", f.Path, f.Message)
		}
	}
	for _, a := range s.PlanPrune(o).Actions {
		if a.Kind == PruneIndexOrphan || a.Kind == PruneOverflow {
			t.Errorf("prune does not converge: it now proposes %s", a.ID)
		}
	}
}

// fileOf is the topic file rel as s read it, or an empty one.
func fileOf(s *Store, rel string) *model.MemoryFile {
	for _, f := range s.Memory().Files {
		if f.Path == rel {
			return f
		}
	}
	return &model.MemoryFile{}
}
