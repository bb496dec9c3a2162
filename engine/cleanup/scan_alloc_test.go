package cleanup

import (
	"fmt"
	"testing"

	"github.com/memscope/memscope/model"
)

// TestScanProjectsGrowsItemsOnce: the transcripts of every project are
// counted before the items are grown, so the list is allocated once at
// the size it ends at (grown by append, the sessions forecast of a warm
// start allocated twice what it kept), in the order it had.
func TestScanProjectsGrowsItemsOnce(t *testing.T) {
	files := map[string]rfile{}
	for p := range 5 {
		for s := range 23 {
			files[fmt.Sprintf("projects/-w-p%d/%04d.jsonl", p, s)] = rfile{"{}\n", day}
		}
		files[fmt.Sprintf("projects/-w-p%d/0000/subagents/agent-a.jsonl", p)] = rfile{"{}\n", day}
		files[fmt.Sprintf("projects/-w-p%d/memory/MEMORY.md", p)] = rfile{"x\n", day}
	}
	h := retentionHome(t, files, nil)
	for _, only := range []bool{true, false} {
		var probs []model.Problem
		items, _ := scanProjects(h.FS, &probs, []Item{}, nil, only)
		want := 5 * 23
		if !only {
			want += 5
		}
		if len(items) != want {
			t.Fatalf("transcriptsOnly %v: %d items, want %d", only, len(items), want)
		}
		if !only {
			continue
		}
		// Grown once, the list is rounded up to the allocator's size class
		// only (121 for 115); by doubling, to 146.
		if cap(items) > len(items)*9/8 {
			t.Errorf("the items' list holds %d, allocated for %d", len(items), cap(items))
		}
		for i := 1; i < len(items); i++ {
			if items[i-1].Path >= items[i].Path {
				t.Fatalf("items out of order at %d: %s, %s", i, items[i-1].Path, items[i].Path)
			}
		}
	}
}
