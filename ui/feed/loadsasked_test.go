package feed

import (
	"testing"

	engineloads "github.com/memscope/memscope/engine/loads"
)

// Two loads reads that say the same new thing (the start-up's, after the
// project load and after the sessions' list) load the project once
// more, not twice; a read that says something else after that load
// loads it again.
func TestSameLoadsReadTwiceLoadsOnce(t *testing.T) {
	p := projectFeed(t, homeWithProjects(t))
	first, _ := p.Loaded(p.Request("-w-a")().(ProjectLoaded), "-w-a")
	if !first {
		t.Fatal("the first load was not kept")
	}
	read := func(transcripts int) LoadsRead {
		return LoadsRead{slug: "-w-a", report: &engineloads.Report{Slug: "-w-a", Transcripts: transcripts}}
	}
	load := p.LoadsDone(read(3), "-w-a")
	if load == nil {
		t.Fatal("loads the project does not have started no load")
	}
	if p.LoadsDone(read(3), "-w-a") != nil {
		t.Fatal("the same loads read again started a load beside the running one")
	}
	if _, next := p.Loaded(load().(ProjectLoaded), "-w-a"); next != nil {
		t.Fatal("the same loads read twice queued a third load of the project")
	}
	if p.LoadsDone(read(4), "-w-a") == nil {
		t.Fatal("loads that say something new after the load started no load")
	}
}
