package search

import (
	"bytes"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// The prefilter decides from a raw JSON line, without decoding it,
// whether the line can hold a match. It looks for an anchor: a run of
// the query's characters every match holds, as the raw line holds them.
//
// JSON may write any character as a \uXXXX escape, but the writers do
// it only for some: the client (JSON.stringify) for controls and lone
// surrogates; others for every non-ASCII character (Python's json,
// Jackson), for < > & (Go) and for ' (some). No writer escapes the rest
// of printable ASCII: letters, digits, the space and punctuation other
// than " \ / < > & ' (the first three have short escapes). So the
// anchor is first looked for among those ("plain" characters): a line
// that does not hold a plain anchor as written cannot hold the query,
// and the line is passed over without another look. Only when the query
// has no plain run of 3 or more characters (and a longer run that is
// not plain) is the anchor a run that may hold other characters; a line
// without it that has a \u escape is then checked again with its
// escapes decoded, at the cost of looking at every escape.
//
// When case is ignored, a non-ASCII character with other cases (é with
// É) ends a run: those can differ byte for byte from the query. The
// ASCII letters k and s stay in a run although they fold with the Kelvin
// sign K and the long s ſ as well as with K and S: a line holding one of
// those, as written or escaped, is looked at closely, with them read as
// k and s. A line with the anchor is only a candidate: the record is
// decoded and its text fields matched.

// prefilter finds the lines that can hold a match.
type prefilter struct {
	// anchors are runs of characters of which every match holds one, as
	// the raw line holds it (no JSON escapes): one for a literal query,
	// a literal set for a regular expression (literals.go); none when
	// the query has none.
	anchors []anchor
	// specials find what makes a raw line worth decoding although no
	// anchor is in it as written: a \u escape (when an anchor is not
	// plain), and the non-ASCII characters that fold to an anchor's k
	// or s, as written and escaped.
	specials []*finder
	// folds are those characters (nil when there are none), and foldTo
	// the lower-case ASCII letter each folds to.
	folds  [][]byte
	foldTo []byte
	// relaxed is a regular expression query with its text anchors
	// (^ $ \A \z) made empty: it matches the fully unescaped line
	// wherever the expression matches a field's text. Without anchors
	// it decides on every line; with them it runs only near them
	// (spans). nil for a literal query.
	relaxed *regexp.Regexp
	// window is the most bytes a match of the expression spans (-1: no
	// bound); a match lies within window bytes of an anchor it holds.
	window int
	// alphabet is the bytes a match of the expression can hold, when
	// it leaves out the quote or the line break (nil: any): a match lies
	// in the stretch of them around an anchor it holds, however long the
	// expression's matches can be (\bver[a-z]*ion [0-9] within a run of
	// letters, digits and spaces).
	alphabet *[256]bool
	// prefix finds the literals every match starts with (ASCII; no k
	// or s when case is ignored), and anchored is the relaxed expression
	// anchored at the start of the text, a character allowed before it:
	// verify then runs it only where a prefix is (the relaxed expression
	// run over a span tries every place in it, which for an expression
	// without a literal prefix, \bver[a-z]*ion, is most of the cost).
	prefix   []*finder
	anchored *regexp.Regexp
	// prefixAnchors says the prefixes are the anchors (`(?m)worker$`:
	// "wor" both).
	prefixAnchors bool
	// whole is the prefilter of the query's literals whole, when the
	// literal finders match the query (Query.lit), each literal is plain
	// and the anchors are not already them: a line or a string that
	// holds none of them (as candidate reads it) cannot match, and one
	// that holds one holds a match unless it is outside a text field. It
	// decides where the anchors, shorter (a run without k and s: "relea"
	// for "release parser"), only narrow the lines down.
	whole *prefilter
	// edged is set for a literal alternation between edges
	// (setEdged): verify then looks at the raw line.
	edged *edgedLiterals
}

// edgedLiterals are the literals of a query that is a literal
// alternation between a line's or the text's edges (Query.edges), each
// of plain characters, and the characters outside ASCII their letters
// fold with (the Kelvin sign, the long s). In a raw line without a \u
// escape and without those, the text holds a literal exactly where the
// raw line holds it, and a line break or a quote next to it is a
// backslash or a quote in the raw line (or its end): verify needs
// neither the unescaped line nor the relaxed expression.
type edgedLiterals struct {
	lits  []*finder
	edges edges
	folds [][]byte
}

// setEdged sets edged for the literals lits between e, when each is
// plain; folds are the query's fold characters.
func (p *prefilter) setEdged(lits []*finder, e edges, folds []string) {
	if p.relaxed == nil || len(p.anchors) == 0 {
		return
	}
	for _, f := range lits {
		for _, r := range string(f.pat) {
			if !anchorRune(r, f.fold, true) {
				return
			}
		}
	}
	el := &edgedLiterals{lits: lits, edges: e}
	for _, f := range folds {
		el.folds = append(el.folds, []byte(f))
	}
	p.edged = el
}

// may reports whether raw line can hold a match of the relaxed
// expression, as verify would (a literal with a quote or a line break
// where an edge is, or the line's edge), looking at the raw line; ok is
// false when it cannot tell (a \u escape, a fold character): verify
// then unescapes the line.
func (el *edgedLiterals) may(line []byte) (may, ok bool) {
	if bytes.Contains(line, []byte(`\u`)) {
		return false, false
	}
	for _, f := range el.folds {
		if bytes.Contains(line, f) {
			return false, false
		}
	}
	// An escape's second byte (the n of \n) is taken for a line break
	// before a literal: a line that may hold more is kept.
	beginOK := func(i int) bool {
		switch el.edges.begin {
		case syntax.OpBeginLine, syntax.OpBeginText:
			return i == 0 || line[i-1] == '"' || line[i-1] == 'n'
		}
		return true
	}
	endOK := func(j int) bool {
		switch el.edges.end {
		case syntax.OpEndLine, syntax.OpEndText:
			return j == len(line) || line[j] == '"' || line[j] == '\\'
		}
		return true
	}
	for _, f := range el.lits {
		for off := 0; off < len(line); {
			i := f.index(line[off:])
			if i < 0 {
				break
			}
			i += off
			if beginOK(i) && endOK(i+len(f.pat)) {
				return true, true
			}
			off = i + 1
		}
	}
	return false, true
}

// setWhole sets whole to the prefilter of lits (see prefilter.whole),
// when it says more than the anchors.
func (p *prefilter) setWhole(lits []string, fold bool) {
	if len(p.anchors) == 0 {
		return
	}
	runs := make([]anchorRun, 0, len(lits))
	for _, l := range lits {
		rs := []rune(l)
		for _, r := range rs {
			if !anchorRune(r, fold, true) {
				return
			}
		}
		runs = append(runs, anchorRun{runes: rs, fold: fold, plain: true})
	}
	if p.anchorsAre(runs) {
		return
	}
	w := withAnchors(runs)
	p.whole = &w
}

// anchorsAre reports whether the anchors are runs, in order.
func (p *prefilter) anchorsAre(runs []anchorRun) bool {
	if len(runs) != len(p.anchors) {
		return false
	}
	for i, r := range runs {
		b := []byte(string(r.runes))
		f, ok := p.anchors[i].(*finder)
		if !ok || f.fold != r.fold || len(f.pat) != len(b) || !f.equal(b) {
			return false
		}
	}
	return true
}

// holds reports whether a raw line or string can hold a match, by the
// whole literals when there are (whole), else by the anchors
// (candidate).
func (p *prefilter) holds(raw []byte, scratch *[]byte) bool {
	if p.whole != nil {
		return p.whole.candidate(raw, scratch)
	}
	return p.candidate(raw, scratch)
}

// candidate reports whether line (a raw JSON record) can hold a match;
// scratch is a buffer to decode escapes into.
func (p *prefilter) candidate(line []byte, scratch *[]byte) bool {
	if len(p.anchors) == 0 {
		if p.relaxed == nil {
			return true
		}
		*scratch = unescapeAll((*scratch)[:0], line)
		return p.relaxed.Match(*scratch)
	}
	if p.anyAnchor(line) {
		return true
	}
	if bytes.Index(line, []byte(`\u`)) < 0 && !p.hasFold(line) {
		return false
	}
	*scratch = p.unfold(unescapeU((*scratch)[:0], line))
	return p.anyAnchor(*scratch)
}

// anyAnchor reports whether b holds an anchor.
func (p *prefilter) anyAnchor(b []byte) bool {
	for _, a := range p.anchors {
		if a.index(b) >= 0 {
			return true
		}
	}
	return false
}

// verify reports whether a line that holds an anchor can hold a match
// of a regular expression: the relaxed expression matches the unescaped
// line near an anchor (spans). Only such lines are decoded.
func (p *prefilter) verify(line []byte, scratch *[]byte, spans *[][2]int) bool {
	if p.relaxed == nil || len(p.anchors) == 0 {
		return true
	}
	if p.edged != nil {
		if may, ok := p.edged.may(line); ok {
			return may
		}
	}
	*scratch = unescapeAll((*scratch)[:0], line)
	text := *scratch
	if p.anchored != nil && p.prefixAnchors {
		// The prefixes are where the anchors are: the spans around
		// them would only cost a look for each.
		return p.startsMatch(text, [][2]int{{0, len(text)}})
	}
	*spans = p.spans(text, (*spans)[:0])
	if p.anchored != nil {
		return p.startsMatch(text, *spans)
	}
	for _, sp := range *spans {
		if p.relaxed.Match(text[sp[0]:sp[1]]) {
			return true
		}
	}
	return false
}

// startsMatch reports whether the relaxed expression may match text at
// a place a prefix is: the anchored expression matches from there (or
// from the character before, which it reads for \b and \B), in the
// window and the stretch of the alphabet a match from there can span.
// Only the prefixes that start in spans are tried: a match holds an
// anchor, so it starts in the span around it (`colu(mn|mns)? [a-z]{3,6}
// filter` is anchored on " filter": a "colu" far from one cannot start
// a match, and most are).
func (p *prefilter) startsMatch(text []byte, spans [][2]int) bool {
	for _, f := range p.prefix {
		for _, sp := range spans {
			if p.startsMatchIn(text, f, sp) {
				return true
			}
		}
	}
	return false
}

// startsMatchIn is startsMatch for the places of prefix f that start in
// text[sp[0]:sp[1]].
func (p *prefilter) startsMatchIn(text []byte, f *finder, sp [2]int) bool {
	// A prefix starting before sp[1] may end after it.
	stop := min(len(text), sp[1]+len(f.pat))
	for off := sp[0]; off < sp[1]; {
		i := f.index(text[off:stop])
		if i < 0 || off+i >= sp[1] {
			break
		}
		j := off + i
		off = j + 1
		lo, end := j, len(text)
		if lo > 0 {
			lo--
			for lo > 0 && !utf8.RuneStart(text[lo]) {
				lo--
			}
		}
		if p.window >= 0 {
			end = min(end, j+p.window+1+utf8.UTFMax)
		}
		if a := p.alphabet; a != nil {
			e := j
			for e < end && a[text[e]] {
				e++
			}
			end = min(end, e+utf8.UTFMax)
		}
		if p.anchored.Match(text[lo:end]) {
			return true
		}
	}
	return false
}

// spans appends to buf the stretches of text every match lies in: the
// window around each anchor and fold character found, a character more
// on each side (so that \b and \B see the real neighbours), merged and
// in order; the whole text when matches have no bound. A match of the
// expression in a span is a match in the text, at the same place: every
// match holds an anchor (or a fold character standing for a letter of
// one), whose window holds the match and its neighbours.
func (p *prefilter) spans(text []byte, buf [][2]int) [][2]int {
	if p.window < 0 && p.alphabet == nil || len(p.anchors) == 0 {
		return append(buf, [2]int{0, len(text)})
	}
	var at []int
	for _, a := range p.anchors {
		for off := 0; off < len(text); {
			i := a.index(text[off:])
			if i < 0 {
				break
			}
			at = append(at, off+i)
			off += i + 1
		}
	}
	for _, f := range p.folds {
		for off := 0; off < len(text); {
			i := bytes.Index(text[off:], f)
			if i < 0 {
				break
			}
			at = append(at, off+i)
			off += i + 1
		}
	}
	slices.Sort(at)
	stretchEnd := -1 // where the last anchor's stretch of the alphabet ends
	for _, i := range at {
		lo, hi := 0, len(text)
		if p.window >= 0 {
			lo, hi = max(0, i-p.window-1), min(len(text), i+p.window+1+utf8.UTFMax)
		}
		if a := p.alphabet; a != nil {
			if i < stretchEnd && p.window < 0 {
				continue // in the last one's stretch: the same span
			}
			s, e := i, i
			for s > lo && a[text[s-1]] {
				s--
			}
			for e < hi && a[text[e]] {
				e++
			}
			stretchEnd = e
			lo, hi = max(lo, s-1), min(hi, e+utf8.UTFMax)
		}
		for lo > 0 && !utf8.RuneStart(text[lo]) {
			lo--
		}
		if n := len(buf); n > 0 && lo <= buf[n-1][1] {
			buf[n-1][1] = max(buf[n-1][1], hi)
			continue
		}
		buf = append(buf, [2]int{lo, hi})
	}
	return buf
}

// mayHold reports whether decoded text (a text field, a text file) can
// hold a match: it has an anchor, or a character that folds to one of
// their letters.
func (p *prefilter) mayHold(text []byte) bool {
	return len(p.anchors) == 0 || p.anyAnchor(text) || p.hasFold(text)
}

// hasFold reports whether b holds one of the folds.
func (p *prefilter) hasFold(b []byte) bool {
	for _, f := range p.folds {
		if bytes.Contains(b, f) {
			return true
		}
	}
	return false
}

// unfold rewrites the folds in b as the ASCII letter each folds to.
func (p *prefilter) unfold(b []byte) []byte {
	for i, f := range p.folds {
		if bytes.Contains(b, f) {
			b = bytes.ReplaceAll(b, f, p.foldTo[i:i+1])
		}
	}
	return b
}

// withAnchors is the prefilter of the anchor runs (each ignoring case
// or not, plain or not, see above): their finders, and the specials
// that make a line worth a closer look. A \u special, there when a run
// is not plain, finds every escaped fold as well.
func withAnchors(runs []anchorRun) prefilter {
	p := prefilter{window: -1}
	anyEscape := false
	for _, r := range runs {
		p.anchors = append(p.anchors, newFinder([]byte(string(r.runes)), r.fold))
		anyEscape = anyEscape || !r.plain
	}
	if anyEscape {
		p.specials = append(p.specials, newFinder([]byte(`\u`), false))
	}
	seen := map[rune]bool{}
	for _, run := range runs {
		if !run.fold {
			continue
		}
		for _, r := range run.runes {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				if f >= utf8.RuneSelf && !seen[f] {
					seen[f] = true
					p.folds = append(p.folds, []byte(string(f)))
					p.foldTo = append(p.foldTo, byte(unicode.ToLower(r)))
					p.specials = append(p.specials, newFinder([]byte(string(f)), false))
					if !anyEscape {
						// Written as an escape (\u212a, any case of its
						// hex digits); with a \u special every escape
						// is looked at anyway.
						p.specials = append(p.specials, newFinder(fmt.Appendf(nil, `\u%04x`, f), true))
					}
				}
			}
		}
	}
	return p
}

// anchorRune reports whether r can be part of an anchor: JSON writes it
// as itself, and (when fold) ignoring case changes it only within ASCII
// letters, which the finder folds. plain asks for a plain character:
// one no JSON writer escapes.
func anchorRune(r rune, fold, plain bool) bool {
	switch {
	case r < 0x20 || r == '"' || r == '\\' || r == '/' || r == utf8.RuneError:
		return false
	case plain:
		return r < 0x7f && r != '<' && r != '>' && r != '&' && r != '\''
	case !fold || foldTrivial(r):
		return true
	case r < utf8.RuneSelf:
		return true // k and s too: see withAnchor
	}
	return false
}

// longestRun is the longest run of runes that can be part of an anchor.
func longestRun(rs []rune, fold, plain bool) []rune {
	var best []rune
	start := 0
	for i := 0; i <= len(rs); i++ {
		if i < len(rs) && anchorRune(rs[i], fold, plain) {
			continue
		}
		if i-start > len(best) {
			best = rs[start:i]
		}
		start = i + 1
	}
	return best
}

// minPlain is the shortest plain run preferred to a longer run that is
// not plain.
const minPlain = 3

// bestRun is the anchor run of rs: the longest plain run, unless it is
// shorter than minPlain and a longer run is not plain. When case is
// ignored, a plain run without k and s comes first if it has minPlain
// characters: it needs no look for the Kelvin sign and the long s (a
// line holding "deadlocK" or "deadloc\u212a" holds "deadloc"), which
// cost a pass over every chunk each.
func bestRun(rs []rune, fold bool) (run []rune, plain bool) {
	if fold {
		noKS := slices.Clone(rs)
		for i, r := range noKS {
			if r == 'k' || r == 'K' || r == 's' || r == 'S' {
				noKS[i] = '"' // ends a run
			}
		}
		if run := longestRun(noKS, fold, true); len(run) >= minPlain {
			return run, true
		}
	}
	run = longestRun(rs, fold, true)
	if len(run) >= minPlain {
		return run, true
	}
	if any := longestRun(rs, fold, false); len(any) > len(run) {
		return any, false
	}
	return run, true
}

// literalPrefilter is the prefilter of a literal query.
func literalPrefilter(rs []rune, fold bool) prefilter {
	run, plain := bestRun(rs, fold)
	if len(run) == 0 {
		return prefilter{window: -1}
	}
	return withAnchors([]anchorRun{{runes: run, fold: fold, plain: plain}})
}

// regexPrefilter is the prefilter of a parsed regular expression: the
// literal set every match holds one of that is cheapest to look for
// (literals.go), verified near its anchors by the relaxed expression;
// else the rarest run of a class every match holds (classrun.go), the
// same way; else the relaxed expression alone.
func regexPrefilter(re *syntax.Regexp) prefilter {
	src := relaxedSource(re)
	relaxed, err := regexp.Compile(src)
	if err != nil {
		return prefilter{window: -1}
	}
	var p prefilter
	if set := bestSet(regexLiterals(re)); set != nil {
		p = withAnchors(anchorRuns(set))
	} else if run := requiredRun(re); run != nil {
		p.anchors = []anchor{run}
	}
	p.relaxed, p.window, p.alphabet = relaxed, maxMatchLen(re), alphabetOf(re)
	if pre := prefixLiterals(re); pre != nil {
		if anchored, err := regexp.Compile(`\A(?s:.)?(?:` + src + `)`); err == nil {
			for _, l := range pre {
				p.prefix = append(p.prefix, newFinder([]byte(string(l.runes)), l.fold))
			}
			p.anchored = anchored
			p.prefixAnchors = sameFinders(p.prefix, p.anchors)
		}
	}
	return p
}

// sameFinders reports whether the anchors are the finders fs, in order.
func sameFinders(fs []*finder, anchors []anchor) bool {
	if len(fs) != len(anchors) {
		return false
	}
	for i, a := range anchors {
		f, ok := a.(*finder)
		if !ok || f.fold != fs[i].fold || !bytes.Equal(f.pat, fs[i].pat) {
			return false
		}
	}
	return true
}

// relaxedSource is the relaxed expression (relax) of re, with one edge
// kept where it says much: an expression that ends with $ (or \z) ends
// at a line break or at the end of its text, which the line follows
// with its closing quote; so `(?m)worker$` is relaxed to
// `worker(?:(?m:$)|")`, not to `worker`, which nearly every line with
// the word holds. The same for ^ (or \A) at the start, after an opening
// quote.
func relaxedSource(re *syntax.Regexp) string {
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 {
		return relax(re).String()
	}
	subs := re.Sub
	head, tail := "", ""
	switch subs[0].Op {
	case syntax.OpBeginLine, syntax.OpBeginText:
		head, subs = `(?:(?m:^)|")`, subs[1:]
	}
	switch subs[len(subs)-1].Op {
	case syntax.OpEndLine, syntax.OpEndText:
		tail, subs = `(?:(?m:$)|")`, subs[:len(subs)-1]
	}
	if head == "" && tail == "" || len(subs) == 0 {
		return relax(re).String()
	}
	c := *re
	c.Sub = subs
	return head + "(?:" + relax(&c).String() + ")" + tail
}

// relax returns re with the assertions that look at the edges of the text
// (^ $ \A \z, in either mode) made empty, so that it matches a line in
// which a field's text sits between other bytes wherever re matches that
// text alone. Word boundaries stay: a field's text is quoted in the line,
// and a quote is not a word character, as the edge of a text is not.
func relax(re *syntax.Regexp) *syntax.Regexp {
	c := *re
	switch c.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}
	}
	if len(c.Sub) > 0 {
		c.Sub = make([]*syntax.Regexp, len(re.Sub))
		for i, s := range re.Sub {
			c.Sub[i] = relax(s)
		}
	}
	return &c
}

// unescapeU appends line to dst with its \uXXXX escapes decoded (a
// surrogate pair as one character); the other escapes stay as written.
func unescapeU(dst, line []byte) []byte {
	return unescape(dst, line, false)
}

// unescapeAll appends line to dst with every JSON string escape decoded.
func unescapeAll(dst, line []byte) []byte {
	return unescape(dst, line, true)
}

func unescape(dst, line []byte, all bool) []byte {
	for {
		i := bytes.IndexByte(line, '\\')
		if i < 0 || i+1 >= len(line) {
			return append(dst, line...)
		}
		dst = append(dst, line[:i]...)
		c := line[i+1]
		if c == 'u' {
			r, n := decodeU(line[i:])
			if n > 0 {
				dst = utf8.AppendRune(dst, r)
				line = line[i+n:]
				continue
			}
		}
		if !all {
			dst = append(dst, line[i], c)
			line = line[i+2:]
			continue
		}
		switch c {
		case 'n':
			dst = append(dst, '\n')
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		default: // " \ / and anything else as itself
			dst = append(dst, c)
		}
		line = line[i+2:]
	}
}

// decodeU decodes the \uXXXX escape (or surrogate pair of two) at the
// start of b; n is 0 when there is none.
func decodeU(b []byte) (r rune, n int) {
	r1, ok := hex4(b)
	if !ok {
		return 0, 0
	}
	if r1 >= 0xd800 && r1 < 0xdc00 {
		if r2, ok := hex4(b[6:]); ok && r2 >= 0xdc00 && r2 < 0xe000 {
			return (r1-0xd800)<<10 | (r2 - 0xdc00) + 0x10000, 12
		}
		return utf8.RuneError, 6
	}
	if r1 >= 0xdc00 && r1 < 0xe000 {
		return utf8.RuneError, 6
	}
	return r1, 6
}

// hex4 reads `\uXXXX` at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// alphabetOf is the bytes a match of re can hold (prefilter.alphabet),
// or nil when they include the quote and the line break.
func alphabetOf(re *syntax.Regexp) *[256]bool {
	var a [256]bool
	addRune := func(r rune) {
		if r < utf8.RuneSelf {
			a[r] = true
			return
		}
		for c := utf8.RuneSelf; c < 256; c++ {
			a[c] = true
		}
	}
	var walk func(re *syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpLiteral:
			for _, r := range re.Rune {
				addRune(r)
				if re.Flags&syntax.FoldCase != 0 {
					for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
						addRune(f)
					}
				}
			}
		case syntax.OpCharClass:
			for i := 0; i+1 < len(re.Rune); i += 2 {
				for r := re.Rune[i]; r <= min(re.Rune[i+1], utf8.RuneSelf-1); r++ {
					addRune(r)
				}
				if re.Rune[i+1] >= utf8.RuneSelf {
					addRune(utf8.RuneSelf)
				}
			}
		case syntax.OpAnyCharNotNL:
			for c := range a {
				a[c] = a[c] || c != '\n'
			}
		case syntax.OpAnyChar:
			for c := range a {
				a[c] = true
			}
		}
		for _, sub := range re.Sub {
			walk(sub)
		}
	}
	walk(re)
	if a['"'] && a['\n'] {
		return nil
	}
	return &a
}
