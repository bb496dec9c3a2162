package extract

import (
	"strings"
	"unicode"

	"github.com/memscope/memscope/engine/lint"
)

// exStopWords carry no meaning of their own for deduplication and naming.
// Negations are kept: "mock the database" and "never mock the database"
// are opposite rules.
var exStopWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`a an the to of in on at for and or but is are was were be been being am
		it its this that these those there here with as by from into onto than then so if when whenever
		we our us you your i me my they them their he she his her user user's claude
		do does did doing done has have had please just also really very always again still
		should would could can will shall may might must
		why how apply what which who whom whose
		thing things stuff something anything everything one ones
		s t d ll re ve m`) {
		m[w] = true
	}
	return m
}()

// exTokens splits s into lower-case words, with "n't" read as "not" and a
// light stemming (plural -s, -ing, -ed) so "mocks", "mocking" and
// "mocked" meet.
func exTokens(s string) []string {
	s = strings.ToLower(exStraightQuotes(s))
	s = strings.ReplaceAll(s, "n't", " not")
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, w := range words {
		words[i] = exStem(w)
	}
	return words
}

func exStem(w string) string {
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		return w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// exContentTokens are the tokens of s that are not stop words.
func exContentTokens(s string) []string {
	var out []string
	for _, w := range exTokens(s) {
		if !exStopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

func exTokenSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range exContentTokens(s) {
		set[w] = true
	}
	return set
}

// exContainment is the share of a's words found in b.
func exContainment(a, b map[string]bool) float64 {
	if len(a) == 0 {
		return 0
	}
	in := 0
	for w := range a {
		if b[w] {
			in++
		}
	}
	return float64(in) / float64(len(a))
}

// exKnownMemory is a memory (or accepted candidate) prepared for
// comparison: the token sets of its description, its rule (the body up to
// the **Why:** line) and all its text.
type exKnownMemory struct {
	name             string
	desc, rule, full map[string]bool
	// negDesc and negRule say whether desc and rule state a prohibition.
	negDesc, negRule bool
}

func exKnown(name, description, body string) exKnownMemory {
	rule, _, _ := strings.Cut(body, "**Why:**")
	k := exKnownMemory{
		name: name,
		desc: exTokenSet(description),
		rule: exTokenSet(rule),
		full: exTokenSet(description + " " + body),
	}
	k.negDesc, k.negRule = exNegative(k.desc), exNegative(k.rule)
	return k
}

func exKnownMemories(existing []ExistingMemory) []exKnownMemory {
	out := make([]exKnownMemory, 0, len(existing))
	for _, m := range existing {
		out = append(out, exKnown(m.Name, m.Description, m.Body))
	}
	return out
}

// exNegative reports whether a token set states a prohibition.
func exNegative(set map[string]bool) bool {
	return set["not"] || set["never"] || set["no"] || set["stop"] || set["avoid"] || set["quit"]
}

// exFindDuplicate compares a candidate's statement with each known memory:
// the best of the Jaccard similarities with its description and its rule,
// or, for a statement of at least three words, how much of it the memory
// already contains (discounted, since containment is the looser test).
func exFindDuplicate(c Candidate, known []exKnownMemory, threshold float64) (string, float64, bool) {
	rule, _, _ := strings.Cut(c.Body, "**Why:**")
	cand := exTokenSet(c.Description + " " + rule)
	if len(cand) == 0 {
		return "", 0, false
	}
	best, bestName := 0.0, ""
	neg := exNegative(cand)
	for _, k := range known {
		// "Never X" and "always X" share their words but contradict each
		// other: that is a candidate to show, not a repeat to hide.
		if neg != k.negDesc && neg != k.negRule {
			continue
		}
		sim := max(lint.Jaccard(cand, k.desc), lint.Jaccard(cand, k.rule))
		if len(cand) >= 3 {
			sim = max(sim, 0.9*exContainment(cand, k.full))
		}
		if sim > best {
			best, bestName = sim, k.name
		}
	}
	return bestName, best, best >= threshold
}
