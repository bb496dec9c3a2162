package live

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// trackerOn is a tracker of h's home (its clock, its processes) with the
// on-disk cache in dir ("": none). Its machine clock is an hour ahead, so
// the files the test just wrote are settled.
func trackerOn(t *testing.T, h *liveHome, dir string) *Tracker {
	t.Helper()
	home, err := model.OpenHome(h.dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Home: home, Root: testroot.New(t), Now: func() time.Time { return h.clock },
		Alive: func(pid int) bool { return h.alive[pid] }, Session: SessionOptions{Getenv: env()}}
	if dir != "" {
		o.Cache = diskcache.New(dir, testroot.New(t), model.OSWriteFS{})
	}
	tr := NewTracker(o)
	tr.wall = func() time.Time { return time.Now().Add(time.Hour) }
	return tr
}

// snapJSON is a snapshot without the bytes it read: what the Live pane
// and the events are made of.
func snapJSON(t *testing.T, s Snapshot) string {
	t.Helper()
	s.Read = 0
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTrackerKeepsTheBlocksFilesOnDisk: with a cache, a start (a new
// tracker, a new Store) reads none of the transcripts it follows for the
// 5-hour block only (written in the last day, no session of theirs
// running) that are as the last start left them, and only what was
// appended to one that grew; one truncated, rewritten in place (same size
// and mtime), replaced by another inode or new is read whole; one whose
// session starts running is read whole for its state. Every snapshot is
// the one a tracker without a cache takes (problems of the files not read
// included). Before, every start read every such file whole.
func TestTrackerKeepsTheBlocksFilesOnDisk(t *testing.T) {
	h := newLiveHome(t)
	s := newScript("s1", filepath.ToSlash(h.proj), now.Add(-30*time.Minute))
	s.user("start")
	s.answer("a", 100000)
	run := h.put(h.transcript(), s.String(), now.Add(-time.Minute))
	// Sessions of the last hours, not running: a main transcript with a
	// subagent, and one in another project with a line that is not JSON.
	b1s := newScript("b1", filepath.ToSlash(h.proj), now.Add(-3*time.Hour))
	b1s.user("earlier")
	b1s.answer("b1a", 50000)
	b1 := h.put("projects/"+h.slug+"/b1.jsonl", b1s.String(), now.Add(-3*time.Hour))
	sub := newScript("b1", filepath.ToSlash(h.proj), now.Add(-170*time.Minute))
	sub.answer("b1sub", 7000)
	h.put("projects/"+h.slug+"/b1/subagents/agent-q.jsonl", sub.String(), now.Add(-170*time.Minute))
	b2s := newScript("b2", "/w/other", now.Add(-2*time.Hour))
	b2s.user("other")
	b2s.answer("b2a", 60000)
	b2s.answer("b2b", 61000)
	b2 := h.put("projects/-w-other/b2.jsonl", b2s.String()+"not json\n", now.Add(-2*time.Hour))

	dir := filepath.Join(t.TempDir(), "cache")
	// whole is what a read of a file from its start reads: the file,
	// and its head hashed.
	whole := func(ps ...string) (n int64) {
		for _, p := range ps {
			size := fileSize(t, p)
			n += size + min(size, model.TailHeadMax)
		}
		return n
	}
	// check starts a tracker on the cache and one without, and compares
	// their first snapshots; the cached one reads wantRead bytes beyond
	// the running session's transcript (read whole), and at most head
	// more (a grown file's head checked and hashed again).
	check := func(what string, wantRead, head int64) *Tracker {
		t.Helper()
		tr := trackerOn(t, h, dir)
		got := tr.Refresh()
		want := trackerOn(t, h, "").Refresh()
		if g, w := snapJSON(t, got), snapJSON(t, want); g != w {
			t.Errorf("%s: the snapshot from the cache:\n%s\nwithout it:\n%s", what, g, w)
		}
		if extra := got.Read - whole(run); extra < wantRead || extra > wantRead+head {
			t.Errorf("%s: read %d bytes beyond the running transcript, want %d (and at most %d of a head check)", what, extra, wantRead, head)
		}
		return tr
	}
	sp := filepath.Join(h.dir, "projects", h.slug, "b1", "subagents", "agent-q.jsonl")
	cold := check("cold", whole(b1, b2, sp), 0)
	if snap := cold.Refresh(); snap.Block == nil || len(snap.Problems) != 0 {
		t.Fatalf("block %+v, problems %v (the bad line is reported by the first snapshot only)", snap.Block, snap.Problems)
	}
	if got := check("warm", 0, 0); len(got.files) != 4 {
		t.Errorf("followed %d files, want 4", len(got.files))
	}

	// Appended to (still not running: an answer an hour ago).
	before := fileSize(t, b1)
	b1s.at(now.Add(-time.Hour)).answer("b1b", 52000)
	appendFile(t, b1, b1s.String()[before:])
	h.touch(b1, now.Add(-time.Hour))
	check("appended", fileSize(t, b1)-before, 2*min(fileSize(t, b1), model.TailHeadMax))
	check("warm after the append", 0, 0)

	// Truncated: the bad line goes.
	if err := os.Truncate(b2, int64(len(b2s.String()))); err != nil {
		t.Fatal(err)
	}
	h.touch(b2, now.Add(-2*time.Hour))
	check("truncated", whole(b2), 0)
	check("warm after the truncation", 0, 0)

	// Rewritten in place, same size and mtime: another token count.
	data, err := os.ReadFile(b1)
	if err != nil {
		t.Fatal(err)
	}
	re := strings.Replace(string(data), `"output_tokens":100`, `"output_tokens":900`, 1)
	if re == string(data) {
		t.Fatal("nothing to rewrite")
	}
	f, err := os.OpenFile(b1, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(re), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	h.touch(b1, now.Add(-time.Hour))
	check("rewritten in place", whole(b1), 0)

	// Replaced by another file of the same size and mtime.
	other := strings.Replace(b2s.String(), `"output_tokens":100`, `"output_tokens":700`, 1)
	tmp := b2 + ".new"
	if err := os.WriteFile(tmp, []byte(other), 0o600); err != nil {
		t.Fatal(err)
	}
	h.touch(tmp, now.Add(-2*time.Hour))
	if err := os.Rename(tmp, b2); err != nil {
		t.Fatal(err)
	}
	check("replaced", whole(b2), 0)

	// New.
	b3s := newScript("b3", "/w/other", now.Add(-4*time.Hour))
	b3s.answer("b3a", 1234)
	b3 := h.put("projects/-w-other/b3.jsonl", b3s.String(), now.Add(-4*time.Hour))
	check("new", whole(b3), 0)

	// b1's session starts again (a process of its own): a tracker that
	// took b1 from the cache reads it whole for its state.
	warm := check("warm before the resume", 0, 0)
	writeFile(t, h.dir, "sessions/5151.json", fmt.Sprintf(`{"pid":5151,"sessionId":"b1","cwd":%q,"startedAt":"2026-11-22T11:59:00Z","status":"idle"}`, filepath.ToSlash(h.proj)))
	h.alive[5151] = true
	got := warm.Refresh()
	want := trackerOn(t, h, "").Refresh()
	if g, w := snapJSON(t, got), snapJSON(t, want); g != w {
		t.Errorf("resumed: the snapshot of a tracker that took b1 from the cache:\n%s\nwithout a cache:\n%s", g, w)
	}
	if st, ok := got.Session("b1"); !ok || st.Context != 52000 {
		t.Errorf("b1 resumed: %+v", st)
	}
	if got.Read != whole(b1, sp) {
		t.Errorf("resumed: read %d bytes, want b1 and its subagent whole (%d)", got.Read, whole(b1, sp))
	}
}
