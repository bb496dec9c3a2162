package feed

import (
	"slices"
	"testing"

	engov "github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/engine/projectmem"
)

// In the app the Live feed counts the autocompact line from each
// snapshot it takes (Counted): the Overview's Loads never count it with a
// tracker of their own (which listed the home and decoded every
// recently written transcript a second time at each start); the line
// waits for the first snapshot, and a change or ctrl+r leaves the last
// snapshot's count in place. Without the Live feed (NewOverview) a Load
// counts it, as before.
func TestLiveFedAutocompactLineWaitsForTheLiveFeed(t *testing.T) {
	home := testHome(t, homeWithProjects(t))
	src := func(project string) *engov.Source {
		return &engov.Source{Env: projectmem.Env{Home: home, Getenv: func(string) string { return "" }, Now: testNow},
			Project: project, Alive: func(int) bool { return false }}
	}
	loaded := func(o *Overview) []engov.ID {
		t.Helper()
		_, ids := o.Load(src)
		return ids
	}
	if ids := loaded(NewOverview()); !slices.Contains(ids, engov.Autocompact) {
		t.Fatalf("without the Live feed a Load does not count the autocompact line: %v", ids)
	}
	o := NewFedOverview()
	if ids := loaded(o); slices.Contains(ids, engov.Autocompact) || len(ids) == 0 {
		t.Fatalf("a Load beside the Live feed counts %v", ids)
	}
	if !o.stale[engov.Autocompact] {
		t.Fatal("the autocompact line is not waiting for the Live feed's first snapshot")
	}
	o.Counted(engov.Line{ID: engov.Autocompact})
	o.Changed(false, true, true)
	o.Invalidate()
	if o.stale[engov.Autocompact] {
		t.Error("a change or ctrl+r made the Live feed's count stale: no Load would count it")
	}
	if ids := loaded(o); slices.Contains(ids, engov.Autocompact) {
		t.Errorf("a Load after a change counts %v", ids)
	}
}
