package doctor

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// A report through the per-file cache is the report without it: on the
// first run; on the next, answered from the cache (a tampered entry
// shows, so nothing was read again); after one transcript gains an
// unknown field (only it is read again, and its new field counts).
func TestDoctorCache(t *testing.T) {
	line := func(typ, version, extra string) string {
		return `{"type":"` + typ + `","uuid":"u","sessionId":"s1","version":"` + version + `"` + extra + `}` + "\n"
	}
	const a, b = "projects/-w/s1.jsonl", "projects/-w/s2.jsonl"
	fsys := fstest.MapFS{
		a: {Data: []byte(line("user", "2.1.331", "") + line("some-future-record", "2.1.332", ""))},
		b: {Data: []byte(line("user", "2.1.330", `,"later":1`) + "not json\n")},
	}
	report := func(c *diskcache.Store) string {
		t.Helper()
		out, err := json.Marshal(ScanCached(fsys, c, "/h"))
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	c := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	if got, want := report(c), report(nil); got != want {
		t.Fatalf("first run through the cache:\n%s\nwithout:\n%s", got, want)
	}
	name := diskcache.Name(cacheKind(), "/h")
	saved, ok := diskcache.Load[map[string]diskcache.Entry[fileScan]](c, cacheKind(), name)
	if !ok || len(saved) != 2 {
		t.Fatalf("the cache holds %d scans (ok %v), want 2", len(saved), ok)
	}
	e := saved[b]
	e.Value.Lines += 1000
	saved[b] = e
	if err := diskcache.Save(c, cacheKind(), name, saved); err != nil {
		t.Fatal(err)
	}
	if r := ScanCached(fsys, c, "/h"); r.Lines < 1000 {
		t.Fatalf("an unchanged home: %d lines, want the tampered entry's 1000 more: the cache was not used", r.Lines)
	}
	fsys[a] = &fstest.MapFile{Data: append(fsys[a].Data, line("user", "2.1.332", `,"another":true`)...)}
	r := ScanCached(fsys, c, "/h")
	if r.Lines != 1000+2+3 {
		t.Errorf("%d lines: want b's tampered count kept (1000 + 2) and a read again (3)", r.Lines)
	}
	var another bool
	for _, u := range r.Unknown {
		another = another || u.Name == "another" && u.Example == a+":3"
	}
	if !another || r.Malformed != 1 || r.Transcripts != 2 {
		t.Errorf("after an append: %+v", r)
	}
	// Without the tampering, the cached report equals a fresh one.
	if err := diskcache.Save(c, cacheKind(), name, map[string]diskcache.Entry[fileScan]{}); err != nil {
		t.Fatal(err)
	}
	if got, want := report(c), report(nil); got != want {
		t.Errorf("after the append, through the cache:\n%s\nwithout:\n%s", got, want)
	}
}
