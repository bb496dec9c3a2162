package search

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// QueryOptions say how to read a query.
type QueryOptions struct {
	// Regex reads the query as an RE2 regular expression; otherwise it
	// is a literal.
	Regex bool
	// Case makes the match case-sensitive; otherwise case is ignored
	// the Unicode way (simple case folding, as RE2's (?i)).
	Case bool
}

// Query is a compiled search: how to match decoded text, and how to tell
// cheaply from a raw JSON line whether it can hold a match.
type Query struct {
	text string
	// The matcher of decoded text: lit (a literal, or the literals an
	// expression is an alternation of, ASCII when case is ignored) or
	// re. With both, lit serves every text without foldChars (the
	// Kelvin sign and the long s, which fold to k and s), re the others.
	lit       []*finder
	foldChars []string
	// edges are the assertions the literals are between (a line's or
	// the text's start and end: `(?m)worker$`), checked at each place
	// a literal is found.
	edges edges
	re    *regexp.Regexp
	// pre finds the lines that can match.
	pre prefilter
}

// Compile reads text as a query. An empty query, a query that is not
// valid UTF-8 and a regular expression that does not parse are errors.
func Compile(text string, o QueryOptions) (*Query, error) {
	if text == "" {
		return nil, errors.New("empty query")
	}
	if !utf8.ValidString(text) {
		return nil, errors.New("the query is not valid UTF-8")
	}
	q := &Query{text: text}
	if o.Regex {
		src := text
		if !o.Case {
			src = "(?i)" + src
		}
		re, err := regexp.Compile(src)
		if err != nil {
			return nil, fmt.Errorf("bad regular expression: %w", err)
		}
		q.re = re
		parsed, err := syntax.Parse(src, syntax.Perl)
		if err != nil {
			return nil, fmt.Errorf("bad regular expression: %w", err)
		}
		q.pre = regexPrefilter(parsed)
		if lits, fold, e, ok := literalAlternation(parsed); ok {
			q.setLiterals(lits, fold)
			q.edges = e
			if q.lit != nil && e != (edges{}) {
				q.pre.setEdged(q.lit, e, q.foldChars)
			}
			if q.lit != nil && e == (edges{}) {
				// With edges, a line holding a literal need not hold a
				// match: the relaxed expression still decides.
				q.pre.setWhole(lits, fold)
			}
		}
		return q, nil
	}
	if !o.Case && !asciiFoldable(text) {
		q.re = regexp.MustCompile("(?i)" + regexp.QuoteMeta(text))
	}
	q.setLiterals([]string{text}, !o.Case)
	q.pre = literalPrefilter([]rune(text), !o.Case)
	if q.lit != nil {
		q.pre.setWhole([]string{text}, !o.Case)
	}
	if q.re != nil {
		// Its matches are as long as the text, at most, in any case.
		if parsed, err := syntax.Parse(q.re.String(), syntax.Perl); err == nil {
			q.pre.window = maxMatchLen(parsed)
		}
	}
	return q, nil
}

// String is the query as given.
func (q *Query) String() string { return q.text }

// asciiFoldable reports whether ignoring case in s is ASCII case folding:
// s is ASCII and has no k or s, which fold with the Kelvin sign and the
// long s as well.
func asciiFoldable(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return false
		case c == 'k' || c == 'K' || c == 's' || c == 'S':
			return false
		}
	}
	return true
}

// setLiterals makes lits (the alternatives, in order) the matcher when
// the finders match them as the expression would: case-sensitive, or
// ASCII (then a text holding a character that folds to one of their
// letters from outside ASCII goes to the expression).
func (q *Query) setLiterals(lits []string, fold bool) {
	var fs []*finder
	var folds []string
	for _, l := range lits {
		if fold && !isASCII(l) {
			return
		}
		if fold && strings.ContainsAny(l, "kK") {
			folds = append(folds, "\u212a")
		}
		if fold && strings.ContainsAny(l, "sS") {
			folds = append(folds, "\u017f")
		}
		fs = append(fs, newFinder([]byte(l), fold))
	}
	if len(folds) > 0 && q.re == nil {
		return
	}
	slices.Sort(folds)
	q.lit, q.foldChars = fs, slices.Compact(folds)
}

// maxLiterals bounds the literals an expression is expanded into
// (a concatenation of alternations multiplies them).
const maxLiterals = 64

// literalAlternation returns the literals re stands for, in the order
// RE2's leftmost-first tries them at one place, whether case is
// ignored, and the edges around them: re is a literal, an alternation
// of literals, or a concatenation of those (`(migration|schema)
// (table|column)` is four literals, the first group's order outermost;
// the alternations the parser factors, `reader|rere` as
// `re(?:ader|re)`, are expanded back), with at most a start of line or
// text before and an end after (`(?m)worker$`, `^index prompt`); ok is
// false for anything else (a class, a repeat, an assertion elsewhere, an
// empty alternative, a mix of case rules, more than maxLiterals).
func literalAlternation(re *syntax.Regexp) (lits []string, fold bool, e edges, ok bool) {
	re = re.Simplify()
	if re.Op == syntax.OpConcat && len(re.Sub) >= 2 {
		subs := re.Sub
		if op := subs[0].Op; op == syntax.OpBeginLine || op == syntax.OpBeginText {
			e.begin, subs = op, subs[1:]
		}
		if op := subs[len(subs)-1].Op; op == syntax.OpEndLine || op == syntax.OpEndText {
			e.end, subs = op, subs[:len(subs)-1]
		}
		if len(subs) == 0 {
			return nil, false, edges{}, false
		}
		c := *re
		c.Sub = subs
		re = &c
		if len(subs) == 1 {
			re = subs[0]
		}
	}
	st := litState{}
	lits, ok = st.expand(re)
	if !ok || len(lits) == 0 || slices.Contains(lits, "") {
		return nil, false, edges{}, false
	}
	return lits, st.fold, e, true
}

// edges are the assertions before and after a literal alternation
// (syntax.OpBeginLine or OpBeginText; OpEndLine or OpEndText); 0 is
// none.
type edges struct {
	begin, end syntax.Op
}

// at reports whether a match of s[st:en] is between the edges: a line
// starts after a line break, and ends before one (RE2's (?m), where \r
// is a character like any other).
func (e edges) at(s string, st, en int) bool {
	switch e.begin {
	case syntax.OpBeginText:
		if st != 0 {
			return false
		}
	case syntax.OpBeginLine:
		if st != 0 && s[st-1] != '\n' {
			return false
		}
	}
	switch e.end {
	case syntax.OpEndText:
		return en == len(s)
	case syntax.OpEndLine:
		return en == len(s) || s[en] == '\n'
	}
	return true
}

type litState struct {
	fold, set bool
}

func (st *litState) expand(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpCapture:
		return st.expand(re.Sub[0])
	case syntax.OpEmptyMatch:
		// An empty alternative the parser factored out ("pars(?:er|)").
		return []string{""}, true
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return nil, false
		}
		// The case rule matters only where a letter is.
		if hasLetter(re.Rune) {
			f := re.Flags&syntax.FoldCase != 0
			if st.set && f != st.fold {
				return nil, false
			}
			st.fold, st.set = f, true
		}
		return []string{string(re.Rune)}, true
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			l, ok := st.expand(sub)
			if !ok || len(out)+len(l) > maxLiterals {
				return nil, false
			}
			out = append(out, l...)
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			l, ok := st.expand(sub)
			if !ok || len(out)*len(l) > maxLiterals {
				return nil, false
			}
			var next []string
			for _, a := range out {
				for _, b := range l {
					next = append(next, a+b)
				}
			}
			out = next
		}
		return out, true
	}
	return nil, false
}

func hasLetter(rs []rune) bool {
	for _, r := range rs {
		if unicode.IsLetter(r) || unicode.SimpleFold(r) != r {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// useLiterals says whether the literal finders match s (else re does).
func (q *Query) useLiterals(s string) bool {
	if q.lit == nil {
		return false
	}
	for _, f := range q.foldChars {
		if strings.Contains(s, f) {
			return false
		}
	}
	return true
}

// matches is every match in s (at most max), as [start, end) pairs;
// an empty match is skipped (a regex like "x*" matches everywhere, and
// "nothing" is no place to show). A text without the prefilter's
// anchors costs one pass: the literal's own finder, or the anchors'
// before a regular expression runs; and an expression whose matches are
// bounded runs only in the spans around the anchors (prefilter.spans),
// where it finds what it finds in the whole text.
func (q *Query) matches(s string, max int) [][2]int {
	if q.useLiterals(s) {
		return q.literalMatches(s, max)
	}
	b := stringBytes(s)
	if !q.pre.mayHold(b) {
		return nil // every match holds an anchor: no need to run the expression
	}
	var out [][2]int
	for _, sp := range q.pre.spans(b, nil) {
		for _, m := range q.re.FindAllStringIndex(s[sp[0]:sp[1]], -1) {
			if len(out) == max {
				return out
			}
			if m[1] > m[0] {
				out = append(out, [2]int{sp[0] + m[0], sp[0] + m[1]})
			}
		}
	}
	return out
}

// literalMatches is matches by the literal finders: the leftmost
// match, and at one place the first literal in order that matches there
// (RE2's leftmost-first, as the expression they came from matches);
// each literal's next place is looked for once, not once per match.
func (q *Query) literalMatches(s string, max int) [][2]int {
	var out [][2]int
	next := make([]int, len(q.lit)) // the literal's next place; -1 none
	for i := range next {
		next[i] = -2
	}
	for from := 0; from <= len(s) && len(out) < max; {
		st, en := -1, -1
		for i, f := range q.lit {
			if next[i] == -1 {
				continue
			}
			if next[i] < from {
				next[i] = q.nextLiteral(f, s, from)
				if next[i] < 0 {
					continue
				}
			}
			if st < 0 || next[i] < st {
				st, en = next[i], next[i]+len(f.pat)
			}
		}
		if st < 0 {
			break
		}
		out = append(out, [2]int{st, en})
		from = en
	}
	return out
}

// nextLiteral is the first place at or after from where f's literal is
// in s between the edges, or -1.
func (q *Query) nextLiteral(f *finder, s string, from int) int {
	for from <= len(s) {
		i := f.indexString(s[from:])
		if i < 0 {
			return -1
		}
		i += from
		if q.edges.at(s, i, i+len(f.pat)) {
			return i
		}
		from = i + 1
	}
	return -1
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// foldTrivial reports whether r has no other case: it matches only
// itself when case is ignored.
func foldTrivial(r rune) bool { return unicode.SimpleFold(r) == r }
