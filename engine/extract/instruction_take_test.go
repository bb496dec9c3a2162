package extract

import (
	"strings"
	"testing"
	"time"
)

// takes is what classifyInstruction takes of exClassifyAs's answer on s.
func takes(s, prev string) bool {
	m, ok := exClassifyAs(s, prev, time.Time{}, false)
	return ok && m.reject != exRejectEmptyRemember && (m.typ == CandidateFeedback || m.reason == exRulePreference)
}

// takeSeeds are sentences each of extraction's rules takes (some behind
// exLead's openings, in upper case, with ſ, the Kelvin sign and curly
// quotes, which the rules read as s, k and '), and sentences with a rule
// word that none takes.
var takeSeeds = []string{
	"Don’t mock the database.", "no, wait, never push to main", "OK so stop adding comments.", "You shouldn't guess.",
	"We don't use ORMs here.", "Could you not rebase?", "can you please stop pinging me?", "Remember to run gofmt.",
	"please keep in mind that tabs win", "Bear in mind the cache is per user.", "Make a note: deploys are Fridays.",
	"Save this to your memory: use pnpm.", "For future reference, the API is v2.", "The cache is per user, remember that.", "To squash commits, remember that.", "to ask first; note that!",
	"Tabs everywhere; please \u212aeep in mind this.", "Nope, use the helper.", "actually run the linter first",
	"Always write tests first.", "ALWAYS WRITE TESTS.", "alwayſ test", "From now on, squash commits.", "In the future ask first.",
	"Going forward keep it short.", "By default use UTC.", "Yes, keep doing that.", "Perfect, that's the right approach.",
	"I prefer small commits.", "i'd rather you asked", "I really hate it when tests are flaky.", "Use pnpm instead of npm.",
	"Instead of mocks, use fakes.", "Stick with Go instead.", "ſtop it now", "Hmm, also, never guess.",
	"The tests use pnpm.", "It always fails on Mondays.", "Then run the build.", "We should use tabs.", "Only edit the docs.",
	"Make sure the build passes.", "Whenever you edit, test.", "The cache is per user.", "", "   ", "!!", "\"Never mock\"",
}

// withCorpus is seeds and the instruction corpus, each also in upper
// case.
func withCorpus(t *testing.T, seeds []string) []string {
	sentences := append(append([]string{}, seeds...), instructionCorpus(t)...)
	for _, s := range sentences[:len(sentences):len(sentences)] {
		sentences = append(sentences, strings.ToUpper(s))
	}
	return sentences
}

// FuzzInMayTake: whatever the sentence (and the one before it), when
// classifyInstruction would take exClassifyAs's answer, inMayTake says
// it may; so the prefilter hides no instruction.
func FuzzInMayTake(f *testing.F) {
	for _, s := range takeSeeds {
		f.Add(s, "Tabs everywhere.")
	}
	f.Fuzz(func(t *testing.T, s, prev string) {
		if takes(s, prev) && !inMayTake(s) {
			t.Fatalf("%q (after %q) is taken, but inMayTake says no", s, prev)
		}
	})
}

// TestInMayTake: on the seeds, the instruction corpus and both in upper
// case, every sentence taken is one inMayTake lets through, and it keeps
// back sentences that hold a rule word but open with none of the leads.
func TestInMayTake(t *testing.T) {
	sentences := withCorpus(t, takeSeeds)
	taken, kept := 0, 0
	for _, s := range sentences {
		switch may := inMayTake(s); {
		case takes(s, "Tabs everywhere.") && !may:
			t.Errorf("%q is taken, but inMayTake says no", s)
		case takes(s, "Tabs everywhere."):
			taken++
		case !may && hasInstructionWord(s):
			kept++
		}
	}
	if taken < 40 || kept < 5 {
		t.Errorf("%d sentences taken, %d with a rule word kept back: the test proves little", taken, kept)
	}
	for _, s := range []string{"The tests use pnpm.", "Then run the build.", "It always fails on Mondays."} {
		if inMayTake(s) {
			t.Errorf("%q: inMayTake lets it through", s)
		}
	}
}

// inLeadSeeds open with each of inLead's openings (some behind its "no,
// also, so" words, in upper case, with ſ and the Kelvin sign), or not.
var inLeadSeeds = []string{
	"Make sure the build passes.", "be sure to ask", "Ensure tests pass.", "remember to run it", "Prefer small commits.",
	"keep using tabs", "Stick to Go.", "stick with it", "Only use pnpm.", "only touch docs", "Stop adding comments.",
	"You must ask first.", "we should never guess", "We need to always test.", "Never guess.", "ALWAYS TEST.",
	"don't ever push", "Do not ever push.", "No, also, so: make sure it works", "ok please never do that",
	"okay, note: you should not", "but always ask", "and never push", "ſtop guessing things", "\u212aeep using it",
	"The tests use pnpm.", "It always fails.", "", " never", "(never) push", "nope never",
}

// FuzzInLeadWords: every text inLead matches opens with one of
// inLeadWords once folded, so classifyInstruction's word check before it
// skips no match.
func FuzzInLeadWords(f *testing.F) {
	for _, s := range inLeadSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if inLead.MatchString(s) && !inLeadWords[firstWord(inFold(s))] {
			t.Fatalf("%q matches inLead but opens with none of its words", s)
		}
	})
}

// TestInLeadWords: the seeds and the instruction corpus (and both in
// upper case) that inLead matches open with one of its words, and some
// sentences are skipped.
func TestInLeadWords(t *testing.T) {
	sentences := withCorpus(t, inLeadSeeds)
	matched, skipped := 0, 0
	for _, s := range sentences {
		may := inLeadWords[firstWord(inFold(s))]
		switch {
		case inLead.MatchString(s) && !may:
			t.Errorf("%q matches inLead but opens with none of its words", s)
		case inLead.MatchString(s):
			matched++
		case !may:
			skipped++
		}
	}
	if matched < 30 || skipped < 10 {
		t.Errorf("%d matched, %d skipped: the test proves little", matched, skipped)
	}
}

// classifyTailChecksFirst is the end of classifyInstruction as it was
// written first: the question, content-word and narrative checks, then
// the rules in order.
func classifyTailChecksFirst(s string) (string, bool) {
	core := strings.TrimSpace(exTrimLead(exStraightQuotes(s)))
	if strings.HasSuffix(core, "?") || len(exContentTokens(core)) < 2 {
		return "", false
	}
	folded := inFold(core)
	if inMatch(inNarrative, core, folded) {
		return "", false
	}
	switch {
	case inLeadWords[firstWord(folded)] && inLead.MatchString(core):
		return inRuleStanding, true
	case inMatch(inUseNot, core, folded):
		return inRuleUseNot, true
	case inMatch(inMarker, core, folded):
		return inRuleMarker, true
	}
	return "", false
}

// classifyTailOf is classifyInstruction's answer when extraction's rules
// do not take s (what classifyTailChecksFirst decides).
func classifyTailOf(s, prev string) (string, bool, bool) {
	if inMatch(inIdiom, s, inFold(s)) || inMayTake(s) && takes(s, prev) {
		return "", false, false
	}
	r, ok := classifyInstruction(s, prev)
	return r, ok, true
}

// FuzzClassifyRuleFirst: finding the rule before the content-word and
// narrative checks gives classifyInstruction's first answer on any
// sentence.
func FuzzClassifyRuleFirst(f *testing.F) {
	for _, s := range append(takeSeeds, "It always fails on Mondays.", "never mind", "Always.", "Use X, not Y.", "You must not.", "We never got it to build, always broken.") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, gotOK, tail := classifyTailOf(s, "")
		if !tail {
			return
		}
		if want, wantOK := classifyTailChecksFirst(s); got != want || gotOK != wantOK {
			t.Fatalf("%q: %q %v, want %q %v", s, got, gotOK, want, wantOK)
		}
	})
}

// TestClassifyRuleFirst: the same on the seeds, the instruction corpus
// and both in upper case.
func TestClassifyRuleFirst(t *testing.T) {
	n := 0
	for _, s := range withCorpus(t, takeSeeds) {
		got, gotOK, tail := classifyTailOf(s, "")
		if !tail {
			continue
		}
		n++
		if want, wantOK := classifyTailChecksFirst(s); got != want || gotOK != wantOK {
			t.Fatalf("%q: %q %v, want %q %v", s, got, gotOK, want, wantOK)
		}
	}
	if n < 50 {
		t.Fatalf("only %d sentences reached the rules", n)
	}
}
