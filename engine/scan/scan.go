package scan

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memscope/memscope/model"
)

// Category groups scan rules by the harm they guard against.
type Category string

// The scan categories.
const (
	// CategorySecret is a credential: it would be re-read into every future
	// prompt and may leave the machine with it.
	CategorySecret Category = "secret"
	// CategoryInjection is text aimed at the model rather than the user:
	// overriding instructions or forging role and system tags.
	CategoryInjection Category = "injection"
	// CategorySSHBackdoor is a hint to install someone's SSH key.
	CategorySSHBackdoor Category = "ssh-backdoor"
	// CategoryInvisibleUnicode is text a person cannot see but the model
	// reads: zero-width, bidi, tag and variation-selector characters.
	CategoryInvisibleUnicode Category = "invisible-unicode"
	// CategoryTerminalEscape is a terminal control sequence or character.
	CategoryTerminalEscape Category = "terminal-escape"
)

// Severity says how much a finding matters. High findings block a write
// unless the user forces it (see Blocking).
type Severity string

// The severities, most serious first.
const (
	SeverityHigh   Severity = "high"
	SeverityMedium Severity = "medium"
	SeverityLow    Severity = "low"
)

// RuleID names a scan rule, e.g. "github-pat" (secret rule names follow
// gitleaks where gitleaks has the rule).
type RuleID string

// Finding is one thing the scan found. Line and Column are 1-based;
// Column counts Unicode code points (an invalid byte counts as one), and a
// "\r" before "\n" ends a line like "\n" alone does.
type Finding struct {
	Rule     RuleID   `json:"rule"`
	Category Category `json:"category"`
	Severity Severity `json:"severity"`
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Message  string   `json:"message"`
	// Excerpt shows what matched, safe to print: secrets are redacted to a
	// short prefix and their length, controls are quoted.
	Excerpt string `json:"excerpt"`
}

// maxFindingsPerRule bounds the findings one rule reports for one text, so
// a file of a million escape sequences gives a readable report; one more
// finding says how many were left out.
const maxFindingsPerRule = 100

// maxExcerptRunes bounds an excerpt.
const maxExcerptRunes = 80

// Scan checks text, the content of the file at path, for secrets, prompt
// injection, SSH backdoor hints, invisible Unicode and terminal escapes.
// It is meant for every write into Claude Code's memory and for lint.
// Findings are ordered by position; path is only copied into them.
func Scan(path, text string) []Finding {
	c := newHitCollector()
	scanRules(c, text)
	scanCharacters(c, text)
	return locateHits(path, text, c.result())
}

// Blocking reports whether any finding is high severity, which refuses a
// write unless the user forces it.
func Blocking(findings []Finding) bool {
	return slices.ContainsFunc(findings, func(f Finding) bool { return f.Severity == SeverityHigh })
}

// scanHit is a finding before its byte offsets become line and column.
type scanHit struct {
	rule     RuleID
	category Category
	severity Severity
	start    int
	end      int
	message  string
	excerpt  string
}

// hitCollector keeps hits, at most maxFindingsPerRule per rule, counting
// the rest.
type hitCollector struct {
	hits     []scanHit
	counts   map[RuleID]int
	overflow map[RuleID]scanHit
}

func newHitCollector() *hitCollector {
	return &hitCollector{counts: map[RuleID]int{}, overflow: map[RuleID]scanHit{}}
}

// locateHits turns byte offsets into 1-based line and column in one pass
// over text, however many hits there are.
func locateHits(path, text string, hits []scanHit) []Finding {
	slices.SortStableFunc(hits, func(a, b scanHit) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.rule, b.rule))
	})
	out := make([]Finding, 0, len(hits))
	line, col, pos := 1, 1, 0
	for _, h := range hits {
		for pos < h.start && pos < len(text) {
			if text[pos] == '\n' {
				line, col = line+1, 1
				pos++
				continue
			}
			_, size := utf8.DecodeRuneInString(text[pos:])
			pos += size
			col++
		}
		out = append(out, Finding{
			Rule:     h.rule,
			Category: h.category,
			Severity: h.severity,
			Path:     path,
			Line:     line,
			Column:   col,
			Message:  h.message,
			Excerpt:  h.excerpt,
		})
	}
	return out
}

// excerptText makes matched text printable on one line: controls removed,
// white space collapsed, cut to maxExcerptRunes.
func excerptText(s string) string {
	s = model.SanitizeForTerminal(s)
	var b strings.Builder
	space := false
	n := 0
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if n == maxExcerptRunes {
			b.WriteString("…")
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
			n++
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// redactSecret shows only enough of a secret to recognise it: its first
// few characters (or a PEM header, which is not secret) and its length.
func redactSecret(s string) string {
	n := utf8.RuneCountInString(s)
	if strings.HasPrefix(s, "-----BEGIN") {
		if end := strings.Index(s[len("-----BEGIN"):], "-----"); end >= 0 {
			return fmt.Sprintf("%s… (%d chars)", s[:len("-----BEGIN")+end+len("-----")], n)
		}
	}
	keep := min(6, n/4)
	prefix := []rune(s)[:keep]
	return fmt.Sprintf("%s… (%d chars)", excerptText(string(prefix)), n)
}

// String formats the finding as "path:line:col: severity rule: message".
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s %s: %s", f.Path, f.Line, f.Column, f.Severity, f.Rule, f.Message)
}

// want reports whether a hit of rule is still worth building; past the cap
// it only counts the hit.
func (c *hitCollector) want(rule RuleID) bool {
	if c.counts[rule] > maxFindingsPerRule {
		c.counts[rule]++
		return false
	}
	return true
}

func (c *hitCollector) add(h scanHit) {
	n := c.counts[h.rule]
	c.counts[h.rule] = n + 1
	switch {
	case n < maxFindingsPerRule:
		c.hits = append(c.hits, h)
	case n == maxFindingsPerRule:
		c.overflow[h.rule] = h
	}
}

// overlaps reports whether a kept hit of the same category covers any of
// [start, end), so two rules do not report one secret twice.
func (c *hitCollector) overlaps(cat Category, start, end int) bool {
	return slices.ContainsFunc(c.hits, func(h scanHit) bool {
		return h.category == cat && h.start < end && start < h.end
	})
}

func (c *hitCollector) result() []scanHit {
	hits := c.hits
	for rule, h := range c.overflow {
		h.message = fmt.Sprintf("%d more findings of this rule not listed", c.counts[rule]-maxFindingsPerRule)
		hits = append(hits, h)
	}
	return hits
}
