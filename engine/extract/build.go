package extract

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/memscope/memscope/engine/scan"
)

// exDescriptionMax bounds a description: the index line it ends up in
// should stay under about 150 characters.
const exDescriptionMax = 120

// exNameWords and exNameMax bound a candidate's slug.
const (
	exNameWords = 5
	exNameMax   = 48
)

// exBuild turns a match into a candidate: dates made absolute, the body
// scaffolded by type, a description and a slug.
func exBuild(m exMatch, next string, ts time.Time, prov Provenance) Candidate {
	statement, dates := exResolveDates(exSentence(m.statement), ts)
	why, _ := exResolveDates(m.why, ts)
	if why == "" && exWhyNext.MatchString(exStraightQuotes(next)) {
		why, _ = exResolveDates(exSentence(next), ts)
	}
	stated := "on an unknown date"
	if !ts.IsZero() {
		stated = "on " + ts.Format(exISODate)
	}
	c := Candidate{Type: m.typ, Provenance: prov, Reason: m.reason}
	switch m.typ {
	case CandidateFeedback:
		if why == "" {
			why = fmt.Sprintf("The user asked for this %s and gave no reason; ask before applying it to an unusual case.", stated)
		}
		how := m.how
		if how == "" {
			how = "Follow it in every session of this project without being reminded; ask the user before making an exception."
		}
		c.Body = fmt.Sprintf("%s\n\n**Why:** %s\n**How to apply:** %s\n", statement, exSentence(why), how)
	case CandidateProject:
		if why == "" {
			why = fmt.Sprintf("Stated by the user %s.", stated)
		}
		how := "Take it into account when planning or suggesting work; check that it still holds before relying on it."
		if len(dates) > 0 {
			how = fmt.Sprintf("Take it into account when planning or suggesting work; after %s it may no longer hold.", dates[len(dates)-1].Format(exISODate))
		}
		c.Body = fmt.Sprintf("%s\n\n**Why:** %s\n**How to apply:** %s\n", statement, exSentence(why), how)
	case CandidateReference:
		c.Body = fmt.Sprintf("%s\n\nLink: %s\n", statement, m.url)
	default:
		c.Body = statement + "\n"
	}
	c.Description = exDescribe(m, statement)
	c.Name = string(m.typ) + "-" + exSlug(c.Description)
	return c
}

// exDescribe is the one-line hook for the index: the statement without
// its final stop, or for a reference the system and what the link is for.
func exDescribe(m exMatch, statement string) string {
	d := strings.TrimRight(statement, ".!")
	if m.typ == CandidateReference {
		context := strings.Join(strings.Fields(strings.ReplaceAll(d, m.url, "")), " ")
		context = exTrailingLink.ReplaceAllString(context, "")
		d = m.system + ": " + context
	}
	return exCut(strings.Join(strings.Fields(d), " "), exDescriptionMax)
}

// exTrailingLink is what is left at the end of a sentence when its link
// is taken out: "the board is <link>" → "the board".
var exTrailingLink = scan.NewLazyRegexp(`(?i)(?:[\s:,(—-]+|\s+(?:is|are|at|in|on|here|lives|live|see|under)\b)+$`)

// exSentence capitalizes s and ends it with a stop.
func exSentence(s string) string {
	s = exCapitalize(strings.TrimSpace(s))
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

// exCut cuts s to at most n bytes at a word boundary, adding "…".
func exCut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut <= 0 {
		cut = n
		for cut > 0 && !exRuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// exSlug makes a memory name of [a-z0-9-] from the first few content
// words of s, as the client slugifies names.
func exSlug(s string) string {
	var words []string
	s = strings.ReplaceAll(strings.ToLower(exStraightQuotes(s)), "n't", " not")
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if exStopWords[w] || exStopWords[exStem(w)] || !exASCIIWord(w) {
			continue
		}
		if w == "not" || w == "never" {
			w = "no"
		}
		words = append(words, w)
		if len(words) == exNameWords {
			break
		}
	}
	name := strings.Join(words, "-")
	for len(name) > exNameMax {
		cut := strings.LastIndexByte(name, '-')
		if cut <= 0 {
			cut = exNameMax
		}
		name = name[:cut]
	}
	if name == "" {
		return "memory"
	}
	return name
}

func exASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return w != ""
}
