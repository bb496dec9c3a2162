package model

import (
	"testing"
	"time"
)

// TestSortNewestFirstTiesByPath: transcripts of one mtime come in path
// order from either listing order; a newer one still leads, and
// SetTranscripts takes LastActivity from it.
func TestSortNewestFirstTiesByPath(t *testing.T) {
	tick := time.Date(2026, 11, 29, 21, 58, 36, 0, time.UTC)
	for _, first := range []string{"b.jsonl", "a.jsonl"} {
		second := map[string]string{"b.jsonl": "a.jsonl", "a.jsonl": "b.jsonl"}[first]
		ts := []TranscriptFile{
			{Path: first, ModTime: tick, Kind: TranscriptMain},
			{Path: "old.jsonl", ModTime: tick.Add(-time.Hour), Kind: TranscriptMain},
			{Path: second, ModTime: tick, Kind: TranscriptMain},
			{Path: "z.jsonl", ModTime: tick.Add(time.Second), Kind: TranscriptMain},
		}
		var p Project
		p.SetTranscripts(ts)
		want := []string{"z.jsonl", "a.jsonl", "b.jsonl", "old.jsonl"}
		for i, w := range want {
			if ts[i].Path != w {
				t.Errorf("listed %s first: transcript %d is %s, want %s", first, i, ts[i].Path, w)
			}
		}
		if !p.LastActivity.Equal(tick.Add(time.Second)) {
			t.Errorf("LastActivity %v, want the newest transcript's", p.LastActivity)
		}
	}
}
