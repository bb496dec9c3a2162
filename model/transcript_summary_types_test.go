package model

import (
	"fmt"
	"maps"
	"testing"
)

// TestSummarizerTypeCounts holds the summary's Types, which the
// summarizer counts in a short list before Summary moves them into the
// map, to a plain count: more distinct types than the list holds, a
// Summary in the middle, a fork that counts on, and a Reset.
func TestSummarizerTypeCounts(t *testing.T) {
	z := NewSummarizer()
	want := map[string]int{}
	add := func(z *Summarizer, want map[string]int, i int) {
		typ := fmt.Sprintf("t%d", i*7%11)
		z.Add(&SummaryRecord{Type: RecordType(typ)})
		want[typ]++
	}
	for i := range 200 {
		add(z, want, i)
		if i == 50 {
			if got := z.Summary(0).Types; !maps.Equal(got, want) {
				t.Fatalf("after %d records: Types %v, want %v", i+1, got, want)
			}
		}
		if i == 120 {
			c, cwant := z.fork(), maps.Clone(want)
			for j := range 40 {
				add(c, cwant, j*3)
			}
			if got := c.Summary(0).Types; !maps.Equal(got, cwant) {
				t.Fatalf("fork: Types %v, want %v", got, cwant)
			}
		}
	}
	if got := z.Summary(0).Types; !maps.Equal(got, want) {
		t.Fatalf("Types %v, want %v", got, want)
	}
	if got := z.Summary(0).Types; !maps.Equal(got, want) {
		t.Fatalf("second Summary: Types %v, want %v", got, want)
	}
	z.Add(&SummaryRecord{Type: "x"})
	z.Reset("b")
	z.Add(&SummaryRecord{Type: "y"})
	if got := z.Summary(0).Types; !maps.Equal(got, map[string]int{"y": 1}) {
		t.Fatalf("after Reset: Types %v, want y:1", got)
	}
}
