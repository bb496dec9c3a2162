package extract

import (
	"strings"
	"testing"
)

// noiseSeeds are lines of each kind exNoiseLine matches, and prose.
var noiseSeeds = []string{
	"    at com.example.Foo(Foo.java:12)", "\tat x", `  File "a.py", line 3, in f`, "Traceback (most recent call last)",
	"goroutine 1 [running]:", "panic: boom", "main.go:12 oops", "  src/x.ts:4", "#3 0xdeadbeef in f", "Exception in thread main",
	"Caused by: x", "2026-11-29T12:00 started", "[INFO] ok", "WARNING: x", "ERROR x", "DEBUG: y", "TRACE z", "FATAL: w",
	"$ ls", "# comment", "> quoted", "+++ b/x", "--- a/x", "@@ -1 +1 @@", "Never mock the database.", "use pnpm, not npm",
	"time: 12:30", "File", "F", "", " ", "\f x", "ERRORS happen", "[WARN]x", "9999-99-99 99:99",
}

// TestNoiseLinePrefilter: the prefilter answers as the pattern does on
// lines of every kind, and skips plain prose.
func TestNoiseLinePrefilter(t *testing.T) {
	matched := 0
	for _, l := range noiseSeeds {
		want := exNoiseLine.MatchString(l)
		if got := exIsNoiseLine(l); got != want {
			t.Errorf("%q: %v, pattern says %v", l, got, want)
		}
		if want {
			matched++
		}
	}
	if matched < 20 {
		t.Errorf("only %d seeds are noise: the test proves little", matched)
	}
	if exNoiseFirst['N'] || exNoiseFirst['u'] {
		t.Error("prose opening with a letter is not skipped")
	}
}

func FuzzNoiseLinePrefilter(f *testing.F) {
	for _, s := range noiseSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "\n") {
			return // lines are cut at "\n"
		}
		if got, want := exIsNoiseLine(line), exNoiseLine.MatchString(line); got != want {
			t.Fatalf("%q: %v, pattern says %v", line, got, want)
		}
	})
}

// hasInstructionWordContains is the word check as it was written first:
// one search of the sentence per word.
func hasInstructionWordContains(s string) bool {
	l := strings.ToLower(exQuotes.Replace(s))
	for _, w := range inWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// FuzzHasInstructionWordIsContains holds the one-pass word check, and
// exStraightQuotes' shortcut, to what they replaced.
func FuzzHasInstructionWordIsContains(f *testing.F) {
	for _, s := range append(noiseSeeds, "Don’t mock", "DON'T", "“quoted” text", "no more", "memorize this", "x\u2019") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := hasInstructionWord(s), hasInstructionWordContains(s); got != want {
			t.Fatalf("%q: %v, want %v", s, got, want)
		}
		if got, want := exStraightQuotes(s), exQuotes.Replace(s); got != want {
			t.Fatalf("%q: quotes %q, want %q", s, got, want)
		}
	})
}

// TestHasInstructionWordIsContains runs the check on the instruction
// corpus, its sentences in upper case and the noise seeds.
func TestHasInstructionWordIsContains(t *testing.T) {
	corpus := instructionCorpus(t)
	for _, s := range corpus {
		corpus = append(corpus, strings.ToUpper(s))
	}
	n := 0
	for _, s := range append(corpus, noiseSeeds...) {
		got, want := hasInstructionWord(s), hasInstructionWordContains(s)
		if got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
		if got {
			n++
		}
	}
	if n < 40 {
		t.Errorf("only %d sentences hold a word: the test proves little", n)
	}
}

// leadSeeds open with exLead's words or a list marker, or not.
var leadSeeds = []string{
	"ok, never mock", "Okay so always test", "ALSO: use tabs", "ſo do it", "please, stop", "Hmm... fine", "just so you know, no",
	"one more thing - keep it", "btw run it", "never mock", "Use tabs", "", "  - item", "1. first", "12) twelve", "• dot",
	"* star", "+ plus", "-no space", "1234. long", "\t- tab", "x - y", "okay", "\u212aeep",
	"use `pnpm` here", "run `f(x);` now", "a ` lone tick",
}

// FuzzLeadPrefilters holds exTrimLead, exTrimListMarker and exCodeSpans
// to the patterns they skip.
func FuzzLeadPrefilters(f *testing.F) {
	for _, s := range append(leadSeeds, noiseSeeds...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := exTrimLead(s), exLead.ReplaceAllString(s, ""); got != want {
			t.Fatalf("%q: lead %q, want %q", s, got, want)
		}
		if strings.Contains(s, "\n") {
			return // list markers are cut per line
		}
		if got, want := exTrimListMarker(s), exListMarker.ReplaceAllString(s, ""); got != want {
			t.Fatalf("%q: marker %q, want %q", s, got, want)
		}
		if got, want := exCodeSpans(s), exInlineCode.ReplaceAllStringFunc(s, exCodeSpan); got != want {
			t.Fatalf("%q: code spans %q, want %q", s, got, want)
		}
	})
}

// TestLeadPrefilters: the seeds, of which some are trimmed.
func TestLeadPrefilters(t *testing.T) {
	trimmed := 0
	for _, s := range leadSeeds {
		lead, marker := exTrimLead(s), exTrimListMarker(s)
		if want := exLead.ReplaceAllString(s, ""); lead != want {
			t.Errorf("%q: lead %q, want %q", s, lead, want)
		}
		if want := exListMarker.ReplaceAllString(s, ""); marker != want {
			t.Errorf("%q: marker %q, want %q", s, marker, want)
		}
		if lead != s || marker != s {
			trimmed++
		}
	}
	if trimmed < 12 {
		t.Errorf("only %d seeds trimmed: the test proves little", trimmed)
	}
}
