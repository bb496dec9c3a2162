package scan

import (
	"slices"
	"strings"
)

// RedactSecrets returns text with every secret the scan finds replaced by
// "[redacted: EXCERPT]", the excerpt being the finding's own safe form (a
// short prefix and the length). For output that echoes the user's words,
// such as the candidates `memscope extract` proposes: a secret a write
// would refuse must not reach the terminal or a log either. Past the
// scan's per-rule cap (100 hits) the rest of the text is cut, so nothing
// unchecked is shown.
func RedactSecrets(text string) string {
	c := newHitCollector()
	scanRules(c, text)
	var hits []scanHit
	capped := -1
	for _, h := range c.hits {
		if h.category == CategorySecret {
			hits = append(hits, h)
		}
	}
	for rule, h := range c.overflow {
		if h.category == CategorySecret && c.counts[rule] > maxFindingsPerRule && (capped < 0 || h.start < capped) {
			capped = h.start
		}
	}
	if len(hits) == 0 && capped < 0 {
		return text
	}
	slices.SortFunc(hits, func(a, b scanHit) int { return a.start - b.start })
	var b strings.Builder
	at := 0
	for _, h := range hits {
		if capped >= 0 && h.start >= capped {
			break
		}
		if h.start < at {
			continue // overlaps a secret already redacted
		}
		b.WriteString(text[at:h.start])
		b.WriteString("[redacted: " + h.excerpt + "]")
		at = h.end
	}
	if capped >= 0 {
		if capped > at {
			b.WriteString(text[at:capped])
		}
		b.WriteString("[… cut: more secrets than the scan reports]")
		return b.String()
	}
	b.WriteString(text[at:])
	return b.String()
}
