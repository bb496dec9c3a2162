package search

import (
	"bytes"
	"math"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// A regular expression is prefiltered by a literal set: literals of
// which every match holds at least one. deploy (queue|feedback) build
// holds "deploy queue build" or "deploy feedback build", a far rarer
// pair than its words "deploy " and " build" alone; dead(lock|line)s?
// holds "deadlock" or "deadline". The sets are found the way RE2 and
// ripgrep find theirs: a sub-expression that matches only a few strings
// (a literal, a small class, an alternation or concatenation of those,
// an optional part) is expanded to them, and a concatenation keeps the
// longest such runs; the set a line is looked for by is the one whose
// members are least often expected in transcripts (literalCost).

// maxSetSize bounds the literals of one set (each is a pass over the
// bytes) and of an expansion.
const maxSetSize = 8

// maxClassSize bounds the characters of a class expanded to literals.
const maxClassSize = 4

// literal is a run of characters a regular expression requires.
type literal struct {
	runes []rune
	fold  bool
}

// litInfo is what a sub-expression says about the text its matches hold.
type litInfo struct {
	// exact lists every string the sub-expression matches (an empty
	// literal for an empty match); nil when unknown or too many.
	exact []literal
	// sets are literal sets: every match holds a member of each.
	sets [][]literal
}

// regexLiterals analyses re.
func regexLiterals(re *syntax.Regexp) litInfo {
	switch re.Op {
	case syntax.OpLiteral:
		return litInfo{exact: []literal{{runes: re.Rune, fold: re.Flags&syntax.FoldCase != 0}}}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return litInfo{exact: []literal{{}}}
	case syntax.OpCharClass:
		var ex []literal
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(ex) == maxClassSize {
					return litInfo{}
				}
				ex = append(ex, literal{runes: []rune{r}})
			}
		}
		return litInfo{exact: ex}
	case syntax.OpCapture:
		return regexLiterals(re.Sub[0])
	case syntax.OpQuest:
		sub := regexLiterals(re.Sub[0])
		if sub.exact == nil || len(sub.exact) >= maxSetSize {
			return litInfo{}
		}
		return litInfo{exact: append(slices.Clone(sub.exact), literal{})}
	case syntax.OpPlus:
		return atLeastOnce(regexLiterals(re.Sub[0]))
	case syntax.OpRepeat:
		if re.Min == 1 && re.Max == 1 {
			return regexLiterals(re.Sub[0])
		}
		if re.Min >= 1 {
			return atLeastOnce(regexLiterals(re.Sub[0]))
		}
	case syntax.OpConcat:
		return concatLiterals(re.Sub)
	case syntax.OpAlternate:
		return alternateLiterals(re.Sub)
	}
	return litInfo{}
}

// atLeastOnce is what a repeat of a sub-expression that runs at least
// once holds: what one run holds.
func atLeastOnce(sub litInfo) litInfo {
	out := litInfo{sets: sub.sets}
	if sub.exact != nil {
		out.sets = append(out.sets, sub.exact)
	}
	return out
}

// concatLiterals expands the runs of sub-expressions with few strings
// into their products; each run is a set.
func concatLiterals(subs []*syntax.Regexp) litInfo {
	var out litInfo
	cur := []literal{{}}
	whole := true // cur is the product of every sub so far
	flush := func() {
		if !(len(cur) == 1 && len(cur[0].runes) == 0) {
			out.sets = append(out.sets, cur)
		}
		cur = []literal{{}}
	}
	for _, sub := range subs {
		info := regexLiterals(sub)
		out.sets = append(out.sets, info.sets...)
		if info.exact != nil && len(cur)*len(info.exact) <= maxSetSize {
			cur = product(cur, info.exact)
			continue
		}
		flush()
		whole = false
		if info.exact != nil {
			cur = info.exact
		}
	}
	if whole {
		out.exact = cur
	}
	flush()
	return out
}

// product is every a followed by every b.
func product(as, bs []literal) []literal {
	out := make([]literal, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			rs := make([]rune, 0, len(a.runes)+len(b.runes))
			rs = append(append(rs, a.runes...), b.runes...)
			// A literal is folded when any part is: the finder then
			// finds more than the part that is not folded matches.
			out = append(out, literal{runes: rs, fold: a.fold || b.fold})
		}
	}
	return out
}

// alternateLiterals unites the alternatives' strings when each has few,
// and their best sets into one set when each has one.
func alternateLiterals(subs []*syntax.Regexp) litInfo {
	var union, set []literal
	exact, setOK := true, true
	for _, sub := range subs {
		info := regexLiterals(sub)
		if info.exact == nil {
			exact = false
		}
		union = append(union, info.exact...)
		if b := bestSet(info); b != nil {
			set = append(set, b...)
		} else {
			setOK = false
		}
	}
	var out litInfo
	if exact && len(union) <= maxSetSize {
		out.exact = union
	}
	if setOK && len(set) <= maxSetSize {
		out.sets = [][]literal{set}
	}
	return out
}

// bestSet is the cheapest set of info (its strings among them), or nil
// when none gives every member an anchor.
func bestSet(info litInfo) []literal {
	var best []literal
	bestCost := math.Inf(1)
	try := func(set []literal) {
		if c := setCost(anchorRuns(set)); c < bestCost {
			best, bestCost = set, c
		}
	}
	if info.exact != nil {
		try(info.exact)
	}
	for _, s := range info.sets {
		try(s)
	}
	return best
}

// anchorRun is the anchor a literal is looked for by (bestRun): nil
// runes when it has none.
type anchorRun struct {
	runes       []rune
	fold, plain bool
}

// anchorRuns is the anchor runs of set, without those that hold another
// (a line with "deadlocks" has "deadlock") and repeats.
func anchorRuns(set []literal) []anchorRun {
	runs := make([]anchorRun, len(set))
	for i, l := range set {
		run, plain := bestRun(l.runes, l.fold)
		runs[i] = anchorRun{runes: run, fold: l.fold, plain: plain}
	}
	var out []anchorRun
	for i, r := range runs {
		covered := false
		for j, m := range runs {
			if i == j || len(m.runes) == 0 || (r.fold && !m.fold) {
				continue
			}
			if holdsRun(r, m) && (len(m.runes) < len(r.runes) || j < i || m.fold && !r.fold) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, r)
		}
	}
	return out
}

// holdsRun reports whether run r holds run m (ASCII case ignored when
// m folds: runs that fold change case only within ASCII).
func holdsRun(r, m anchorRun) bool {
	rb, mb := []byte(string(r.runes)), []byte(string(m.runes))
	if !m.fold {
		return bytes.Contains(rb, mb)
	}
	return newFinder(mb, true).index(rb) >= 0
}

// setCost is what looking for the lines with a member of runs is
// expected to cost: a pass over the bytes per member, and the decoding
// of each line found, which costs thousands of bytes' passes. A set with
// a member that gives no anchor costs +Inf: every line would be a
// candidate.
func setCost(runs []anchorRun) float64 {
	if len(runs) == 0 {
		return math.Inf(1)
	}
	const lineCost = 1e5 // a candidate line against a byte's pass
	cost := 0.0
	for _, r := range runs {
		if len(r.runes) == 0 {
			return math.Inf(1)
		}
		cost += 1 + lineCost*literalCost(r.runes, r.fold)
		if !r.plain {
			cost++ // the \u special
		}
	}
	return cost
}

// literalCost is how often run is expected at a byte of a transcript,
// from byteFreq's ranking (a rough probability of each byte).
func literalCost(run []rune, fold bool) float64 {
	p := 1.0
	for _, c := range []byte(string(run)) {
		f := float64(byteFreq[c])
		if fold && c >= 'A' && c <= 'Z' || fold && c >= 'a' && c <= 'z' {
			f = float64(byteFreq[lower(c)]) + float64(byteFreq[lower(c)-'a'+'A'])
		}
		p *= f / 2600
	}
	return p
}

// maxMatchLen is the most bytes a match of re can span, or -1 when
// there is no bound (or it passes maxWindow).
func maxMatchLen(re *syntax.Regexp) int {
	n := maxLen(re)
	if n > maxWindow {
		return -1
	}
	return n
}

// maxWindow bounds the window a match is looked for in around an anchor.
const maxWindow = 4096

func maxLen(re *syntax.Regexp) int {
	const unbounded = maxWindow + 1
	switch re.Op {
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			w := utf8.RuneLen(r)
			if re.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					w = max(w, utf8.RuneLen(f))
				}
			}
			n += max(w, 1)
		}
		return n
	case syntax.OpCharClass:
		w := 1
		for i := 1; i < len(re.Rune); i += 2 {
			w = max(w, utf8.RuneLen(re.Rune[i]))
		}
		return w
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case syntax.OpCapture, syntax.OpQuest:
		return maxLen(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		return unbounded
	case syntax.OpRepeat:
		if re.Max < 0 {
			return unbounded
		}
		return min(unbounded, re.Max*maxLen(re.Sub[0]))
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n = min(unbounded, n+maxLen(s))
		}
		return n
	case syntax.OpAlternate:
		n := 0
		for _, s := range re.Sub {
			n = max(n, maxLen(s))
		}
		return n
	}
	return 0 // empty matches and assertions
}

// prefixLiterals is the set of literals every match of re starts with
// (the product of the exact strings of the sub-expressions it opens
// with, each cut before its first character that is not ASCII or is a
// k or s it folds: those fold with the Kelvin sign and the long s, which
// a finder does not), when the set is small and no literal is cut to
// nothing; else nil.
func prefixLiterals(re *syntax.Regexp) []literal {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	cur := []literal{{}}
	for _, sub := range subs {
		info := regexLiterals(sub)
		if info.exact == nil || len(cur)*len(info.exact) > maxSetSize {
			break
		}
		cur = product(cur, info.exact)
	}
	// A literal is cut before a character the finder cannot look for
	// (columns is looked for as column): a match that starts with it
	// starts with what comes before.
	var out []literal
	for _, l := range cur {
		n := 0
		for n < len(l.runes) {
			r := l.runes[n]
			if r >= utf8.RuneSelf || l.fold && (r == 'k' || r == 'K' || r == 's' || r == 'S') {
				break
			}
			n++
		}
		if n == 0 {
			return nil
		}
		l.runes = l.runes[:n]
		if !slices.ContainsFunc(out, func(o literal) bool { return o.fold == l.fold && string(o.runes) == string(l.runes) }) {
			out = append(out, l)
		}
	}
	return out
}
