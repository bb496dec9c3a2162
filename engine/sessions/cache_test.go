package sessions

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// reportJSON is the report as `sessions --json` prints it.
func reportJSON(t *testing.T, fsys fstest.MapFS, c *diskcache.Store) string {
	t.Helper()
	b, err := json.MarshalIndent(Summarize(Options{Home: &model.Home{Dir: "/h", FS: fsys, Source: model.HomeFromFlag}, Cache: c}), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A report through the cache is the report without it: on the first run,
// on the next (answered from the cache: a tampered entry shows), after a
// file is rewritten to the same size (read again), and after a new file
// takes over a response another file counted (the home-wide dedupe runs
// over cached and new scans alike).
func TestSessionsCache(t *testing.T) {
	fsys := sessionsHome()
	c := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	if got, want := reportJSON(t, fsys, c), reportJSON(t, fsys, nil); got != want {
		t.Fatalf("first run through the cache:\n%s\nwithout:\n%s", got, want)
	}
	name := diskcache.Name(cacheKind, "/h")
	const s1 = "projects/-home-me-app/s1.jsonl"
	saved, ok := diskcache.Load[map[string]diskcache.Entry[savedScan]](c, cacheKind, name)
	if !ok || len(saved) != 6 {
		t.Fatalf("the cache holds %d scans (ok %v), want the home's 6 transcripts", len(saved), ok)
	}
	e := saved[s1]
	e.Value.Sum.Records += 1000
	saved[s1] = e
	if err := diskcache.Save(c, cacheKind, name, saved); err != nil {
		t.Fatal(err)
	}
	rep := Summarize(Options{Home: &model.Home{Dir: "/h", FS: fsys, Source: model.HomeFromFlag}, Cache: c})
	if rep.Totals.Records < 1000 {
		t.Fatalf("an unchanged home: %d records, want the tampered entry's 1000 more: the cache was not used", rep.Totals.Records)
	}
	// Rewritten to the same size: m2's output 2 -> 9.
	old := string(fsys[s1].Data)
	fsys[s1] = &fstest.MapFile{Data: []byte(old[:len(old)-len(`{"input_tokens":5,"output_tokens":2}}}`)-1] + `{"input_tokens":5,"output_tokens":9}}}` + "\n")}
	if len(fsys[s1].Data) != len(old) {
		t.Fatalf("the rewrite changed the size: %d, was %d", len(fsys[s1].Data), len(old))
	}
	if got, want := reportJSON(t, fsys, c), reportJSON(t, fsys, nil); got != want {
		t.Errorf("after a same-size rewrite, through the cache:\n%s\nwithout:\n%s", got, want)
	}
	// A resumed copy that starts earlier now counts m2.
	fsys["projects/-home-me-app/s9.jsonl"] = &fstest.MapFile{Data: []byte(tline("assistant", at("09:30"), "/home/me/app", "m2", "r2", `{"input_tokens":5,"output_tokens":9}`))}
	got, want := reportJSON(t, fsys, c), reportJSON(t, fsys, nil)
	if got != want {
		t.Errorf("after a new file takes a response over, through the cache:\n%s\nwithout:\n%s", got, want)
	}
	rep = Summarize(Options{Home: &model.Home{Dir: "/h", FS: fsys, Source: model.HomeFromFlag}, Cache: c})
	for _, r := range rep.Sessions {
		if r.SessionID == "s9" && r.Responses != 1 || r.SessionID == "s1" && r.Responses != 2 {
			t.Errorf("%s counts %d responses: m2 belongs to s9 now (s1 keeps m1 and its subagent's m3)", r.SessionID, r.Responses)
		}
	}
}

// A report of the whole home keeps the dedupe's answer in the cache, and
// the next report of the same unchanged files takes it (a tampered
// answer shows); a report of one project, a new file or a file gone
// works it out again, so the answer is always the one without a cache:
// once s1's transcript, which counted m1, is gone, its subagent's copy
// of m1 counts.
func TestSessionsCacheKeepsTheDedupe(t *testing.T) {
	fsys := sessionsHome()
	c := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	home := &model.Home{Dir: "/h", FS: fsys, Source: model.HomeFromFlag}
	reportJSON(t, fsys, c)
	name := diskcache.Name(cacheKind, "/h")
	const s0, s1 = "projects/-home-me-app/s0.jsonl", "projects/-home-me-app/s1.jsonl"
	saved, _ := diskcache.Load[map[string]diskcache.Entry[savedScan]](c, cacheKind, name)
	e := saved[s0]
	if !e.Value.Deduped || len(e.Value.Dropped) != 1 || e.Value.Dropped[0] != 0 {
		t.Fatalf("s0's entry: deduped %v, dropped %v; want its copy of m1 (line 0) dropped", e.Value.Deduped, e.Value.Dropped)
	}
	// Tampered: s0 drops its m4 too.
	e.Value.Dropped = []int32{0, 1}
	saved[s0] = e
	if err := diskcache.Save(c, cacheKind, name, saved); err != nil {
		t.Fatal(err)
	}
	all := Summarize(Options{Home: home})
	if got := Summarize(Options{Home: home, Cache: c}); got.Totals.Responses != all.Totals.Responses-1 {
		t.Fatalf("an unchanged home: %d responses, want the tampered answer's %d: the cache's dedupe was not used", got.Totals.Responses, all.Totals.Responses-1)
	}
	// A report of one project, then of the home: worked out again.
	Summarize(Options{Home: home, Cache: c, ProjectSlug: "-home-me-other"})
	if got, want := reportJSON(t, fsys, c), reportJSON(t, fsys, nil); got != want {
		t.Fatalf("after a report of one project, through the cache:\n%s\nwithout:\n%s", got, want)
	}
	delete(fsys, s1)
	if got, want := reportJSON(t, fsys, c), reportJSON(t, fsys, nil); got != want {
		t.Fatalf("after s1 is gone, through the cache:\n%s\nwithout:\n%s", got, want)
	}
	for _, r := range Summarize(Options{Home: home, Cache: c}).Sessions {
		if r.SessionID == "s1" && (r.Responses != 2 || r.Usage.InputTokens != 17) {
			t.Errorf("s1 counts %d responses, input %d; want its subagent's m1 and m3 (2, 17)", r.Responses, r.Usage.InputTokens)
		}
	}
}
