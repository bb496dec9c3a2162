package scan

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"
)

// scanRule is one pattern rule: secret, injection or SSH.
type scanRule struct {
	id       RuleID
	category Category
	severity Severity
	message  string
	// keywords (ASCII, lower case) gate the regexp, as gitleaks does: it
	// only runs on the lines around a keyword, which keeps a large file
	// cheap, since Go's regexp is slow on patterns without a literal prefix.
	keywords []string
	// anchors (secret rules) are case-sensitive literals of which every
	// match contains at least one, so finding none in the raw bytes of a
	// file rules the rule out there (SecretAnchors). They use only bytes
	// a JSON writer leaves as they are (letters, digits, "_-.:~= ", no
	// "/" or quote), so they show in a JSON line as in its decoded text.
	// A rule with anchors gates its regexp on them instead of keywords.
	anchors []string
	// span is how many lines after a keyword's line a match may reach.
	span int
	// whole runs the regexp over the whole text: for patterns that start
	// with a literal, which the regexp engine finds quickly by itself, and
	// whose matches may be long (key blocks, HTML comments).
	whole bool
	re    *LazyRegexp
	// group is the submatch whose span is reported; 0 is the whole match.
	group int
	// minEntropy, for secrets, is the least Shannon entropy (bits per
	// byte) of the reported text: placeholders like "ghp_xxxx…" fall below.
	minEntropy float64
	// placeholders rejects reported text that reads like an example value
	// ("EXAMPLE", long runs of one character).
	placeholders bool
	// accept, when set, is the last check on a match; loc is the
	// submatch index slice, as offsets into text.
	accept func(text string, loc []int) bool
}

// scanRuleSet is every pattern rule, compiled once. Earlier rules win when
// two rules of one category match overlapping text, so specific rules come
// before general ones.
var scanRuleSet = sync.OnceValue(func() []scanRule {
	return append(secretRules(), textRules()...)
})

// scanRules adds the hits of every pattern rule to c.
func scanRules(c *hitCollector, text string) {
	lower := AsciiLower(text)
	for _, r := range scanRuleSet() {
		for _, loc := range ruleMatches(r, text, lower) {
			start, end, ok := r.check(text, loc)
			if !ok || c.overlaps(r.category, start, end) || !c.want(r.id) {
				continue
			}
			c.add(r.hit(text, start, end))
		}
	}
}

// check applies r's allowlists to a match of its regexp (loc, as offsets
// into text) and returns the span it reports.
func (r scanRule) check(text string, loc []int) (start, end int, ok bool) {
	start, end = loc[2*r.group], loc[2*r.group+1]
	if start < 0 {
		return 0, 0, false
	}
	found := text[start:end]
	if r.minEntropy > 0 && shannonEntropy(found) < r.minEntropy {
		return 0, 0, false
	}
	if r.placeholders && looksLikePlaceholder(found) {
		return 0, 0, false
	}
	if r.category == CategorySecret && strings.Contains(found, RedactedPrefix) {
		// What a scrub left: a marker is not a secret.
		return 0, 0, false
	}
	if r.accept != nil && !r.accept(text, loc) {
		return 0, 0, false
	}
	return start, end, true
}

// hit is the finding of r's match text[start:end], excerpt made safe.
func (r scanRule) hit(text string, start, end int) scanHit {
	found := text[start:end]
	excerpt := excerptText(found)
	if r.category == CategorySecret {
		excerpt = redactSecret(found)
	}
	return scanHit{rule: r.id, category: r.category, severity: r.severity,
		start: start, end: end, message: r.message, excerpt: excerpt}
}

// ruleMatches returns the submatch indexes, as offsets into text, of r's
// regexp in the windows of text around r's keywords. Windows start at a
// line start and end at a line end, so ^, $ (multi-line) and \b see what
// they would see in the whole text.
func ruleMatches(r scanRule, text, lower string) [][]int {
	gate, words := lower, r.keywords
	if r.anchors != nil {
		gate, words = text, r.anchors
	}
	if r.whole {
		if !ContainsAny(gate, words) {
			return nil
		}
		return r.re.FindAllStringSubmatchIndex(text, -1)
	}
	var out [][]int
	for _, w := range keywordWindows(text, gate, words, r.span) {
		for _, loc := range r.re.FindAllStringSubmatchIndex(text[w[0]:w[1]], -1) {
			for i := range loc {
				if loc[i] >= 0 {
					loc[i] += w[0]
				}
			}
			out = append(out, loc)
		}
	}
	return out
}

// keywordWindows returns the sorted, disjoint byte ranges made of each
// keyword's line and the span lines after it; keywords are looked for in
// gate (text itself, or its ASCII lower case).
func keywordWindows(text, gate string, keywords []string, span int) [][2]int {
	var wins [][2]int
	for _, kw := range keywords {
		for off := 0; off < len(gate); {
			i := strings.Index(gate[off:], kw)
			if i < 0 {
				break
			}
			p := off + i
			start := strings.LastIndexByte(text[:p], '\n') + 1
			end := lineEndAfter(text, p, span+1)
			wins = append(wins, [2]int{start, end})
			off = max(end, p+len(kw))
		}
	}
	slices.SortFunc(wins, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	merged := wins[:0]
	for _, w := range wins {
		if n := len(merged); n > 0 && w[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], w[1])
			continue
		}
		merged = append(merged, w)
	}
	return merged
}

// AsciiLower lower-cases ASCII letters only, so offsets in the result are
// offsets in s (strings.ToLower may change the length of non-ASCII text).
func AsciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func ContainsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// shannonEntropy is the entropy of s in bits per byte.
func shannonEntropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	e := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			e -= p * math.Log2(p)
		}
	}
	return e
}

// looksLikePlaceholder reports example values that documentation uses in
// place of real keys: gitleaks allowlists "EXAMPLE" (AWS's own sample keys
// end in it), and a run of six identical characters ("XXXXXX", "000000")
// does not occur in a random token of these lengths in practice.
func looksLikePlaceholder(s string) bool {
	if strings.Contains(strings.ToUpper(s), "EXAMPLE") {
		return true
	}
	run := 1
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			run++
			if run >= 6 {
				return true
			}
		} else {
			run = 1
		}
	}
	return false
}
