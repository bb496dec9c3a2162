package sessions

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

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
