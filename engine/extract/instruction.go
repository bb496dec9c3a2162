package extract

import (
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/memscope/memscope/engine/scan"
)

// Instruction is one sentence of a user message that gives the model a rule
// or a correction: what the loss ledger (engine/ledger) checks survives a
// compaction.
type Instruction struct {
	// Sentence is the user's sentence as cleaned (wrappers and code gone).
	Sentence string `json:"sentence"`
	// Reason names the rule that picked it up.
	Reason string `json:"reason"`
}

// The instruction rules beyond extraction's feedback rules.
const (
	inRuleMarker   = "rule word"
	inRuleStanding = "standing instruction"
	inRuleUseNot   = "use X not Y"
)

var (
	// inPasteTag is a paste's opening or closing tag: an instruction pasted
	// in (a style guide, a checklist) is still the user's, so the ledger
	// reads the paste's content where extraction drops it.
	inPasteTag = scan.NewLazyRegexp(`(?i)</?pasted_content\b[^>]*>`)
	// inLead opens a sentence that states how to work from now on.
	inLead = scan.NewLazyRegexp(`(?i)^(?:(?:no|nope|and|but|also|so|ok(?:ay)?|please|remember|note)\b[,:]?\s+)*` +
		`(?:make sure|be sure|ensure|remember to|prefer|keep using|stick (?:to|with)|only (?:use|run|call|edit|touch)|stop \w+ing|` +
		`(?:you|we) (?:must|should(?: always| never| not)?|need to always|have to always)\b|never|always|don't ever|do not ever)\b`)
	// inMarker is a rule word anywhere in a statement.
	inMarker = scan.NewLazyRegexp(`(?i)\b(?:from now on|going forward|from here on|next time|every time|whenever|must(?:n't| not)?|never|always|` +
		`under no circumstances|at all times|as a rule|do not|don't)\b`)
	// inUseNot is "use X, not Y" / "use X rather than Y".
	inUseNot = scan.NewLazyRegexp(`(?i)\b(?:use|run|call|write|prefer)\s+[^,.;]{1,60}?,?\s+(?:not|rather than|over)\s+\S`)
	// inIdiom is a rule word that says nothing about how to work: "never
	// mind", "don't worry".
	inIdiom = scan.NewLazyRegexp(`(?i)\b(?:never ?mind|don't worry|do not worry|no worries)\b`)
	// inNarrative is a statement about the past or about the user's own
	// habits, where a rule word does not make a rule ("I never got it to
	// build", "it always fails").
	inNarrative = scan.NewLazyRegexp(`(?i)^(?:i|it|this|that|they|he|she|there|the (?:test|build|job|script|server|tool|app|code|ci|output))\b(?:'s|'ve|'m)?\s+(?:\w+\s+){0,2}?(?:never|always|don't|do not)\b` +
		`|\b(?:was|were|had|did|has|got|used to)\s+(?:never|always)\b`)
)

// Instructions returns the sentences of a user message that give the model
// a rule or a correction: extraction's feedback rules (corrections, "use X
// instead", "always …", standing instructions, confirmed approaches, a
// request to remember how to work), a stated preference, and sentences
// opening with or carrying a rule word ("make sure", "never", "must",
// "from now on", "use X not Y"). Questions and narrative ("it always
// fails") are not instructions. Text pasted into the message counts.
func Instructions(text string) []Instruction {
	if strings.Contains(text, "pasted_content") {
		text = inPasteTag.ReplaceAllString(text, "\n")
	}
	sentences := exSentences(exCleanMessage(text))
	var out []Instruction
	for i, s := range sentences {
		prev := ""
		if i > 0 {
			prev = sentences[i-1]
		}
		if reason, ok := instructionReason(s, prev); ok {
			out = append(out, Instruction{Sentence: s, Reason: reason})
		}
	}
	return out
}

// inWords are words one of which every instruction holds, lower case: the
// rule words of extraction's feedback and preference rules and of the
// rules above. A sentence with none of them is not run through the
// regular expressions (most of a session's sentences), which keeps the
// ledger of a long session fast; TestInstructionWordsCoverRules checks no
// rule matches a sentence without one.
var inWords = []string{
	"don't", "dont", "do not", "never", "always", "stop", "quit", "avoid", "no more", "should", "must",
	"instead", "rather", "remember", "memori", "mind", "forget", "note", "memory", "future", "next time",
	"from now", "forward", "from here", "in general", "as a rule", "by default", "prefer", "like", "love",
	"hate", "can't stand", "use", "run", "call", "every time", "whenever", "sure", "ensure", "only",
	"keep", "way", "approach", "choice", "move", "of this", "what i", "circumstances", "at all times",
}

// inWordsBy are inWords by their first byte, in either case.
var inWordsBy = func() (by [256][]string) {
	for _, w := range inWords {
		by[w[0]] = append(by[w[0]], w)
		if up := w[0] - 'a' + 'A'; 'a' <= w[0] && w[0] <= 'z' {
			by[up] = append(by[up], w)
		}
	}
	return by
}()

// inSecondBy are, by a byte as inWordsBy, the second letters of the
// words opening with it: bit c-'a' for letter c (every word's second
// byte is a letter).
var inSecondBy = func() (by [256]uint32) {
	for c, ws := range inWordsBy {
		for _, w := range ws {
			if w[1] < 'a' || w[1] > 'z' {
				panic("extract: inWords: " + w + "'s second byte is not a lower-case letter")
			}
			by[c] |= 1 << (w[1] - 'a')
		}
	}
	return by
}()

// hasInstructionWord reports whether s holds one of inWords. It looks at
// each byte once for the words that start with it, rather than searching
// the sentence once per word (TestHasInstructionWordIsContains).
func hasInstructionWord(s string) bool {
	// Without a lower-cased copy while the text is ASCII: there
	// strings.ToLower maps A-Z only, as asciiFoldPrefix does, and
	// exStraightQuotes changes nothing. A word found before the first
	// byte above 0x7F is found in the lower-cased text too; past it, the
	// lower-cased text is searched from the start.
	for i := 0; i+1 < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return hasInstructionWordFolded(s)
		}
		// Most bytes open no word, or none whose second letter
		// follows: one table look-up each.
		if c := s[i+1] | 0x20; c < 'a' || c > 'z' || inSecondBy[s[i]]&(1<<(c-'a')) == 0 {
			continue
		}
		for _, w := range inWordsBy[s[i]] {
			if len(s)-i < len(w) {
				continue
			}
			// The second byte first: equal, or an upper-case letter
			// of w's (lower-case) one, or EqualFold cannot match.
			if c := s[i+1]; c != w[1] && c|0x20 != w[1] {
				continue
			}
			if asciiFoldPrefix(s[i:], w) {
				return true
			}
		}
	}
	if len(s) > 0 && s[len(s)-1] >= utf8.RuneSelf {
		return hasInstructionWordFolded(s)
	}
	return false
}

// hasInstructionWordFolded is hasInstructionWord of text outside ASCII,
// on its lower-cased copy.
func hasInstructionWordFolded(s string) bool {
	l := strings.ToLower(exStraightQuotes(s))
	for i := 0; i < len(l); i++ {
		for _, w := range inWordsBy[l[i]] {
			if strings.HasPrefix(l[i:], w) {
				return true
			}
		}
	}
	return false
}

// asciiFoldPrefix is strings.EqualFold(s[:len(w)], w) for ASCII s at
// least as long as w, and w lower case: A-Z read as a-z, every other
// byte as it is.
func asciiFoldPrefix(s, w string) bool {
	for j := 0; j < len(w); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}

// instructionReason says whether sentence s (prev is the one before it)
// is an instruction, and by which rule.
func instructionReason(s, prev string) (string, bool) {
	if !hasInstructionWord(s) {
		return "", false
	}
	return classifyInstruction(s, prev)
}

// inNeeds are, for the patterns classifyInstruction runs on every
// sentence, words one of which each of their matches holds, in inFold's
// text: a sentence with none of them is not run through the pattern
// (they are the cost of the ledger of a long session).
// TestInstructionPatternWords checks each match holds one.
var inNeeds = map[*scan.LazyRegexp][]string{
	exRememberTail: {"remember", "note", "keep in mind"},
	inIdiom:        {"mind", "worr"},
	inNarrative:    {"never", "always", "don't", "do not"},
	inUseNot:       {"use", "run", "call", "write", "prefer"},
	inMarker: {"from now on", "going forward", "from here on", "next time", "every time", "whenever", "must", "never",
		"always", "under no circumstances", "at all times", "as a rule", "do not", "don't"},
}

// inFolder maps the two letters outside ASCII that a case-insensitive
// pattern matches to ASCII letters (ſ as s; the Kelvin sign is k once
// lower-cased) to those letters.
var inFolder = strings.NewReplacer("ſ", "s")

// inFold is s as inNeeds' words are looked for in it: lower case, ſ as s.
// ASCII text (most sentences) is lower-cased in one pass, and returned
// as it is when it has no capital: strings.ToLower maps A-Z only there,
// and inFolder's letter is not ASCII (TestInFoldIsReplaceToLower).
func inFold(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return inFolder.Replace(strings.ToLower(s))
		}
		if 'A' <= c && c <= 'Z' {
			return inFoldASCII(s, i)
		}
	}
	return s
}

// inFoldASCII is inFold of s whose first capital is at i; the old way
// for text that turns out not to be ASCII past i.
func inFoldASCII(s string, i int) string {
	b := make([]byte, len(s))
	copy(b, s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return inFolder.Replace(strings.ToLower(s))
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// inMay reports whether folded (inFold of a text) holds one of re's
// inNeeds, so re may match the text.
func inMay(re *scan.LazyRegexp, folded string) bool {
	for _, w := range inNeeds[re] {
		if strings.Contains(folded, w) {
			return true
		}
	}
	return false
}

// inMatch is re.MatchString(s), skipped when folded (inFold of s) holds
// none of re's inNeeds.
func inMatch(re *scan.LazyRegexp, s, folded string) bool {
	return inMay(re, folded) && re.MatchString(s)
}

// inFind is re.FindStringIndex(s), skipped (nil) when s holds none of
// re's inNeeds.
func inFind(re *scan.LazyRegexp, s string) []int {
	if !inMay(re, inFold(s)) {
		return nil
	}
	return re.FindStringIndex(s)
}

// classifyInstruction runs the rules on s.
func classifyInstruction(s, prev string) (string, bool) {
	if inMatch(inIdiom, s, inFold(s)) {
		return "", false
	}
	// The core and its folded copy, made once for inMayTake's test and
	// the rules below.
	core := strings.TrimSpace(exTrimLead(exStraightQuotes(s)))
	folded := inFold(core)
	if !inMayTakeFolded(folded) {
		// None of extraction's rules can give what is taken below.
	} else if m, ok := exClassifyAs(s, prev, time.Time{}, false); ok && m.reject != exRejectEmptyRemember {
		switch {
		case m.typ == CandidateFeedback:
			return m.reason, true
		case m.reason == exRulePreference:
			return m.reason, true
		}
	}
	if strings.HasSuffix(core, "?") {
		return "", false
	}
	// Which rule takes the sentence first, then whether it is one to take
	// (two content words, not narrative): the same answer as checking
	// first, since each test is pure, and most sentences no rule takes
	// skip the tokenizer.
	var rule string
	switch {
	case inLeadWords[firstWord(folded)] && inLead.MatchString(core):
		rule = inRuleStanding
	case inMatch(inUseNot, core, folded):
		rule = inRuleUseNot
	case inMatch(inMarker, core, folded):
		rule = inRuleMarker
	default:
		return "", false
	}
	if len(exContentTokens(core)) < 2 || inMatch(inNarrative, core, folded) {
		return "", false
	}
	return rule, true
}

// inTakeLeads are the first words (letters only, lower case) of the
// sentences extraction's rules can take as feedback or a preference once
// exTrimLead has cut the opening ("ok, so …"): every such rule but the
// "…, remember that" one is anchored at the start (exCorrection's "no,
// wait, don't", exRemember's "could you", exAlways, exStanding's "from
// now on", exConfirmHead's "yes", exPrefer's "I", exInstead's "use …
// instead"; "don't" is read as "don").
var inTakeLeads = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`no nope nah wrong wait stop for right this please don dont do never quit avoid you we
		can could would will remember memorize memorise keep bear make note save add actually always
		from going in next as by yes yep yeah yup exactly perfect great good nice correct spot that i
		instead use try run call pick choose go switch stick`) {
		m[w] = true
	}
	return m
}()

// inMayTake reports whether exClassifyAs(s, prev, …, false) may give
// what classifyInstruction takes of it (feedback, or a stated
// preference): s's core opens with one of inTakeLeads, or holds one of
// exRememberTail's words (the one rule not anchored at the start). It
// keeps most sentences that hold a rule word ("the tests use pnpm")
// from extraction's twenty patterns; FuzzInMayTake holds it to them.
func inMayTake(s string) bool {
	return inMayTakeFolded(inFold(strings.TrimSpace(exTrimLead(exStraightQuotes(s)))))
}

// inMayTakeFolded is inMayTake of the sentence whose core, folded, is
// folded.
func inMayTakeFolded(folded string) bool {
	if inMay(exRememberTail, folded) {
		return true
	}
	return inTakeLeads[firstWord(folded)]
}

// firstWord is the letters (a-z) folded opens with.
func firstWord(folded string) string {
	n := 0
	for n < len(folded) && 'a' <= folded[n] && folded[n] <= 'z' {
		n++
	}
	return folded[:n]
}

// inLeadWords are the first words (as inTakeLeads) of inLead's matches:
// a statement opening with another is not run through it
// (FuzzInLeadWords).
var inLeadWords = map[string]bool{
	"no": true, "nope": true, "and": true, "but": true, "also": true, "so": true, "ok": true, "okay": true,
	"please": true, "remember": true, "note": true, "make": true, "be": true, "ensure": true, "prefer": true,
	"keep": true, "stick": true, "only": true, "stop": true, "you": true, "we": true, "never": true,
	"always": true, "don": true, "do": true,
}

// Terms are the content words of a text, stemmed, negations kept: what
// extraction's duplicate check compares, and what the ledger's survival
// test counts.
type Terms map[string]bool

// TermsOf returns the content words of s.
func TermsOf(s string) Terms { return exTokenSet(s) }

// Share is the part of t's words found in other (0 when t is empty).
func (t Terms) Share(other Terms) float64 { return exContainment(t, other) }
