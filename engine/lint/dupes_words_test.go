package lint

import (
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
