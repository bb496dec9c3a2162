package scan

import "slices"

// SecretSpans lists (as SecretSpan, atrest.go), in order and without
// overlaps, the secrets
// RedactSecrets would redact in text: for output that shows part of a
// text and must mask the secrets in it (search snippets) while knowing
// where the rest of the text went.
func SecretSpans(text string) []SecretSpan {
	c := newHitCollector()
	scanRules(c, text)
	var out []SecretSpan
	for _, h := range c.hits {
		if h.category == CategorySecret {
			out = append(out, SecretSpan{Start: h.start, End: h.end, Rule: h.rule, Excerpt: h.excerpt})
		}
	}
	slices.SortFunc(out, func(a, b SecretSpan) int { return a.Start - b.Start })
	kept := out[:0]
	for _, s := range out {
		if len(kept) > 0 && s.Start < kept[len(kept)-1].End {
			continue // overlaps a secret already listed
		}
		kept = append(kept, s)
	}
	return kept
}
