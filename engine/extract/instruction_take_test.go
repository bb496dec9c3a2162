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
	sentences := append(append([]string{}, takeSeeds...), instructionCorpus(t)...)
	for _, s := range sentences[:len(sentences):len(sentences)] {
		sentences = append(sentences, strings.ToUpper(s))
	}
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
