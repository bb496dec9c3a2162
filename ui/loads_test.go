package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// loadsSession is a transcript whose process start loaded MEMORY.md (text
// index) for the project memscope opens.
func loadsSession(home, session, index string) string {
	mem := filepath.Join(home, "projects", model.Slug(chaosProject), "memory", "MEMORY.md")
	return fmt.Sprintf(`{"type":"user","uuid":"u-%[1]s","sessionId":%[1]q,"cwd":%[2]q,"timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"hi"}}`+"\n"+
		`{"type":"attachment","uuid":"a-%[1]s","parentUuid":"u-%[1]s","sessionId":%[1]q,"timestamp":"2026-11-20T10:00:01.000Z","attachment":{"type":"instructions","files":[{"path":%[3]q,"type":"AutoMem","content":%[4]q}]}}`+"\n",
		session, chaosProject, mem, index)
}

// The Memories detail says which recorded sessions saw a memory's index
// line; a session that starts while the app is open counts once its
// transcript is read, at the cost of one more project load.
func TestMemoriesDetailShowsLoads(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "projects", model.Slug(chaosProject))
	index := "- [Deploys](deploys.md) — how deploys go\n"
	for name, text := range map[string]string{
		"memory/MEMORY.md":  index,
		"memory/deploys.md": "---\nname: deploys\ndescription: How deploys go\ntype: project\n---\nTuesdays.\n",
		"s1.jsonl":          loadsSession(home, "s1", index),
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := press(t, openHome(t, home), "4")
	if !strings.Contains(screen(m), "sessions: line 1: loaded in 1 session, last") {
		t.Fatalf("Memories detail:\n%s", screen(m))
	}
	s2 := filepath.Join(dir, "s2.jsonl")
	os.WriteFile(s2, []byte(loadsSession(home, "s2", index)), 0o644)
	m, seen := reloadSeen(t, m, s2)
	if !strings.Contains(screen(m), "sessions: line 1: loaded in 2 sessions, last") {
		t.Fatalf("after a new session:\n%s", screen(m))
	}
	if n := len(seen["feed.ProjectLoaded"]); n != 1 {
		t.Errorf("%d project loads for a new session's loads, want 1", n)
	}
	appendTo := func(p, text string) {
		t.Helper()
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	// An append without an attachment record cannot change what the
	// sessions loaded: the transcripts' loads are not read again.
	appendTo(s2, `{"type":"assistant","uuid":"r-s2","sessionId":"s2","timestamp":"2026-11-20T10:00:02.000Z","message":{"role":"assistant","content":"ok"}}`+"\n")
	m, seen = reloadSeen(t, m, s2)
	if n := len(seen["feed.LoadsRead"]); n != 0 {
		t.Errorf("%d loads reads after a plain append, want 0", n)
	}
	if len(seen["feed.SessionsLoaded"]) == 0 {
		t.Fatal("the append did not reload the sessions")
	}
	// An appended load (here a session the transcript goes on with) is
	// read, and shows.
	appendTo(s2, loadsSession(home, "s3", index))
	m, seen = reloadSeen(t, m, s2)
	if n := len(seen["feed.LoadsRead"]); n == 0 {
		t.Error("an appended load was not read")
	}
	if !strings.Contains(screen(m), "sessions: line 1: loaded in 3 sessions, last") {
		t.Fatalf("after an appended load:\n%s", screen(m))
	}
}
