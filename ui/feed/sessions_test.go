package feed

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/homepass"
	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// Session requests for the same project merge their sessions; one for
// another project replaces them with a full load.
func TestMergeSessions(t *testing.T) {
	t.Parallel()
	a := SessionsReq{Slug: "p", IDs: map[string]bool{"1": true}}
	got := MergeSessions(a, SessionsReq{Slug: "p", IDs: map[string]bool{"2": true}})
	if got.Full || !got.IDs["1"] || !got.IDs["2"] {
		t.Fatalf("same project: %+v", got)
	}
	if got := MergeSessions(a, SessionsReq{Slug: "q", IDs: map[string]bool{"2": true}}); got.Slug != "q" || !got.Full {
		t.Fatalf("another project: %+v", got)
	}
}

// The Sessions feed lists a project's sessions, then reads only the
// sessions a request names, from where their followers stopped: an
// appended line is counted, the other session is kept as it was (its
// follower not read again), a new session is added.
func TestSessionsFeedReadsTheSessionsNamed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	line := func(id string) string {
		return `{"type":"user","uuid":"u` + id + `","sessionId":"` + id + `","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w/p","message":{"role":"user","content":"hi"}}` + "\n"
	}
	write := func(id, body string, flag int) {
		t.Helper()
		p := filepath.Join(dir, "projects", "-w-p", id+".jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|flag, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(body); err != nil {
			t.Fatal(err)
		}
	}
	a, b, c := "aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002", "cccccccc-0000-4000-8000-000000000003"
	write(a, line(a), os.O_TRUNC)
	write(b, line(b)+line(b), os.O_TRUNC)
	fsys := model.HomeFS(dir)
	s := NewSessions()
	load := func(r SessionsReq) SessionsLoaded {
		t.Helper()
		msg, ok := s.Load(fsys, r)().(SessionsLoaded)
		if !ok {
			t.Fatal("Load did not return SessionsLoaded")
		}
		s.Loaded(msg)
		return msg
	}
	records := func() map[string]int {
		out := map[string]int{}
		for _, x := range s.List() {
			out[x.File.SessionID] = x.Records
		}
		return out
	}
	first := load(SessionsReq{Slug: "-w-p", Full: true})
	if got := records(); len(got) != 2 || got[a] != 1 || got[b] != 2 || !first.MayLoad {
		t.Fatalf("the first list: %v (may load %v)", got, first.MayLoad)
	}
	pathB := s.List()[0].File.Path
	if s.List()[0].File.SessionID != b {
		pathB = s.List()[1].File.Path
	}
	readB := s.Follower(pathB).Read()

	write(a, line(a), os.O_APPEND)
	write(b, line(b), os.O_APPEND) // not named: not read
	write(c, line(c), os.O_TRUNC)
	load(SessionsReq{Slug: "-w-p", IDs: map[string]bool{a: true, c: true}})
	if got := records(); len(got) != 3 || got[a] != 2 || got[b] != 2 || got[c] != 1 {
		t.Errorf("after appends to a, a new c: %v, want a 2, b 2 (not named), c 1", got)
	}
	if s.Follower(pathB).Read() != readB {
		t.Error("the session not named was read again")
	}
	if got := load(SessionsReq{Slug: "-w-p", Full: true}); len(got.Sessions) != 3 || records()[b] != 3 {
		t.Errorf("a full load: %v", records())
	}
}

// A full load after the Overview's pass took the followers it built
// (Sessions.TakeFrom): it reads none of the project's transcripts again
// beyond the head each follower checks, and lists what a load reading
// them itself lists. (Before, the list read each transcript whole the
// pass had just read.)
func TestSessionsFullLoadTakesThePassFollowers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var want int64
	for i, id := range []string{"aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002"} {
		var body strings.Builder
		for j := range 50 + i*30 {
			fmt.Fprintf(&body, `{"type":"user","uuid":"u%d-%d","sessionId":"%s","timestamp":"2026-03-01T10:%02d:00.000Z","cwd":"/w/p","message":{"role":"user","content":"hi %d"}}`+"\n", i, j, id, j%60, j)
		}
		p := filepath.Join(dir, "projects", "-w-p", id+".jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		want += int64(body.Len())
	}
	fsys := model.HomeFS(dir)
	alone, _ := NewSessions().Load(fsys, SessionsReq{Slug: "-w-p", Full: true})().(SessionsLoaded)
	h := enginesessions.NewHandoff()
	files, _ := model.FindTranscripts(fsys)
	if _, err := homepass.Run(fsys, files, 2, readAll{}, h.Feed("-w-p")); err != nil {
		t.Fatal(err)
	}
	rc := &testenv.ReadCounter{FS: fsys, Count: func(name string) bool { return strings.HasSuffix(name, ".jsonl") }}
	s := NewSessions()
	s.TakeFrom(h)
	got, _ := s.Load(rc, SessionsReq{Slug: "-w-p", Full: true})().(SessionsLoaded)
	// What is left: the head each follower checks, and the end each
	// session's last activity is read from (enginesessions.LastActive:
	// 64 KiB, the whole of these small files).
	var bound int64
	for _, f := range files {
		bound += min(f.Size, model.TailHeadMax) + min(f.Size, 64<<10)
	}
	if n := rc.N.Load(); n > bound {
		t.Errorf("the full load after the pass read %d transcript bytes (they hold %d), want at most %d: the heads its followers check and the ends LastActive reads", n, want, bound)
	}
	if !reflect.DeepEqual(got.Sessions, alone.Sessions) {
		t.Errorf("with the pass's followers the load listed\n%+v\nalone\n%+v", got.Sessions, alone.Sessions)
	}
}

// readAll wants every file (the passes that have the shared reader read
// them), so that the followers' feed, which rides on them, is fed.
type readAll struct{}

func (readAll) Want(model.TranscriptFile, model.FileStamp) homepass.File { return nopFile{} }
func (readAll) Done() error                                              { return nil }

type nopFile struct{}

func (nopFile) Line(model.Line)        {}
func (nopFile) End(int64, error, bool) {}
