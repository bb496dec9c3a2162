package feed

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// With memscope's cache, the Replay list of the next start takes each
// unchanged transcript's summary (records, compactions, title, last
// activity) from it: its transcripts are stamped (their first 4 KiB),
// not read, and the list is the one a read makes. An appended transcript
// is read again; its follower then reads it from its start.
func TestNextStartsReplayListFromTheCache(t *testing.T) {
	dir := t.TempDir()
	line := func(id string, n int) string {
		return `{"type":"user","uuid":"u` + id + strings.Repeat("x", n%7) + `","sessionId":"` + id + `","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w/p","message":{"role":"user","content":"` + strings.Repeat("hello ", 40) + `"}}` + "\n"
	}
	a, b := "aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002"
	write := func(id string, lines int, flag int) {
		t.Helper()
		p := filepath.Join(dir, "projects", "-w-p", id+".jsonl")
		os.MkdirAll(filepath.Dir(p), 0o700)
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|flag, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for i := range lines {
			f.WriteString(line(id, i))
		}
	}
	write(a, 60, os.O_TRUNC)
	write(b, 90, os.O_TRUNC)
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	home := &model.Home{Dir: dir, FS: model.HomeFS(dir)}
	start := func() (SessionsLoaded, int64) {
		t.Helper()
		rc := &testenv.ReadCounter{FS: home.FS, Count: func(name string) bool { return strings.HasSuffix(name, ".jsonl") }}
		s := NewSessionsOn(home, cache)
		msg := s.Load(rc, SessionsReq{Slug: "-w-p", Full: true})().(SessionsLoaded)
		return msg, rc.N.Load()
	}
	var size int64
	for _, id := range []string{a, b} {
		info, _ := os.Stat(filepath.Join(dir, "projects", "-w-p", id+".jsonl"))
		if info.Size() <= 2*model.TailHeadMax {
			t.Fatal("the transcripts are too small to tell a stamp from a read")
		}
		size += info.Size()
	}
	first, n := start()
	if n < size {
		t.Fatalf("the first start read %d transcript bytes of %d", n, size)
	}
	if len(first.Sessions) != 2 || first.Sessions[0].Records+first.Sessions[1].Records != 150 {
		t.Fatalf("the first list: %+v", first.Sessions)
	}
	second, n := start()
	if n > 2*model.TailHeadMax {
		t.Errorf("the next start read %d transcript bytes, want only their stamps (%d)", n, 2*model.TailHeadMax)
	}
	if !reflect.DeepEqual(second.Sessions, first.Sessions) {
		t.Errorf("from the cache:\n%+v\nread:\n%+v", second.Sessions, first.Sessions)
	}
	write(a, 5, os.O_APPEND)
	third, _ := start()
	want := NewSessions().Load(home.FS, SessionsReq{Slug: "-w-p", Full: true})().(SessionsLoaded)
	if !reflect.DeepEqual(third.Sessions, want.Sessions) || third.Sessions[0].Records+third.Sessions[1].Records != 155 {
		t.Errorf("after an append:\n%+v\nread:\n%+v", third.Sessions, want.Sessions)
	}
}
