package loads

import (
	"testing"
	"time"
)

// Each state of a memory's index line has its own words.
func TestMemorySummary(t *testing.T) {
	d := func(s string) time.Time { v, _ := time.Parse("2006-01-02", s); return v }
	cases := []struct {
		m    Memory
		want string
	}{
		{Memory{}, "not in MEMORY.md: never in a loaded index"},
		{Memory{IndexLine: 230, PastCut: true, UnseenSince: d("2026-10-01")}, "line 230, past the cut: never seen by the model (records since 2026-10-01)"},
		{Memory{IndexLine: 201, PastCut: true, Sessions: 1, Last: d("2026-11-12"), UnseenSince: d("2026-11-12")}, "line 201, past the cut: not seen by the model since 2026-11-12 (seen in 1 session before)"},
		{Memory{Sessions: 3, Last: d("2026-11-20")}, "not in MEMORY.md now; loaded in 3 sessions, last 2026-11-20"},
		{Memory{IndexLine: 4}, "line 4: in no recorded session's MEMORY.md"},
		{Memory{IndexLine: 4, Sessions: 1, Last: d("2026-11-20")}, "line 4: loaded in 1 session, last 2026-11-20"},
	}
	for _, c := range cases {
		if got := c.m.Summary(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.m, got, c.want)
		}
	}
}

// A file's loads in words; a file no recorded session loaded; nothing
// when no session recorded its loads.
func TestFileSummary(t *testing.T) {
	last := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	r := Report{Sessions: 3, Files: []File{
		{Path: "/p/CLAUDE.md", Sessions: 3, Last: last},
		{Path: "/p/.claude/rules/web.md", Sessions: 1, MidSession: 1, Last: last},
		{Path: "/p/.claude/rules/db.md", Sessions: 2, MidSession: 3, Last: last},
	}}
	for path, want := range map[string]string{
		"/p/CLAUDE.md":            "loaded in 3 sessions, last 2026-11-20",
		"/p/.claude/rules/web.md": "loaded in 1 session (once mid-session), last 2026-11-20",
		"/p/.claude/rules/db.md":  "loaded in 2 sessions (3 times mid-session), last 2026-11-20",
		"/p/.claude/rules/x.md":   "loaded in none of the 3 sessions on record",
	} {
		if got := r.FileSummary(path); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
	if got := (Report{}).FileSummary("/p/CLAUDE.md"); got != "" {
		t.Errorf("no records: %q", got)
	}
}

// A rule's or import's loads in the window, in words: an import against
// the sessions that loaded its importer, a conditional rule by its paths,
// a rule written since some sessions started.
func TestExpectedSummary(t *testing.T) {
	d := func(s string) time.Time { v, _ := time.Parse("2006-01-02", s); return v }
	cases := []struct {
		x        Expected
		sessions int
		want     string
	}{
		{Expected{Kind: KindImport, ImportedFrom: "/p/CLAUDE.md", Status: "missing", Eligible: 1}, 4,
			"imported by /p/CLAUDE.md (missing now): loaded in 0 of the 1 session that loaded it"},
		{Expected{Kind: KindRule, Conditional: true, Globs: []string{"src/**", "*.go"}, SessionsInWindow: 2, Eligible: 5, Last: d("2026-11-20")}, 5,
			"paths: src/**, *.go: joined 2 of 5 sessions, last 2026-11-20"},
		{Expected{Kind: KindRule, SessionsInWindow: 0, Eligible: 2, ModTime: d("2026-11-18")}, 1 + 5,
			"at session start: loaded by 0 of 6 sessions (2 since it was last written, 2026-11-18)"},
	}
	for _, c := range cases {
		if got := c.x.Summary(c.sessions); got != c.want {
			t.Errorf("%+v:\n got %q\nwant %q", c.x, got, c.want)
		}
	}
}
