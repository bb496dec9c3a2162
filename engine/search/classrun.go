package search

import (
	"math"
	"regexp/syntax"
	"unicode"
)

// An expression without a literal set may still require a run of bytes
// from a small class: every match of [0-9]{5} holds five digits in a
// row, of \d\d-\d\d a run of two. Such a run is its anchor when it has
// no literal set (classRun): a line (or a field) without one is passed
// over, and the expression runs only near the runs found, as it runs
// near a literal anchor. The class's characters must all be plain
// (prefilter.go: ASCII no JSON writer escapes), so the run is in the raw
// line as it is in the decoded text.

// anchor is what a prefilter looks for: a literal (finder) or a run of a
// class (classRun).
type anchor interface {
	// index is the offset of the first place in b the anchor is, or -1.
	index(b []byte) int
}

// classRun finds n bytes in a row of a set.
type classRun struct {
	set [256]bool
	n   int
}

// index is the offset of the first run of n bytes of the set in b, or
// -1. It looks at every n-th byte first: a byte outside the set rules
// out the n places before it.
func (c *classRun) index(b []byte) int {
	n := c.n
	for i := n - 1; i < len(b); {
		if !c.set[b[i]] {
			i += n
			continue
		}
		// b[i] is in the set: how far back does the run go?
		k := i - 1
		for k > i-n && c.set[b[k]] {
			k--
		}
		if k == i-n {
			return k + 1
		}
		// b[k+1:i+1] is in the set, b[k] is not: the first run that can
		// hold n starts at k+1.
		i = k + n
	}
	return -1
}

// runItem is what a sub-expression of a concatenation adds to a run:
// every match of it is at least min bytes, each in set; ok is false when
// it can match a byte outside a plain set (or nothing).
type runItem struct {
	set [256]bool
	min int
}

// runOf is the run item of re.
func runOf(re *syntax.Regexp) (runItem, bool) {
	var it runItem
	switch re.Op {
	case syntax.OpCapture:
		return runOf(re.Sub[0])
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if !addPlain(&it.set, r, re.Flags&syntax.FoldCase != 0) {
				return it, false
			}
		}
		it.min = len(re.Rune)
		return it, it.min > 0
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1]-re.Rune[i] > 128 {
				return it, false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if !addPlain(&it.set, r, false) {
					return it, false
				}
			}
		}
		it.min = 1
		return it, len(re.Rune) > 0
	case syntax.OpPlus:
		return runOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min < 1 {
			return it, false
		}
		sub, ok := runOf(re.Sub[0])
		sub.min *= re.Min
		return sub, ok
	}
	return it, false
}

// addPlain adds r (and its other cases when fold) to set; false when one
// of them is not plain.
func addPlain(set *[256]bool, r rune, fold bool) bool {
	if !anchorRune(r, false, true) {
		return false
	}
	set[r] = true
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if !anchorRune(f, false, true) {
				return false
			}
			set[f] = true
		}
	}
	return true
}

// zeroWidth reports whether re matches only the empty string (an
// assertion): it does not break a run.
func zeroWidth(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	case syntax.OpCapture:
		return zeroWidth(re.Sub[0])
	}
	return false
}

// requiredRun is the rarest class run every match of re holds (the
// expression itself, or a stretch of a concatenation at its top: the
// items of a stretch are matched side by side, so their runs add up, in
// the union of their sets), or nil.
func requiredRun(re *syntax.Regexp) *classRun {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	var best *classRun
	bestCost := math.Inf(1)
	var cur runItem
	flush := func() {
		if cur.min > 0 {
			if c := runCost(&cur); c < bestCost {
				best, bestCost = &classRun{set: cur.set, n: cur.min}, c
			}
		}
		cur = runItem{}
	}
	for _, sub := range subs {
		if zeroWidth(sub) {
			continue
		}
		it, ok := runOf(sub)
		if !ok {
			flush()
			continue
		}
		for i, in := range it.set {
			cur.set[i] = cur.set[i] || in
		}
		cur.min += it.min
	}
	flush()
	return best
}

// runCost is how often a run of it is expected at a byte of a
// transcript (byteFreq's ranks, as literalCost reads them).
func runCost(it *runItem) float64 {
	p := 0.0
	for c, in := range it.set {
		if in {
			p += float64(byteFreq[c]) / 2600
		}
	}
	return math.Pow(min(p, 1), float64(it.min))
}
