package model

import (
	"testing"
	"testing/fstest"
	"time"
)

func TestReadLiveSessions(t *testing.T) {
	fsys := fstest.MapFS{
		"sessions/4242.json":                 {Data: []byte(`{"pid":4242,"sessionId":"90f1c313-1390-4b18-a0c3-3b92641c73e5","cwd":"/home/me/app","startedAt":1795345790406,"status":"busy","version":"2.1.330"}`)},
		"sessions/4242.9f3a.key":             {Data: []byte("secret")},
		"sessions/77.json":                   {Data: []byte(`{"sessionId":"s77","cwd":"/x","startedAt":"2026-11-22T10:00:00Z","status":"idle"}`)},
		"sessions/88.json":                   {Data: []byte(`{"pid":"eighty-eight"}`)},
		"sessions/99.json":                   {Data: []byte(`{"pid":99,`)},
		"sessions/notes.txt":                 {Data: []byte("?")},
		"sessions/abc-uuid/transcript.jsonl": {Data: []byte("{}\n")},
	}
	got, probs := ReadLiveSessions(fsys)
	if len(got) != 2 {
		t.Fatalf("sessions = %+v", got)
	}
	a, b := got[0], got[1]
	if a.PID != 77 || a.SessionID != "s77" || a.Status != LiveIdle || !a.StartedAt.Equal(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)) || a.Extra != nil {
		t.Errorf("pid from file name, ISO time: %+v", a)
	}
	if b.PID != 4242 || b.CWD != "/home/me/app" || b.Status != LiveBusy || !b.StartedAt.Equal(time.Date(2026, 11, 22, 11, 9, 50, 406e6, time.UTC)) ||
		string(b.Extra["version"]) != `"2.1.330"` || b.Path != "sessions/4242.json" {
		t.Errorf("ms time and extra keys: %+v", b)
	}
	wantFiles := []string{"sessions/88.json", "sessions/99.json", "sessions/notes.txt"}
	if len(probs) != len(wantFiles) {
		t.Fatalf("problems = %+v", probs)
	}
	for i, f := range wantFiles {
		if probs[i].File != f || probs[i].Kind != ProblemMalformed {
			t.Errorf("problem %d = %+v, want %s", i, probs[i], f)
		}
	}
}
