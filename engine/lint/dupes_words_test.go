package lint

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

// dupeWordsRunes is dupeWords as it was before its ASCII path: rune by
// rune, each word lower-cased on its own.
func dupeWordsRunes(text string) []dupeWord {
	var out []dupeWord
	start := -1
	for i, r := range text {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			out = append(out, dupeWord{strings.ToLower(text[start:i]), start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, dupeWord{strings.ToLower(text[start:]), start, len(text)})
	}
	return out
}

// FuzzDupeWordsSameAsRunes holds dupeWords (and the shingles made of it)
// equal to the rune-by-rune version.
func FuzzDupeWordsSameAsRunes(f *testing.F) {
	f.Add("Use the Bun runtime, not Node: bun test ./...")
	f.Add("ÄPFEL und Birnen, İstanbul")
	f.Add("a\x00B\x7fc 12 x9Y")
	f.Add("")
	f.Add("one two  three\tfour five, six seven")
	f.Add("Two Words")
	f.Fuzz(func(t *testing.T, s string) {
		got, want := dupeWords(s), dupeWordsRunes(s)
		if len(got) == 0 && len(want) == 0 {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("dupeWords(%q) = %v, want %v", s, got, want)
		}
		gl, gs := shingles(got)
		wl, ws := shingles(want)
		if !reflect.DeepEqual(gl, wl) || !reflect.DeepEqual(gs, ws) {
			t.Fatalf("shingles differ on %q", s)
		}
		words, base := dupeWordsIn(s)
		if il, is := shinglesIn(words, base); !reflect.DeepEqual(il, wl) || !reflect.DeepEqual(is, ws) {
			t.Fatalf("shingles sliced from the text differ on %q: %q, want %q", s, il, wl)
		}
	})
}

// TestDupeWordsAllocs: an ASCII memory's words are slices of one
// lower-cased copy (none when it has no capitals) in a slice made once,
// and each shingle is one allocation (the old code: a string per word
// with a capital, the slice's growth, and two allocations per shingle).
func TestDupeWordsAllocs(t *testing.T) {
	text := strings.Repeat("Prefer the Bun runtime over Node for tests and scripts. ", 40)
	if n := testing.AllocsPerRun(20, func() { dupeWords(text) }); n > 2 {
		t.Errorf("dupeWords: %v allocations, want <= 2", n)
	}
	words := dupeWords(text)
	if n := testing.AllocsPerRun(20, func() { shingleAt(words, 3) }); n > 1 {
		t.Errorf("shingleAt: %v allocations, want <= 1", n)
	}
}

// TestDupeIndexSlicesShinglesFromTheText: the shingles of an ASCII memory
// whose words are one space apart are slices of its (lower-cased) text,
// not a string each: a warm start builds the index of every memory of
// the project it shows (2 MB of shingles on W).
func TestDupeIndexSlicesShinglesFromTheText(t *testing.T) {
	var docs []DupeDoc
	for i := range 20 {
		var b strings.Builder
		for j := range 100 {
			fmt.Fprintf(&b, "w%dx%d ", i, j)
		}
		docs = append(docs, DupeDoc{Path: fmt.Sprintf("m%d.md", i), Text: b.String()})
	}
	docs = append(docs, DupeDoc{Path: "copy.md", Text: docs[3].Text})
	var pairs []DuplicatePair
	allocs := testing.AllocsPerRun(5, func() { pairs = new(DupeIndex).Find(docs, 0) })
	if len(pairs) != 1 || pairs[0].A != "m3.md" || pairs[0].B != "copy.md" {
		t.Fatalf("pairs %+v, want m3.md and copy.md", pairs)
	}
	// 2 000 shingles: a string each made 2 000 allocations more (and
	// their list grown, not made at its size).
	if allocs > 3000 {
		t.Errorf("indexing %d memories allocated %.0f times", len(docs), allocs)
	}
}
