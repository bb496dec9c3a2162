package extract

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/memscope/memscope/engine/scan"
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
	checkPrefilter(t, noiseSeeds, exNoiseLine, exIsNoiseLine, 20)
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

// inFoldReplace is inFold as it was written first: a lower-cased copy,
// then the replacer, whatever the text.
func inFoldReplace(s string) string { return inFolder.Replace(strings.ToLower(s)) }

// inFoldSeeds are texts for inFold: ASCII with and without capitals,
// and text outside ASCII before, at and after the first capital.
var inFoldSeeds = []string{
	"", "a", "A", "never mock", "Never mock", "NEVER MOCK", "you muſt ask", "You muſt ask", "ſ", "Kelvin \u212a",
	"\u212aeep it", "Don’t mock", "ÉCOLE", "école", "Zz@[`{", "abc\xffDEF", "ABC\xff", "tab\tTab", "İstanbul", "ſA",
}

// FuzzInFoldIsReplaceToLower holds inFold's ASCII path to the replacer
// over strings.ToLower it skips.
func FuzzInFoldIsReplaceToLower(f *testing.F) {
	for _, s := range append(inFoldSeeds, noiseSeeds...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := inFold(s), inFoldReplace(s); got != want {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
	})
}

// TestInFoldIsReplaceToLower runs inFold on the instruction corpus, its
// sentences in upper case, the seeds and random strings over bytes that
// matter (capitals, their neighbours, ſ's and K's bytes, invalid
// UTF-8); an ASCII text without capitals is returned without a copy.
func TestInFoldIsReplaceToLower(t *testing.T) {
	texts := append(instructionCorpus(t), inFoldSeeds...)
	for _, s := range texts {
		texts = append(texts, strings.ToUpper(s))
	}
	alphabet := []string{"a", "z", "A", "Z", "@", "[", "`", "{", " ", "\t", "ſ", "\u212a", "\xc5", "\xbf", "é", "É", "\xff", "'", "’"}
	texts = append(texts, randomTexts(rand.New(rand.NewPCG(32, 14)), alphabet, 20000, 12)...)
	for _, s := range texts {
		if got, want := inFold(s), inFoldReplace(s); got != want {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
	s := "never mock the database, use the test server"
	if got := inFold(s); unsafe.StringData(got) != unsafe.StringData(s) {
		t.Error("inFold copied lower-case ASCII text")
	}
}

// compactSeeds open, or nearly open, with the compact summary's head.
var compactSeeds = []string{
	exCompactSummaryHead, " \t\n\r\f" + exCompactSummaryHead + " and more", "\v" + exCompactSummaryHead,
	"\u00a0" + exCompactSummaryHead, "this session is being continued from a previous conversation",
	"x " + exCompactSummaryHead, "This session is being continued", "", " ", "This session", "\n\n" + exCompactSummaryHead + "\n",
}

// TestCompactSummaryIsPattern holds exIsCompactSummary to the pattern it
// replaced, on the seeds and random texts of their pieces.
func TestCompactSummaryIsPattern(t *testing.T) {
	pieces := []string{" ", "\t", "\n", "\v", "\f", "\r", "\u00a0", "This session", " is being continued", exCompactSummaryHead, "x"}
	texts := append(randomTexts(rand.New(rand.NewPCG(32, 15)), pieces, 5000, 5), compactSeeds...)
	checkPrefilter(t, texts, exCompactSummary, exIsCompactSummary, 100)
}

// checkPrefilter holds prefilter to re.MatchString on texts, at least
// min of which match.
func checkPrefilter(t *testing.T, texts []string, re *scan.LazyRegexp, prefilter func(string) bool, min int) {
	t.Helper()
	n := 0
	for _, s := range texts {
		want := re.MatchString(s)
		if got := prefilter(s); got != want {
			t.Errorf("%q: %v, pattern says %v", s, got, want)
		}
		if want {
			n++
		}
	}
	if n < min {
		t.Errorf("only %d texts match: the test proves little", n)
	}
}

// randomTexts are n texts of up to max-1 pieces each.
func randomTexts(rng *rand.Rand, pieces []string, n, max int) []string {
	texts := make([]string, n)
	for i := range texts {
		var b strings.Builder
		for range rng.IntN(max) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts[i] = b.String()
	}
	return texts
}

func FuzzCompactSummaryIsPattern(f *testing.F) {
	for _, s := range compactSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := exIsCompactSummary(s), exCompactSummary.MatchString(s); got != want {
			t.Fatalf("%q: %v, pattern says %v", s, got, want)
		}
	})
}
