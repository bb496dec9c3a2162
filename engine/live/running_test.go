package live

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/model"
)

func procFile(pid int, session, cwd, status string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte(fmt.Sprintf(`{"pid":%d,"sessionId":%q,"cwd":%q,"startedAt":"2026-11-22T09:00:00Z","status":%q}`, pid, session, cwd, status))}
}

func TestFindRunning(t *testing.T) {
	// file is a transcript whose newest record was written age ago.
	file := func(age time.Duration) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`{"type":"user","timestamp":"` + now.Add(-age).UTC().Format(time.RFC3339Nano) + `"}` + "\n{}\n"), ModTime: now.Add(-age)}
	}
	entry := func(age time.Duration, ep string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`{"type":"user","entrypoint":"` + ep + `","timestamp":"` + now.Add(-age).UTC().Format(time.RFC3339Nano) + `"}` + "\n"), ModTime: now.Add(-age)}
	}
	fsys := fstest.MapFS{
		"sessions/100.json":          procFile(100, "s100", "/w/app", "busy"),
		"sessions/100.ab.key":        {Data: []byte("k")},
		"sessions/200.json":          procFile(200, "s200", "/w/app", "idle"),
		"sessions/300.json":          procFile(300, "s300", "/w/new", "idle"),
		"sessions/bad.json":          {Data: []byte("{}")},
		"projects/-w-app/s100.jsonl": file(2 * time.Hour), // idle for long, but its process lives
		// A copy of s100 in another project folder: the cwd's folder wins.
		"projects/-w-copy/s100.jsonl":                   file(time.Minute),
		"projects/-w-app/s200.jsonl":                    file(3 * time.Minute), // process gone (a crash), recently written: not a -p run
		"projects/-w-other/p1.jsonl":                    file(time.Minute),
		"projects/-w-other/p2.jsonl":                    file(30 * time.Second),
		"projects/-w-other/p3.jsonl":                    file(10 * time.Minute), // too old
		"projects/-w-other/p1/subagents/agent-a1.jsonl": file(time.Second),
		// Copied, restored or generated: a new mtime, records a day old.
		// Not running (it was, by its mtime).
		"projects/-w-gen/g1.jsonl": {Data: file(24 * time.Hour).Data, ModTime: now.Add(-time.Second)},
		// An interactive session quit a minute ago (the client deleted
		// its process file): its records say entrypoint "cli". Not a -p
		// run. A -p run's records say "sdk-cli", and its evidence says so.
		"projects/-w-app/quit.jsonl": entry(time.Minute, "cli"),
		"projects/-w-app/p4.jsonl":   entry(20*time.Second, "sdk-cli"),
	}
	alive := map[int]bool{100: true, 300: true}
	rep := FindRunning(RunningOptions{FS: fsys, Now: now, Alive: func(pid int) bool { return alive[pid] }})
	var got []string
	for _, r := range rep.Sessions {
		got = append(got, fmt.Sprintf("%s:%s:%d:%s", r.Kind, r.SessionID, r.PID, r.Transcript))
	}
	want := []string{
		"interactive:s100:100:projects/-w-app/s100.jsonl",
		"interactive:s300:300:",
		"print:p4:0:projects/-w-app/p4.jsonl",
		"print:p2:0:projects/-w-other/p2.jsonl",
		"print:p1:0:projects/-w-other/p1.jsonl",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("running:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, r := range rep.Sessions {
		want := "is alive"
		if r.Kind == RunPrint {
			want = "its newest record is from 2026-11-22"
		}
		if !strings.Contains(r.Evidence, want) {
			t.Errorf("%s: evidence %q, want it to say %q", r.SessionID, r.Evidence, want)
		}
	}
	if ev := rep.Sessions[2].Evidence; !strings.Contains(ev, "entrypoint sdk-cli") {
		t.Errorf("p4: evidence %q does not name its entrypoint", ev)
	}
	if len(rep.Stale) != 1 || rep.Stale[0].PID != 200 {
		t.Errorf("stale %+v", rep.Stale)
	}
	if len(rep.Problems) != 1 || rep.Problems[0].File != "sessions/bad.json" {
		t.Errorf("problems %+v", rep.Problems)
	}
	s := rep.Sessions[0]
	if s.Status != model.LiveBusy || s.CWD != "/w/app" || !s.StartedAt.Equal(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)) || !s.LastWrite.Equal(now.Add(-2*time.Hour)) {
		t.Errorf("interactive session %+v", s)
	}

	// A wider window takes the older -p run in.
	rep = FindRunning(RunningOptions{FS: fsys, Now: now, Recent: 15 * time.Minute, Alive: func(pid int) bool { return alive[pid] }})
	if n := len(rep.Sessions); n != 6 || rep.Sessions[n-1].SessionID != "p3" {
		t.Errorf("with 15 minutes: %+v", rep.Sessions)
	}
}
