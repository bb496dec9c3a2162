package sessions

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/model"
)

// tline builds one transcript line; usage "" leaves message.usage out.
func tline(typ, ts, cwd, id, req, usage string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"type":%q,"timestamp":%q,"sessionId":"x"`, typ, ts)
	if cwd != "" {
		fmt.Fprintf(&b, `,"cwd":%q`, cwd)
	}
	if req != "" {
		fmt.Fprintf(&b, `,"requestId":%q`, req)
	}
	if usage != "" {
		fmt.Fprintf(&b, `,"message":{"id":%q,"role":"assistant","content":[],"usage":%s}`, id, usage)
	}
	return b.String() + "}\n"
}

func at(hhmm string) string { return "2026-11-11T" + hhmm + ":00.000Z" }

func sessionsHome() fstest.MapFS {
	u := func(in, out int) string { return fmt.Sprintf(`{"input_tokens":%d,"output_tokens":%d}`, in, out) }
	app, other := "/home/me/app", "/home/me/other"
	return fstest.MapFS{
		// s1: the first session; m1 is written twice (counted once).
		"projects/-home-me-app/s1.jsonl": {Data: []byte(
			tline("user", at("10:00"), app, "", "", "") +
				tline("assistant", at("10:01"), app, "m1", "r1", u(10, 1)) +
				tline("assistant", at("10:01"), app, "m1", "r1", u(10, 1)) +
				`{"type":"system","subtype":"compact_boundary","timestamp":"` + at("10:02") + `","compactMetadata":{"trigger":"auto","preTokens":9}}` + "\n" +
				tline("assistant", at("10:03"), app, "m2", "r2", u(5, 2)))},
		// A subagent of s1: m1 again (already counted in s1, whose earliest
		// timestamp comes first) and its own m3.
		"projects/-home-me-app/s1/subagents/agent-a.jsonl": {Data: []byte(
			tline("assistant", at("10:04"), app, "m1", "r1", u(10, 1)) +
				tline("assistant", at("10:05"), app, "m3", "r3", u(7, 3)))},
		// s0 sorts before s1 by path but starts later: its copy of m1 (with
		// other numbers) does not count, its m4 does. It also has a corrupt
		// line and a write in progress.
		"projects/-home-me-app/s0.jsonl": {Data: []byte(
			tline("assistant", at("12:00"), app, "m1", "r1", u(99, 99)) +
				"{corrupt\n" +
				tline("assistant", at("12:01"), app, "m4", "r4", u(1, 1)) +
				`{"type":"user","timest`)},
		// Only a subagent is left of s3; it names no folder.
		"projects/-home-me-app/s3/subagents/agent-b.jsonl": {Data: []byte(
			tline("assistant", at("09:00"), "", "m5", "r5", u(2, 2)))},
		// Lines without a requestId always count.
		"projects/-home-me-other/s4.jsonl": {Data: []byte(
			tline("assistant", at("08:00"), other, "m6", "", u(3, 0)) +
				tline("assistant", at("08:01"), other, "m6", "", u(3, 0)))},
		// The older sessions/<id>/transcript.jsonl layout.
		"sessions/s5/transcript.jsonl":           {Data: []byte(tline("user", at("07:00"), "/seed", "", "", ""))},
		"projects/-home-me-app/memory/MEMORY.md": {Data: []byte("- [a](a.md) — b\n")},
	}
}

func TestSessionsRowsAndTotals(t *testing.T) {
	rep := Summarize(Options{Home: &model.Home{Dir: "/h", FS: sessionsHome(), Source: model.HomeFromFlag}})
	type row struct {
		id, project, kind, path string
		subagents, records      int
		compact                 int
		usage, sub              model.Usage
		responses, problems     int
		first, last             string
	}
	use := func(in, out int64) model.Usage { return model.Usage{InputTokens: in, OutputTokens: out} }
	want := []row{
		{"s3", "/home/me/app", "main", "", 1, 1, 0, use(2, 2), use(2, 2), 1, 0, "09:00", "09:00"},
		{"s1", "/home/me/app", "main", "projects/-home-me-app/s1.jsonl", 1, 7, 1, use(10+5+7, 1+2+3), use(7, 3), 3, 0, "10:00", "10:05"},
		{"s0", "/home/me/app", "main", "projects/-home-me-app/s0.jsonl", 0, 2, 0, use(1, 1), model.Usage{}, 1, 2, "12:00", "12:01"},
		{"s4", "/home/me/other", "main", "projects/-home-me-other/s4.jsonl", 0, 2, 0, use(6, 0), model.Usage{}, 2, 0, "08:00", "08:01"},
		{"s5", "/seed", "seed", "sessions/s5/transcript.jsonl", 0, 1, 0, model.Usage{}, model.Usage{}, 0, 0, "07:00", "07:00"},
	}
	if len(rep.Sessions) != len(want) {
		t.Fatalf("got %d rows, want %d: %+v", len(rep.Sessions), len(want), rep.Sessions)
	}
	for i, w := range want {
		g := rep.Sessions[i]
		got := row{g.SessionID, g.Project, string(g.Kind), g.Path, g.Subagents, g.Records, g.CompactBoundaries, g.Usage, g.SubagentUsage,
			g.Responses, g.Problems, g.First.Format("15:04"), g.Last.Format("15:04")}
		if got != w {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
	tot := rep.Totals
	if tot.Sessions != 5 || tot.Transcripts != 6 || tot.SubagentTranscripts != 2 || tot.Records != 13 || tot.CompactBoundaries != 1 ||
		tot.Usage != use(2+22+1+6, 2+6+1+0) || tot.SubagentUsage != use(9, 5) || tot.Responses != 7 || tot.Problems != 2 {
		t.Errorf("totals %+v", tot)
	}
	kinds := map[model.ProblemKind]int{}
	for _, p := range rep.Problems {
		kinds[p.Kind]++
		if p.File != "projects/-home-me-app/s0.jsonl" {
			t.Errorf("problem in the wrong file: %+v", p)
		}
	}
	if kinds[model.ProblemMalformed] != 1 || kinds[model.ProblemIncompleteTail] != 1 {
		t.Errorf("problems %+v", rep.Problems)
	}
	if rep.Home != "/h" || rep.Source != string(model.HomeFromFlag) || rep.Demo {
		t.Errorf("home fields %q %q %v", rep.Home, rep.Source, rep.Demo)
	}
}

func TestSessionsProjectFilterAndWorkers(t *testing.T) {
	h := &model.Home{Dir: "/h", FS: sessionsHome(), Source: model.HomeFromDemo}
	rep := Summarize(Options{Home: h, ProjectSlug: "-home-me-other", Workers: 1})
	if len(rep.Sessions) != 1 || rep.Sessions[0].SessionID != "s4" || rep.Totals.Usage.InputTokens != 6 || !rep.Demo {
		t.Errorf("filtered report %+v", rep)
	}
	none := Summarize(Options{Home: h, ProjectSlug: "-nowhere"})
	if len(none.Sessions) != 0 || none.Problems == nil || none.Sessions == nil {
		t.Errorf("empty report must have empty (not nil) lists: %+v", none)
	}
	// The result does not depend on the number of workers.
	one := Summarize(Options{Home: h, Workers: 1})
	many := Summarize(Options{Home: h, Workers: 8})
	if fmt.Sprint(one) != fmt.Sprint(many) {
		t.Errorf("1 worker and 8 workers differ:\n%+v\n%+v", one, many)
	}
}

func TestSessionsUnreadableFile(t *testing.T) {
	fsys := fstest.MapFS{
		"projects/-a/s.jsonl": {Data: []byte(tline("user", at("10:00"), "/a", "", "", ""))},
		"projects/-a/t.jsonl": {Data: []byte(tline("user", at("10:00"), "/a", "", "", ""))},
	}
	rep := Summarize(Options{Home: &model.Home{Dir: "/h", FS: errFS{fsys, "projects/-a/t.jsonl"}}})
	if len(rep.Sessions) != 2 || rep.Totals.Problems != 1 || rep.Problems[0].Kind != model.ProblemUnreadable {
		t.Errorf("want the unreadable file reported and the other read: %+v", rep)
	}
}

// errFS fails to open one file.
type errFS struct {
	fstest.MapFS
	bad string
}

func (e errFS) Open(name string) (fs.File, error) {
	if name == e.bad {
		return nil, fmt.Errorf("open %s: permission denied", name)
	}
	return e.MapFS.Open(name)
}
