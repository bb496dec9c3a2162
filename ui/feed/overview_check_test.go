package feed

import (
	"slices"
	"testing"

	engov "github.com/memscope/memscope/engine/overview"
)

// The Overview's Prompt line takes the Project feed's check of
// the open project (ProjectChecked) instead of building the
// preview again: at the start it waits for it (the other lines count),
// a check of another project does not serve, the project's check makes
// them count with it, and a change to the project's files drops it (the
// lines count their own until the next check comes).
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
	// Lint counts for itself: a load's lint may lack the loads the
	// transcripts say (ProjectLoaded.Checked).
	if !slices.Contains(ids, engov.Lint) || slices.Contains(ids, engov.Prompt) || !slices.Contains(ids, engov.Cut) {
		t.Fatalf("before the project's check, the lines counting are %v", ids)
	}
	o.ProjectChecked(&engov.Checked{Project: "/other"})
	if ids := loading(); len(ids) != 0 {
		t.Fatalf("another project's check started %v", ids)
	}
	c := &engov.Checked{Project: "/p"}
	o.ProjectChecked(c)
	ids = loading()
	if !slices.Equal(ids, []engov.ID{engov.Prompt}) || src.Checked != c {
		t.Fatalf("the project's check started %v with %v", ids, src)
	}
	o.Changed(true, false, false)
	ids = loading()
	if !slices.Contains(ids, engov.Prompt) || src.Checked != nil {
		t.Fatalf("after a change to the project: %v counted with the check %v", ids, src.Checked)
	}
	// Another project waits for its own check.
	o.SetProject("/q", true)
	if ids := loading(); slices.Contains(ids, engov.Prompt) || !slices.Contains(ids, engov.Cut) {
		t.Fatalf("another project's lines: %v", ids)
	}
}
