package search

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// TestHitLinesAllocate: a transcript line with a hit costs no record on
// the heap (the worker's is reused) and a file's hits are gathered in
// the worker's slice and copied once, at their number, instead of each
// file's slice doubling: 30 transcripts of 16 hit lines more than 10
// cost at most 298 allocations a transcript (288.5; 308.5 before: a
// record for each line, five slices for each file's hits). The bytes
// went from about 31.5 KB to 27 KB, too unsteady a figure to hold.
func TestHitLinesAllocate(t *testing.T) {
	home := func(files int) string {
		dir := t.TempDir()
		for f := range files {
			var b strings.Builder
			for i := range 16 {
				fmt.Fprintf(&b, `{"type":"user","uuid":"u-%d","timestamp":"2026-01-01T00:00:00Z","sessionId":"s%d","message":{"role":"user","content":"line %d holds plantAllocNeedle once"}}`+"\n", i, f, i)
			}
			writeFile(t, dir, fmt.Sprintf("projects/-work-app/s%02d.jsonl", f), b.String())
		}
		return dir
	}
	q, err := Compile("plantAllocNeedle", QueryOptions{Case: true})
	if err != nil {
		t.Fatal(err)
	}
	cost := func(dir string, want int) float64 {
		o := Options{Home: model.DirFS(dir), HomeDir: dir, Query: q, Stores: []Store{StoreTranscripts}, ShowSecrets: true}
		run := func() {
			got := 0
			if _, err := Run(context.Background(), o, func(b Batch) error { got += len(b.Hits); return nil }); err != nil || got != want {
				t.Fatalf("%d hits (%v), want %d", got, err, want)
			}
		}
		run()
		return testing.AllocsPerRun(10, run)
	}
	per := (cost(home(40), 640) - cost(home(10), 160)) / 30
	if per > 298 {
		t.Errorf("a transcript of 16 hit lines costs %.1f allocations, want at most 298", per)
	}
}
