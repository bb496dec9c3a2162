package feed

import (
	"slices"
	"testing"

	"github.com/memscope/memscope/engine/lint"
	engov "github.com/memscope/memscope/engine/overview"
)

// The Overview's Lint and Prompt lines take the Project feed's check of
// the open project (ProjectChecked) instead of linting and building the
// preview again: at the start they wait for it (the other lines count),
// a check of another project does not serve, the project's check makes
// them count with it. A check whose loads were not all read (the start's
// first load: LintToCome) serves the Prompt line and leaves the Lint
// line waiting, so the line never shows a count `memscope lint` does not
// give; the check with lint makes it count from that. A check of another
// store (no lint, none to come) lets it lint for itself. A change to the
// project's files drops the check (the lines count their own until the
// next check comes).
func TestOverviewLinesTakeTheProjectCheck(t *testing.T) {
	o := NewOverview()
	o.HistoryRead(nil, true)
	o.SetProject("/p", true)
	var src *engov.Source
	source := func(project string) *engov.Source {
		src = &engov.Source{Project: project}
		return src
	}
	loading := func() []engov.ID {
		t.Helper()
		src = nil
		_, ids := o.Load(source)
		for _, id := range ids {
			o.Loaded(OverviewLine{gen: o.gen[id], line: engov.Line{ID: id}})
		}
		return ids
	}
	ids := loading()
	if slices.Contains(ids, engov.Lint) || slices.Contains(ids, engov.Prompt) || !slices.Contains(ids, engov.Cut) {
		t.Fatalf("before the project's check, the lines counting are %v", ids)
	}
	o.ProjectChecked(&engov.Checked{Project: "/other"})
	if ids := loading(); len(ids) != 0 {
		t.Fatalf("another project's check started %v", ids)
	}
	partial := &engov.Checked{Project: "/p", LintToCome: true}
	o.ProjectChecked(partial)
	ids = loading()
	if !slices.Equal(ids, []engov.ID{engov.Prompt}) || src.Checked != partial {
		t.Fatalf("the project's check, lint to come, started %v with %v", ids, src)
	}
	c := &engov.Checked{Project: "/p", Lint: &lint.Report{}}
	o.ProjectChecked(c)
	ids = loading()
	if !slices.Equal(ids, []engov.ID{engov.Lint, engov.Prompt}) || src.Checked != c {
		t.Fatalf("the project's check with lint started %v with %v", ids, src)
	}
	o.Changed(true, false, false)
	ids = loading()
	if !slices.Contains(ids, engov.Lint) || !slices.Contains(ids, engov.Prompt) || src.Checked != nil {
		t.Fatalf("after a change to the project: %v counted with the check %v", ids, src.Checked)
	}
	// After a change a partial check leaves the Lint line's own count.
	o.ProjectChecked(partial)
	if ids := loading(); !slices.Equal(ids, []engov.ID{engov.Prompt}) {
		t.Fatalf("a partial check after a change started %v", ids)
	}
	// Another project waits for its own check; a check of an agent's
	// store (no lint, none to come) lets Lint lint for itself.
	o.SetProject("/q", true)
	if ids := loading(); slices.Contains(ids, engov.Prompt) || slices.Contains(ids, engov.Lint) || !slices.Contains(ids, engov.Cut) {
		t.Fatalf("another project's lines: %v", ids)
	}
	o.ProjectChecked(&engov.Checked{Project: "/q"})
	if ids := loading(); !slices.Equal(ids, []engov.ID{engov.Lint, engov.Prompt}) {
		t.Fatalf("a check of another store started %v", ids)
	}
}
