package feed

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/diskcache"
	engineloads "github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
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

// loadsReadOf is the LoadsRead among what cmd returns (a batch or one
// message), nil when none.
func loadsReadOf(t *testing.T, cmd tea.Cmd) *LoadsRead {
	t.Helper()
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case LoadsRead:
		return &msg
	case tea.BatchMsg:
		for _, c := range msg {
			if r := loadsReadOf(t, c); r != nil {
				return r
			}
		}
	}
	return nil
}

// A loads read that comes before the project's first load landed (the
// start-up's, after the sessions' list) waits for that load: when the
// load says the same (it read the loads through the same cache) the
// project is loaded once, not twice; when it says something else, the
// read asks for the load after it, as before.
func TestEarlyLoadsReadWaitsForTheFirstLoad(t *testing.T) {
	p := projectFeed(t, homeWithProjects(t))
	load := p.Request("-w-a")
	read := p.LoadsCmd("-w-a")().(LoadsRead)
	if p.LoadsDone(read, "-w-a") != nil {
		t.Fatal("an early loads read started a load beside the running one")
	}
	kept, next := p.Loaded(load().(ProjectLoaded), "-w-a")
	if !kept || p.Loading() {
		t.Fatalf("the first load: kept %v; a second load runs: %v", kept, p.Loading())
	}
	again := loadsReadOf(t, next)
	if again == nil {
		t.Fatal("the early loads read was not handed back once the load landed")
	}
	if p.LoadsDone(*again, "-w-a") != nil || p.Loading() {
		t.Error("loads that say what the first load says loaded the project again")
	}

	// Something else: the load is asked for once the first one landed.
	p = projectFeed(t, homeWithProjects(t))
	load = p.Request("-w-a")
	other := LoadsRead{slug: "-w-a", report: &engineloads.Report{Slug: "-w-a", Transcripts: 3}}
	if p.LoadsDone(other, "-w-a") != nil {
		t.Fatal("an early loads read started a load beside the running one")
	}
	_, next = p.Loaded(load().(ProjectLoaded), "-w-a")
	again = loadsReadOf(t, next)
	if again == nil || p.LoadsDone(*again, "-w-a") == nil {
		t.Error("an early loads read that says something new loaded nothing after the first load")
	}
}

// With memscope's cache, the loads a project's transcripts record are
// kept for the next start (LoadsCmd saves them): the next start's first
// project load, which reads no transcript, has every one of them and is
// complete, so it loads the project once and its lint is the Lint
// line's at once. Without the cache on disk, that load knew nothing.
func TestNextStartsFirstLoadHasTheLoads(t *testing.T) {
	dir := homeWithProjects(t)
	p := filepath.Join(dir, "projects", "-w-a", "aaaaaaaa-0000-4000-8000-000000000001.jsonl")
	line := `{"type":"attachment","uuid":"i1","parentUuid":"u1","sessionId":"aaaaaaaa-0000-4000-8000-000000000001","timestamp":"2026-02-27T12:00:00Z","attachment":{"type":"instructions","files":[{"path":"/w/a/CLAUDE.md","type":"Project","content":"Be brief."}]}}` + "\n"
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line)
	f.Close()
	// A transcript is kept only once its last change is a second old
	// (engine/loads: settled): wait for that, not a timing.
	info, _ := os.Stat(p)
	for time.Since(time.Unix(0, model.StampOf(info).ChangeTime)) < 1100*time.Millisecond {
		time.Sleep(50 * time.Millisecond)
	}
	cacheDir := filepath.Join(t.TempDir(), "cache")
	start := func() *Project {
		home := testHome(t, dir)
		h := NewHome(home, nil)
		h.Listed(h.Init()().(HomeListed), "", "", testNow)
		cache := diskcache.New(cacheDir, testroot.New(t), model.OSWriteFS{})
		return NewProject(ProjectEnv{Home: home, Cache: cache, Getenv: func(string) string { return "" }, Now: func() time.Time { return testNow }}, h)
	}
	first := start()
	first.Loaded(first.Request("-w-a")().(ProjectLoaded), "-w-a")
	read := first.LoadsCmd("-w-a")().(LoadsRead)
	if read.report.Sessions != 1 {
		t.Fatalf("the transcript's loads: %d sessions, want 1", read.report.Sessions)
	}
	if _, err := os.Stat(filepath.Join(cacheDir, diskcache.Name(engineloads.DiskKind, dir))); err != nil {
		t.Fatalf("the loads were not kept: %v", err)
	}
	next := start()
	next.Loaded(next.Request("-w-a")().(ProjectLoaded), "-w-a")
	if cur := next.Cur(); !cur.LoadsComplete() || !sameLoads(cur.Loads, read.report) {
		t.Errorf("the next start's first load: complete %v, loads %+v; read %+v", cur.LoadsComplete(), cur.Loads, read.report)
	}
}
