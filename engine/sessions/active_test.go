package sessions

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

func rec(typ, ts string) string {
	return fmt.Sprintf(`{"type":%q,"uuid":"u-%s","sessionId":"s","timestamp":%q,"message":{"role":"user","content":"hi"}}`, typ, ts, ts) + "\n"
}

// Last active is the newest record's timestamp, whatever the mtime; the
// end is read in growing windows when a long unstamped line ends the
// file; a file with no stamped record falls back to its mtime.
func TestLastActive(t *testing.T) {
	mtime := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	blob := `{"type":"api-request-blob","body":"` + strings.Repeat("x", 150<<10) + `"}` + "\n"
	meta := `{"type":"ai-title","aiTitle":"t","sessionId":"s"}` + "\n"
	fsys := fstest.MapFS{
		"plain.jsonl": {Data: []byte(rec("user", "2026-11-20T10:00:00Z") + rec("assistant", "2026-11-20T10:05:00Z") + meta), ModTime: mtime},
		"blob.jsonl":  {Data: []byte(rec("user", "2026-11-19T09:00:00Z") + blob + blob), ModTime: mtime},
		"none.jsonl":  {Data: []byte(meta + meta), ModTime: mtime},
		"empty.jsonl": {Data: nil, ModTime: mtime},
		"half.jsonl":  {Data: []byte(rec("user", "2026-11-21T10:00:00Z") + `{"type":"user","timestamp":"2026-11-22T`), ModTime: mtime},
	}
	for name, want := range map[string]Active{
		"plain.jsonl": {Time: time.Date(2026, 11, 20, 10, 5, 0, 0, time.UTC), Clock: ClockRecord},
		"blob.jsonl":  {Time: time.Date(2026, 11, 19, 9, 0, 0, 0, time.UTC), Clock: ClockRecord},
		"none.jsonl":  {Time: mtime, Clock: ClockMTime},
		"empty.jsonl": {Time: mtime, Clock: ClockMTime},
		"half.jsonl":  {Time: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), Clock: ClockRecord},
		"gone.jsonl":  {Time: mtime.Add(-time.Hour), Clock: ClockMTime},
	} {
		f := model.TranscriptFile{Path: name, ModTime: mtime}
		if name == "gone.jsonl" {
			f.ModTime = mtime.Add(-time.Hour)
		}
		if got := LastActive(fsys, f); !got.Time.Equal(want.Time) || got.Clock != want.Clock {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
	newest := Newest(Active{Time: mtime, Clock: ClockMTime}, Active{Time: mtime.Add(time.Hour), Clock: ClockRecord}, Active{})
	if newest.Clock != ClockRecord || !newest.Time.Equal(mtime.Add(time.Hour)) {
		t.Errorf("Newest: %+v", newest)
	}
	if (Newest() != Active{}) {
		t.Error("Newest of nothing is not zero")
	}
}

// A session's title: its custom title over its AI title over its first
// typed prompt (not a meta line, a compact summary, a tool result or the
// client's own <command> wrapper); the newest title record wins; a
// Follower finds a title appended later.
func TestTitle(t *testing.T) {
	user := func(content string, extra string) string {
		return `{"type":"user",` + extra + `"uuid":"x","sessionId":"s","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":` + content + `}}` + "\n"
	}
	lines := []string{
		user(`"<command-name>/clear</command-name>"`, ""),
		user(`"caveat"`, `"isMeta":true,`),
		user(`[{"type":"tool_result","tool_use_id":"t","content":"x"}]`, ""),
		user(`[{"type":"text","text":"Fix the\nlogin   bug"}]`, ""),
		user(`"second prompt"`, ""),
	}
	body := strings.Join(lines, "")
	fsys := fstest.MapFS{"s.jsonl": {Data: []byte(body)}}
	f := NewFollower()
	f.Update(fsys, "s.jsonl")
	if got := f.Title(); got != (Title{Text: "Fix the login bug", Source: TitlePrompt}) {
		t.Fatalf("first prompt: %+v", got)
	}
	body += `{"type": "ai-title", "aiTitle": "Login bug", "sessionId": "s"}` + "\n"
	fsys["s.jsonl"] = &fstest.MapFile{Data: []byte(body)}
	f.Update(fsys, "s.jsonl")
	if got := f.Title(); got != (Title{Text: "Login bug", Source: TitleAI}) {
		t.Fatalf("ai title: %+v", got)
	}
	body += `{"type":"custom-title","customTitle":"mine","sessionId":"s"}` + "\n" + `{"type":"ai-title","aiTitle":"Login bug, fixed","sessionId":"s"}` + "\n"
	fsys["s.jsonl"] = &fstest.MapFile{Data: []byte(body)}
	f.Update(fsys, "s.jsonl")
	if got := f.Title(); got != (Title{Text: "mine", Source: TitleCustom}) {
		t.Fatalf("custom title: %+v", got)
	}
	// Titles come from the file, which may hold anything: one line,
	// bounded.
	long := `{"type":"custom-title","customTitle":"` + strings.Repeat("word ", 100) + `","sessionId":"s"}` + "\n"
	fsys["s.jsonl"] = &fstest.MapFile{Data: []byte(body + long)}
	f.Update(fsys, "s.jsonl")
	if got := f.Title(); len([]rune(got.Text)) != titleMaxRunes+1 || strings.Contains(got.Text, "  ") {
		t.Fatalf("long title: %d runes %q", len([]rune(got.Text)), got.Text)
	}
}

// readCountFS counts the bytes read through the files it opens.
type readCountFS struct {
	fs.FS
	read atomic.Int64
}

type readCountFile struct {
	fs.File
	c *readCountFS
}

func (c *readCountFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return f, err
	}
	return readCountFile{f, c}, nil
}

func (f readCountFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.c.read.Add(int64(n))
	return n, err
}

func (f readCountFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.File.(io.ReaderAt).ReadAt(p, off)
	f.c.read.Add(int64(n))
	return n, err
}

// LastActiveAll answers as LastActive, from the cache on a second run
// (each transcript's head is read to stamp it, not its end), and a
// record appended is seen.
func TestLastActiveAllCached(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := strings.Repeat(rec("user", "2026-11-20T09:00:00Z"), 400) // 60 KB: more than the stamp's head
	texts := map[string]string{
		"a.jsonl": big + rec("assistant", "2026-11-20T10:05:00Z"),
		"b.jsonl": big + `{"type":"ai-title","aiTitle":"t","sessionId":"s"}` + "\n",
	}
	var files []model.TranscriptFile
	for name, text := range texts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, model.TranscriptFile{Path: name, Size: info.Size(), ModTime: info.ModTime()})
	}
	c := &readCountFS{FS: model.DirFS(dir)}
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	check := func(got map[string]Active) {
		t.Helper()
		for _, f := range files {
			if want := LastActive(model.DirFS(dir), f); !got[f.Path].Time.Equal(want.Time) || got[f.Path].Clock != want.Clock {
				t.Errorf("%s: %+v, LastActive %+v", f.Path, got[f.Path], want)
			}
		}
	}
	check(LastActiveAll(c, files, cache, dir))
	first := c.read.Load()
	c.read.Store(0)
	check(LastActiveAll(c, files, cache, dir))
	// a.jsonl comes from the cache: its head is read (stamped), not its
	// end; b.jsonl (no stamped record at its end: its mtime) is read again.
	if again := c.read.Load(); again >= first || again == 0 {
		t.Errorf("second run read %d bytes, the first %d: want fewer", again, first)
	}
	f, err := os.OpenFile(filepath.Join(dir, "a.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(rec("user", "2026-11-21T08:00:00Z")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got := LastActiveAll(c, files, cache, dir)
	if want := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC); !got["a.jsonl"].Time.Equal(want) {
		t.Errorf("after an appended record: %+v, want %s", got["a.jsonl"], want)
	}
	check(got)
}

// opensFS counts the opens of each file.
type opensFS struct {
	fs.FS
	mu    sync.Mutex
	opens map[string]int
}

func (o *opensFS) Open(name string) (fs.File, error) {
	o.mu.Lock()
	o.opens[name]++
	o.mu.Unlock()
	return o.FS.Open(name)
}

func (o *opensFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(o.FS, name) }

// LastActiveAll with a cache opens each transcript once on its first
// run, as without one: the open that reads a transcript's end stamps it
// for the cache (diskcache.PerFileStamping), and the second run answers
// from the cache. The old code stamped each first: two opens a file.
func TestLastActiveAllOpensEachTranscriptOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var files []model.TranscriptFile
	for i, stamp := range []string{"2026-11-20T10:05:00Z", "2026-11-21T11:00:00Z", "2026-11-22T12:30:00Z"} {
		name := fmt.Sprintf("t%d.jsonl", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(rec("user", "2026-11-19T09:00:00Z")+rec("assistant", stamp)), 0o600); err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, model.TranscriptFile{Path: name, Size: info.Size(), ModTime: info.ModTime()})
	}
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	o := &opensFS{FS: model.DirFS(dir), opens: map[string]int{}}
	got := LastActiveAll(o, files, cache, dir)
	for _, f := range files {
		if want := LastActive(model.DirFS(dir), f); !got[f.Path].Time.Equal(want.Time) || got[f.Path].Clock != ClockRecord {
			t.Errorf("%s: %+v, LastActive %+v", f.Path, got[f.Path], want)
		}
		if n := o.opens[f.Path]; n != 1 {
			t.Errorf("%s: opened %d times on the first run, want 1", f.Path, n)
		}
	}
	o.opens = map[string]int{}
	again := LastActiveAll(o, files, cache, dir)
	for _, f := range files {
		if !again[f.Path].Time.Equal(got[f.Path].Time) {
			t.Errorf("%s: second run %+v, first %+v", f.Path, again[f.Path], got[f.Path])
		}
		if n := o.opens[f.Path]; n != 1 {
			t.Errorf("%s: opened %d times on the second run (its stamp), want 1", f.Path, n)
		}
	}
}

// Reading a transcript's end for its last activity reuses a pooled line
// reader and scanner: a cold start reads the end of every transcript, and
// a new 256 KiB reader each (what main did) was a third of what a cold
// start allocated.
func TestLastActiveReusesItsReader(t *testing.T) {
	fsys := fstest.MapFS{"s.jsonl": {Data: []byte(rec("user", "2026-11-20T10:00:00Z") + rec("assistant", "2026-11-20T10:05:00Z")), ModTime: time.Now()}}
	f := model.TranscriptFile{Path: "s.jsonl", Size: int64(len(fsys["s.jsonl"].Data))}
	lastActive(fsys, f, nil) // fills the pool
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 20
	for range n {
		if a := lastActive(fsys, f, nil); a.Clock != ClockRecord {
			t.Fatalf("last active %+v, want the record's time", a)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 64<<10 {
		t.Errorf("%d bytes allocated a transcript, want under 64 KiB (no new line reader each)", per)
	}
}
