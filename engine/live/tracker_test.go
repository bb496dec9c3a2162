package live

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// liveHome is a home on disk with one interactive session, its memory
// folder, and a clock the test moves.
type liveHome struct {
	t       *testing.T
	dir     string
	proj    string // the session's startup folder
	slug    string
	memDir  string
	clock   time.Time
	alive   map[int]bool
	tracker *Tracker
}

func newLiveHome(t *testing.T) *liveHome {
	h := &liveHome{t: t, dir: t.TempDir(), proj: t.TempDir(), clock: now, alive: map[int]bool{4242: true}}
	h.slug = model.Slug(filepath.ToSlash(h.proj))
	h.memDir = filepath.Join(h.dir, "projects", h.slug, "memory")
	writeFile(t, h.dir, "sessions/4242.json", fmt.Sprintf(`{"pid":4242,"sessionId":"s1","cwd":%q,"startedAt":"2026-11-22T11:00:00Z","status":"busy"}`, filepath.ToSlash(h.proj)))
	home, err := model.OpenHome(h.dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	h.tracker = NewTracker(Options{
		Home: home, Root: testroot.New(t), Now: func() time.Time { return h.clock },
		Alive:   func(pid int) bool { return h.alive[pid] },
		Session: SessionOptions{Getenv: env()},
	})
	return h
}

// put writes a home file with mtime at, returning its path.
func (h *liveHome) put(rel, content string, at time.Time) string {
	p := writeFile(h.t, h.dir, rel, content)
	h.touch(p, at)
	return p
}

func (h *liveHome) touch(p string, at time.Time) {
	if err := os.Chtimes(p, at, at); err != nil {
		h.t.Fatal(err)
	}
}

func (h *liveHome) transcript() string { return "projects/" + h.slug + "/s1.jsonl" }

func indexLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "- [Memory %d](mem_%d.md) — hook %d\n", i, i, i)
	}
	return b.String()
}

func eventKinds(es []Event) string {
	var parts []string
	for _, e := range es {
		s := string(e.Kind)
		switch e.Kind {
		case EventContextLevel:
			s += ":" + string(e.From) + ">" + string(e.To)
		case EventMemoryWritten, EventMemoryDeleted, EventIndexCap:
			s += ":" + filepath.Base(e.Path)
			if e.Cap != "" {
				s += fmt.Sprintf(":%s:%v", e.Cap, *e.Over)
			}
			if e.SessionID != "" {
				s += ":" + e.SessionID
			}
		case EventPasteMissing:
			s += ":" + string(e.Hash)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestTrackerFollowsAHome(t *testing.T) {
	h := newLiveHome(t)
	s := newScript("s1", filepath.ToSlash(h.proj), now.Add(-30*time.Minute))
	s.user("start")
	s.answer("a", 100000)
	s.answer("b", 120000)
	tpath := h.put(h.transcript(), s.String(), now.Add(-20*time.Minute))
	h.put("projects/"+h.slug+"/memory/MEMORY.md", indexLines(10), now.Add(-time.Hour))
	h.put("projects/"+h.slug+"/memory/feedback_a.md", "---\nname: a\n---\nx\n", now.Add(-time.Hour))
	h.put("projects/"+h.slug+"/memory/notes.txt", "not memory", now.Add(-time.Hour))
	// A subagent of the session, and a -p run elsewhere.
	sub := newScript("s1", filepath.ToSlash(h.proj), now.Add(-3*time.Minute))
	sub.answer("sub1", 5000)
	h.put("projects/"+h.slug+"/s1/subagents/agent-x1.jsonl", sub.String(), now.Add(-3*time.Minute))
	p := newScript("p1", "/w/batch", now.Add(-2*time.Minute))
	p.user("summarize")
	p.answer("p", 30000)
	h.put("projects/-w-batch/p1.jsonl", p.String(), now.Add(-time.Minute))

	snap1 := h.tracker.Refresh()
	if len(snap1.Running) != 2 || snap1.Running[0].Kind != RunInteractive || snap1.Running[1].SessionID != "p1" {
		t.Fatalf("running %+v", snap1.Running)
	}
	st, ok := snap1.Session("s1")
	if !ok || st.Context != 120000 || st.Turns != 2 || st.Level != window.LevelOK || !st.Forecast.OK || st.Forecast.Turns != 3 {
		t.Fatalf("s1 %+v", st)
	}
	if want := filepath.ToSlash(h.memDir); st.MemoryDir != want {
		t.Errorf("memory folder %q, want %q", st.MemoryDir, want)
	}
	if ps, ok := snap1.Session("p1"); !ok || ps.Project != "/w/batch" || ps.Context != 30000 {
		t.Errorf("the -p run %+v", ps)
	}
	// Both sessions' memory folders are followed; the -p run's has none.
	if len(snap1.Memory) != 2 || snap1.Memory[0].Dir != filepath.ToSlash(h.memDir) || snap1.Memory[1].Exists {
		t.Fatalf("memory %+v", snap1.Memory)
	}
	if m := snap1.Memory[0]; len(m.Files) != 2 || m.Index == nil || m.Index.Lines != 10 || m.Index.Over() {
		t.Fatalf("memory %+v", m)
	}
	// The block: every response of the home (subagent's included),
	// starting at 11:00 (the first response, 11:30, floored).
	b := snap1.Block
	if b == nil || !b.Start.Equal(time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)) || b.Entries != 4 ||
		TotalTokens(b.Tokens) != 100100+120100+5100+30100 {
		t.Fatalf("block %+v", b)
	}
	// The subagent's tokens count in its session's rate: 5100 within
	// the last 10 minutes (the session's own answers are older).
	if st.TokensPerMinute != 510 {
		t.Errorf("rate %v", st.TokensPerMinute)
	}

	// The session goes on: past the warning level, writes a new memory
	// file and grows MEMORY.md past 200 lines.
	before := fileSize(t, tpath)
	h.clock = now.Add(time.Minute)
	s.user("remember the deploy steps")
	s.at(now.Add(30*time.Second)).answer("c", 150000, writeBlock("t1", "Write", filepath.ToSlash(filepath.Join(h.memDir, "project_deploy.md"))))
	s.result("t1", false)
	appendFile(t, tpath, s.String()[len(readFile(t, tpath)):])
	h.touch(tpath, now.Add(40*time.Second))
	h.put("projects/"+h.slug+"/memory/project_deploy.md", "---\nname: deploy\n---\nsteps\n", now.Add(35*time.Second))
	h.put("projects/"+h.slug+"/memory/MEMORY.md", indexLines(201), now.Add(36*time.Second))
	snap2 := h.tracker.Update(h.transcript())
	if got, want := eventKinds(Diff(snap1, snap2)), "context-level:ok>warning memory-written:MEMORY.md memory-written:project_deploy.md:s1 memory-index-cap:MEMORY.md:lines:true"; got != want {
		t.Errorf("events after the second answer:\n%s\nwant\n%s", got, want)
	}
	// Only what was appended was read (plus the head check).
	if appended := fileSize(t, tpath) - before; snap2.Read > appended+model.TailHeadMax || snap2.Read < appended {
		t.Errorf("read %d bytes for %d appended", snap2.Read, appended)
	}

	// An auto compaction, and a memory file deleted.
	h.clock = now.Add(2 * time.Minute)
	s.at(now.Add(90*time.Second)).compact("auto", 167500, 11000)
	appendFile(t, tpath, s.String()[len(readFile(t, tpath)):])
	h.touch(tpath, now.Add(91*time.Second))
	if err := os.Remove(filepath.Join(h.memDir, "feedback_a.md")); err != nil {
		t.Fatal(err)
	}
	snap3 := h.tracker.Update(h.transcript())
	ev := Diff(snap2, snap3)
	if got, want := eventKinds(ev), "context-level:warning>ok compaction memory-deleted:feedback_a.md"; got != want {
		t.Fatalf("events after the compaction: %s, want %s", got, want)
	}
	c := ev[1].Compaction
	if *c.PreTokens != 167500 || *c.PostTokens != 11000 || c.Trigger != model.TriggerAuto || c.Line != 7 || !ev[1].Time.Equal(now.Add(90*time.Second)) {
		t.Errorf("compaction event %+v %+v", ev[1], c)
	}
	if st, _ := snap3.Session("s1"); st.TurnsSinceCompaction != 0 || st.Context != 11000 {
		t.Errorf("after the compaction %+v", st)
	}

	// Twenty minutes later the process is gone and neither transcript
	// was written within the -p window: both sessions have ended.
	h.alive[4242] = false
	h.clock = now.Add(20 * time.Minute)
	snap4 := h.tracker.Refresh()
	if got := eventKinds(Diff(snap3, snap4)); got != "session-ended session-ended" {
		t.Errorf("after the exit: %s", got)
	}
	if len(snap4.Stale) != 1 || len(snap4.Running) != 0 || snap4.Block == nil {
		t.Errorf("stale %+v running %+v block %v", snap4.Stale, snap4.Running, snap4.Block)
	}
}

// A transcript replaced under the tracker (an atomic rewrite by a cleanup
// tool) is read again from the start.
func TestTrackerRereadsAReplacedTranscript(t *testing.T) {
	h := newLiveHome(t)
	s := newScript("s1", filepath.ToSlash(h.proj), now.Add(-30*time.Minute))
	s.answer("a", 100000)
	s.answer("b", 120000)
	s.answer("c", 140000)
	h.put(h.transcript(), s.String(), now.Add(-time.Minute))
	if st, _ := h.tracker.Refresh().Session("s1"); st.Turns != 3 {
		t.Fatalf("turns %d", st.Turns)
	}
	r := newScript("s1", filepath.ToSlash(h.proj), now.Add(-30*time.Minute))
	r.answer("x", 50000)
	tmp := h.put("projects/"+h.slug+"/.s1.tmp", r.String(), now.Add(-time.Minute))
	if err := os.Rename(tmp, filepath.Join(h.dir, filepath.FromSlash(h.transcript()))); err != nil {
		t.Fatal(err)
	}
	st, _ := h.tracker.Update(h.transcript()).Session("s1")
	if st.Turns != 1 || st.Context != 50000 {
		t.Errorf("after the rewrite: turns %d context %d", st.Turns, st.Context)
	}
}

func fileSize(t *testing.T, p string) int64 {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A home with nothing running, or no home folders at all, is a quiet
// snapshot, not a failure.
func TestTrackerEmptyHomes(t *testing.T) {
	for name, setup := range map[string]func(dir string){
		"empty":               func(string) {},
		"old transcript only": func(dir string) { writeFile(t, dir, "projects/-w/a.jsonl", "{}\n") },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			setup(dir)
			home, err := model.OpenHome(dir, model.HomeFromFlag)
			if err != nil {
				t.Fatal(err)
			}
			tr := NewTracker(Options{Home: home, Now: func() time.Time { return now.Add(1000 * time.Hour) }, Alive: func(int) bool { return true }})
			for _, snap := range []Snapshot{tr.Refresh(), tr.Update("projects/-w/a.jsonl", "sessions/1.json", "history.jsonl")} {
				if len(snap.Running) != 0 || len(snap.Sessions) != 0 || snap.Block != nil || len(snap.Problems) != 0 || len(Diff(snap, snap)) != 0 {
					t.Errorf("snapshot %+v", snap)
				}
			}
		})
	}
}

// A project whose settings say autoCompactEnabled: false has no
// autocompact: the status says so and where, the forecast runs to the
// blocking level, and the level past the autocompact threshold stays
// warning. Another project of the same home keeps autocompact.
func TestTrackerAutocompactOff(t *testing.T) {
	h := newLiveHome(t)
	writeFile(t, h.proj, ".claude/settings.json", `{"autoCompactEnabled": false}`)
	s := newScript("s1", filepath.ToSlash(h.proj), now.Add(-30*time.Minute))
	s.user("start")
	s.answer("a", 150000)
	s.answer("b", 170000)
	h.put(h.transcript(), s.String(), now.Add(-time.Minute))
	p := newScript("p1", "/w/batch", now.Add(-2*time.Minute))
	p.user("go")
	p.answer("p1", 150000)
	p.answer("p2", 170000)
	h.put("projects/-w-batch/p1.jsonl", p.String(), now.Add(-time.Minute))

	snap := h.tracker.Refresh()
	st, ok := snap.Session("s1")
	want := filepath.ToSlash(filepath.Join(h.proj, ".claude", "settings.json"))
	if !ok || !st.AutocompactOff || st.AutocompactOffIn != want {
		t.Fatalf("s1: autocompact off %v in %q, want off in %s", st.AutocompactOff, st.AutocompactOffIn, want)
	}
	if st.Level != window.LevelWarning || st.Forecast.Target != window.LevelBlocked || !st.Forecast.OK || st.Forecast.Turns != 1 {
		t.Errorf("s1: level %s, forecast %+v; want warning and one turn to blocked", st.Level, st.Forecast)
	}
	ps, ok := snap.Session("p1")
	if !ok || ps.AutocompactOff || ps.Level != window.LevelAutocompact || ps.Forecast.Target != window.LevelAutocompact {
		t.Errorf("p1 (no such setting): off %v level %s forecast %+v; want autocompact on", ps.AutocompactOff, ps.Level, ps.Forecast)
	}
}

// A running session's subagents are in its status: running while their
// meta file does not say finished (or, with none, while their transcript
// was written in the last SubagentQuiet), with their own context and
// tokens; one that starts later is seen by Update.
func TestTrackerSubagents(t *testing.T) {
	h := newLiveHome(t)
	s := newScript("s1", filepath.ToSlash(h.proj), now.Add(-30*time.Minute))
	s.user("start")
	s.answer("a", 100000)
	h.put(h.transcript(), s.String(), now.Add(-time.Minute))
	sub := func(id string, ctx int64, at time.Time) string {
		a := newScript("s1", filepath.ToSlash(h.proj), at)
		a.user("look")
		a.answer(id, ctx)
		a.answer(id+"b", ctx+1000)
		return a.String()
	}
	dir := "projects/" + h.slug + "/s1/subagents/"
	h.put(dir+"agent-run.jsonl", sub("r", 20000, now.Add(-2*time.Minute)), now.Add(-20*time.Second))
	h.put(dir+"agent-run.meta.json", `{"agentType":"Explore","description":"find the seed","finished":false}`, now.Add(-2*time.Minute))
	h.put(dir+"agent-done.jsonl", sub("d", 30000, now.Add(-9*time.Minute)), now.Add(-8*time.Minute))
	h.put(dir+"agent-done.meta.json", `{"agentType":"Plan","finished":true}`, now.Add(-8*time.Minute))
	// No meta file: an older client; quiet for longer than SubagentQuiet.
	h.put(dir+"agent-old.jsonl", sub("o", 40000, now.Add(-10*time.Minute)), now.Add(-SubagentQuiet-time.Minute))

	st, ok := h.tracker.Refresh().Session("s1")
	if !ok || len(st.Subagents) != 3 {
		t.Fatalf("s1 subagents %+v", st.Subagents)
	}
	r := st.Subagents[0]
	if r.AgentID != "run" || !r.Running || r.AgentType != "Explore" || r.Description != "find the seed" || r.Responses != 2 || r.Context != 21000 || r.Tokens != 20100+21100 {
		t.Errorf("the running subagent %+v", r)
	}
	for _, a := range st.Subagents[1:] {
		if a.Running {
			t.Errorf("%s runs: %+v", a.AgentID, a)
		}
	}
	// Not running: the latest written first.
	if st.Subagents[1].AgentID != "old" || st.Subagents[1].Finished || st.Subagents[2].AgentID != "done" || !st.Subagents[2].Finished {
		t.Errorf("the subagents at rest %+v", st.Subagents[1:])
	}

	// A new subagent starts, the running one finishes.
	h.clock = now.Add(30 * time.Second)
	h.put(dir+"agent-new.jsonl", sub("n", 5000, now), now.Add(25*time.Second))
	h.put(dir+"agent-run.meta.json", `{"agentType":"Explore","description":"find the seed","finished":true}`, now.Add(26*time.Second))
	st, _ = h.tracker.Update(dir+"agent-new.jsonl", dir+"agent-run.meta.json").Session("s1")
	var running []string
	for _, a := range st.Subagents {
		if a.Running {
			running = append(running, a.AgentID)
		}
	}
	if len(st.Subagents) != 4 || strings.Join(running, ",") != "new" {
		t.Errorf("after the update: %d subagents, running %v", len(st.Subagents), running)
	}
}

// A subagent's meta file reads as model.ReadSubagentMeta reads it
// everywhere else: a field of an unexpected type is left out, the rest
// still counts (finished: true ends the agent, whatever its
// description holds).
func TestTrackerSubagentMetaReadLeniently(t *testing.T) {
	h := newLiveHome(t)
	s := newScript("s1", filepath.ToSlash(h.proj), now.Add(-30*time.Minute))
	s.user("start")
	s.answer("a", 100000)
	h.put(h.transcript(), s.String(), now.Add(-time.Minute))
	a := newScript("s1", filepath.ToSlash(h.proj), now.Add(-time.Minute))
	a.user("look")
	a.answer("x", 1000)
	dir := "projects/" + h.slug + "/s1/subagents/"
	// Written seconds ago: without its meta file it would count as running.
	h.put(dir+"agent-odd.jsonl", a.String(), now.Add(-10*time.Second))
	h.put(dir+"agent-odd.meta.json", `{"agentType":"Plan","description":7,"finished":true}`, now.Add(-10*time.Second))
	st, ok := h.tracker.Refresh().Session("s1")
	if !ok || len(st.Subagents) != 1 {
		t.Fatalf("s1 subagents %+v", st.Subagents)
	}
	if sa := st.Subagents[0]; sa.Running || !sa.Finished || sa.AgentType != "Plan" {
		t.Errorf("the finished subagent %+v; want Plan, finished", sa)
	}
}

// CLAUDE_CODE_TRANSCRIPT_LOCAL_GC (2.1.332) rewrites a transcript after a
// compaction, dropping the rows before the boundary: the tracker starts
// again from the shorter file, with no turn, compaction or token counted
// twice and none left over from the old rows.
func TestTrackerFollowsALocalGCRewrite(t *testing.T) {
	h := newLiveHome(t)
	s := newScript("s1", filepath.ToSlash(h.proj), now.Add(-30*time.Minute))
	s.user("go")
	for i, ctx := range []int64{60000, 90000, 120000} {
		s.answer(fmt.Sprint("a", i), ctx)
	}
	cut := s.b.Len()
	s.compact("auto", 67542, 3000)
	s.answer("b0", 20000)
	s.answer("b1", 30000)
	h.put(h.transcript(), s.String(), now.Add(-time.Minute))
	before := h.tracker.Refresh()
	if st, _ := before.Session("s1"); st.Turns != 5 || len(st.Compactions) != 1 {
		t.Fatalf("before: turns %d compactions %d", st.Turns, len(st.Compactions))
	}
	// The rewrite keeps the boundary and what follows, through a temporary
	// file renamed over the transcript, as the client does.
	tmp := h.put("projects/"+h.slug+"/s1.jsonl.compact.tmp.0a1b", s.String()[cut:], now.Add(-time.Minute))
	if err := os.Rename(tmp, filepath.Join(h.dir, filepath.FromSlash(h.transcript()))); err != nil {
		t.Fatal(err)
	}
	after := h.tracker.Update(h.transcript())
	st, _ := after.Session("s1")
	if st.Turns != 2 || st.TurnsSinceCompaction != 2 || len(st.Compactions) != 1 || st.Context != 30000 {
		t.Errorf("after the rewrite: turns %d (%d since) compactions %d context %d", st.Turns, st.TurnsSinceCompaction, len(st.Compactions), st.Context)
	}
	if before.Block == nil || after.Block == nil || after.Block.Tokens.InputTokens >= before.Block.Tokens.InputTokens {
		t.Errorf("block tokens did not fall to the new file's: before %+v after %+v", before.Block, after.Block)
	}
}

// A transcript that becomes a sparse file of four windows (a line of
// zeros with no end) does not hold back another session's event: each
// snapshot after the first reads at most a window of it and says it is
// behind, a zeros line already read is not read again, and when the
// line ends it is reported once as too long and the record after it is
// read.
func TestTrackerReadsAGrownFileAWindowAtATime(t *testing.T) {
	h := newLiveHome(t)
	s := newScript("s1", filepath.ToSlash(h.proj), now.Add(-30*time.Minute))
	s.answer("a", 100000)
	p1 := h.put(h.transcript(), s.String(), now.Add(-time.Minute))
	o := newScript("s2", filepath.ToSlash(h.proj), now.Add(-20*time.Minute))
	o.answer("o", 1000)
	other := "projects/" + h.slug + "/s2.jsonl"
	p2 := h.put(other, o.String(), now.Add(-time.Minute))
	h.tracker.Refresh()

	grown := fileSize(t, p2) + 4*model.TailWindow
	if err := os.Truncate(p2, grown); err != nil {
		t.Fatal(err)
	}
	s2 := newScript("s1", filepath.ToSlash(h.proj), now.Add(-10*time.Minute))
	s2.answer("b", 150000)
	appendFile(t, p1, s2.String())
	snap := h.tracker.Update(h.transcript(), other)
	if st, _ := snap.Session("s1"); st.Context != 150000 {
		t.Errorf("s1's new answer not read beside the grown file: context %d", st.Context)
	}
	if snap.Read > model.TailWindow+1<<20 || len(snap.Behind) != 1 || snap.Behind[0] != other {
		t.Errorf("one snapshot read %d bytes (window %d), behind %v", snap.Read, model.TailWindow, snap.Behind)
	}
	for i := 0; len(snap.Behind) > 0; i++ {
		if i == 10 {
			t.Fatalf("still behind after %d snapshots: %v", i, snap.Behind)
		}
		snap = h.tracker.Update()
	}
	if snap = h.tracker.Update(other); snap.Read > 2*model.TailHeadMax {
		t.Errorf("the zeros already read were read again: %d bytes", snap.Read)
	}
	o2 := newScript("s2", filepath.ToSlash(h.proj), now.Add(-5*time.Minute))
	o2.answer("p", 2000)
	appendFile(t, p2, "\n"+o2.String())
	var tooLong int
	for i := 0; i < 3; i++ {
		snap = h.tracker.Update(other)
		for _, p := range snap.Problems {
			if p.Kind == model.ProblemTooLarge {
				tooLong++
			}
		}
	}
	if tooLong != 1 {
		t.Errorf("the zeros line reported %d times as too long, want once: %+v", tooLong, snap.Problems)
	}
	if h.tracker.files[other].tail.Offset != fileSize(t, p2) {
		t.Errorf("s2 read to %d of %d", h.tracker.files[other].tail.Offset, fileSize(t, p2))
	}
}
