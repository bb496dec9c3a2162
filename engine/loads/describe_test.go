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
