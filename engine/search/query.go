package search

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
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
	// The matcher of decoded text: lit (a literal, with fold when case
	// is ignored and the literal is ASCII) or re.
	lit *finder
	re  *regexp.Regexp
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
		return q, nil
	}
	switch {
	case o.Case:
		q.lit = newFinder([]byte(text), false)
	case asciiFoldable(text):
		q.lit = newFinder([]byte(text), true)
	default:
		q.re = regexp.MustCompile("(?i)" + regexp.QuoteMeta(text))
	}
	q.pre = literalPrefilter([]rune(text), !o.Case)
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

// find returns the first match in s at or after from, or -1.
func (q *Query) find(s string, from int) (start, end int) {
	if from > len(s) {
		return -1, -1
	}
	if q.lit != nil {
		i := q.lit.indexString(s[from:])
		if i < 0 {
			return -1, -1
		}
		return from + i, from + i + len(q.lit.pat)
	}
	loc := q.re.FindStringIndex(s[from:])
	if loc == nil {
		return -1, -1
	}
	return from + loc[0], from + loc[1]
}

// matches is every match in s (at most max), as [start, end) pairs;
// an empty match is skipped (a regex like "x*" matches everywhere, and
// "nothing" is no place to show). A text without the prefilter's
// anchors costs one pass: the literal's own finder, or the anchors'
// before a regular expression runs; and an expression whose matches are
// bounded runs only in the spans around the anchors (prefilter.spans),
// where it finds what it finds in the whole text.
func (q *Query) matches(s string, max int) [][2]int {
	if q.re == nil {
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

// literalMatches is matches for a literal query.
func (q *Query) literalMatches(s string, max int) [][2]int {
	var out [][2]int
	for from := 0; from <= len(s) && len(out) < max; {
		st, en := q.find(s, from)
		if st < 0 {
			break
		}
		if en == st {
			_, size := utf8.DecodeRuneInString(s[en:])
			from = en + max1(size)
			continue
		}
		out = append(out, [2]int{st, en})
		from = en
	}
	return out
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
