package search

import (
	"testing"
	"time"
)

// TestNewestFirstTiesByPath: files of one mtime (a clone writes many in
// one clock tick) come in path order whatever order a listing gave them,
// and a newer file still comes first; Since drops the older ones.
func TestNewestFirstTiesByPath(t *testing.T) {
	tick := time.Date(2026, 11, 29, 21, 58, 36, 188299534, time.UTC)
	listed := func() []*unit {
		return []*unit{
			{file: "projects/b/fedcb1e2.jsonl", mod: tick},
			{file: "projects/b/668e1d4c.jsonl", mod: tick},
			{file: "projects/a/old.jsonl", mod: tick.Add(-time.Hour)},
			{file: "projects/b/0000.jsonl", mod: tick},
			{file: "projects/c/new.jsonl", mod: tick.Add(time.Millisecond)},
		}
	}
	want := []string{"projects/c/new.jsonl", "projects/b/0000.jsonl", "projects/b/668e1d4c.jsonl", "projects/b/fedcb1e2.jsonl", "projects/a/old.jsonl"}
	p := &planner{o: &Options{}}
	for _, reverse := range []bool{false, true} {
		us := listed()
		if reverse {
			for i, j := 0, len(us)-1; i < j; i, j = i+1, j-1 {
				us[i], us[j] = us[j], us[i]
			}
		}
		got := p.newestFirst(us)
		if len(got) != len(want) {
			t.Fatalf("reverse=%v: %d units, want %d", reverse, len(got), len(want))
		}
		for i, u := range got {
			if u.file != want[i] {
				t.Errorf("reverse=%v: unit %d is %s, want %s", reverse, i, u.file, want[i])
			}
		}
	}
	p = &planner{o: &Options{Since: tick}}
	if got := p.newestFirst(listed()); len(got) != 4 || got[3].file != "projects/b/fedcb1e2.jsonl" {
		t.Errorf("Since %v kept %d units, want the 4 not older", tick, len(got))
	}
}
