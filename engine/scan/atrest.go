package scan

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/memscope/memscope/internal/jsonscan"
)

// RedactedPrefix starts the marker a scrub puts where a secret was:
// "[REDACTED:aws-access-key-id]". Text holding it is never a secret.
const RedactedPrefix = "[REDACTED:"

// Marker is what a scrub writes in place of a secret found by rule: only
// ASCII letters, digits and "[:-]", so it is valid as it is inside a JSON
// string and in any text.
func Marker(rule RuleID) string { return RedactedPrefix + string(rule) + "]" }

// SecretSpan is one secret found at rest. Start and End are offsets in
// the scanned bytes as stored (a secret in a JSON string spans its
// escapes, if it has any), so a scrub replaces exactly those bytes.
type SecretSpan struct {
	Rule    RuleID
	Message string
	Start   int
	End     int
	// Path is the JSON path of the string holding the secret
	// ("message.content[2].content"), "" in text.
	Path string
	// Excerpt is the secret made safe to print: a short prefix and its
	// length.
	Excerpt string
	// Secret is the secret itself, decoded. Never print it unless the
	// user asked to see secrets.
	Secret string
}

// ScanText finds the secrets in data, a text file, given the anchors
// SecretAnchors found in it (none: nothing to do).
func (a *Anchors) ScanText(data []byte, hits []AnchorHit) []SecretSpan {
	if len(hits) == 0 {
		return nil
	}
	var mask RuleMask
	for _, h := range hits {
		mask |= h.Rules
	}
	text := string(data)
	var out []SecretSpan
	for _, h := range a.secretHits(text, mask) {
		out = append(out, SecretSpan{Rule: h.rule, Message: h.message, Start: h.start, End: h.end,
			Excerpt: h.excerpt, Secret: text[h.start:h.end]})
	}
	return out
}

// ScanJSON finds the secrets in line, one JSON value (a JSONL record or
// a whole .json file), given the anchors found in it: only the strings
// holding an anchor are decoded and matched. It also returns the value
// of the top-level "type" member. An error means line is not valid JSON
// (nothing is reported; scan it as text).
func (a *Anchors) ScanJSON(sc *jsonscan.Scanner, line []byte, hits []AnchorHit) ([]SecretSpan, string, error) {
	if len(hits) == 0 {
		return nil, "", nil
	}
	slices.SortFunc(hits, func(x, y AnchorHit) int { return x.Start - y.Start })
	w := jsonWalk{a: a, sc: sc, hits: hits}
	sc.Reset(line)
	i := jsonscan.SkipWS(line, 0)
	if i >= len(line) {
		return nil, "", &jsonscan.Error{Off: i, Msg: "empty"}
	}
	end, err := w.value(i, 0)
	if err == nil {
		if j := jsonscan.SkipWS(line, end); j != len(line) {
			err = &jsonscan.Error{Off: j, Msg: "text after the value"}
		}
	}
	if err != nil {
		return nil, "", err
	}
	return w.out, w.recType, nil
}

// jsonWalk walks one JSON value, keeping the path to where it is.
type jsonWalk struct {
	a       *Anchors
	sc      *jsonscan.Scanner
	hits    []AnchorHit
	path    []string
	out     []SecretSpan
	recType string
}

// value walks the value at i (no white space before it) and returns the
// offset past it.
func (w *jsonWalk) value(i, depth int) (int, error) {
	d := w.sc.Bytes()
	switch d[i] {
	case '{':
		return w.sc.Object(i, depth, func(key []byte, v, depth int) (int, error) {
			w.path = append(w.path, pathKey(key, len(w.path) == 0))
			end, err := w.member(v, depth)
			if err == nil && depth == 1 && string(key) == "type" && d[v] == '"' {
				w.recType, _ = jsonscan.Unquote(d[v:end])
			}
			w.path = w.path[:len(w.path)-1]
			return end, err
		})
	case '[':
		n := 0
		return w.sc.Array(i, depth, func(v, depth int) (int, error) {
			w.path = append(w.path, "["+strconv.Itoa(n)+"]")
			n++
			end, err := w.member(v, depth)
			w.path = w.path[:len(w.path)-1]
			return end, err
		})
	case '"':
		end, escaped, err := w.sc.String(i)
		if err != nil {
			return 0, err
		}
		if w.anyHit(i, end) && !w.inMediaData() {
			w.scanString(d[i:end], i, escaped)
		}
		return end, nil
	}
	return w.sc.Value(i, depth)
}

// member walks the value at v of a container, skipping those without an
// anchor in one validating pass.
func (w *jsonWalk) member(v, depth int) (int, error) {
	d := w.sc.Bytes()
	if c := d[v]; c == '{' || c == '[' || c == '"' {
		return w.value(v, depth)
	}
	return w.sc.Value(v, depth)
}

// inMediaData reports whether the string walked is the base64 bytes of
// an image or document block ({"source": {"type": "base64", "data": …}}):
// a megabyte of random letters holds anchors by chance (one "eyJ" in
// 260 000 bytes, one "SK" in 4 096) but no secret a pattern can see.
func (w *jsonWalk) inMediaData() bool {
	n := len(w.path)
	return n >= 2 && w.path[n-1] == ".data" && w.path[n-2] == ".source"
}

// anyHit reports whether an anchor lies inside [start, end).
func (w *jsonWalk) anyHit(start, end int) bool {
	k := sort.Search(len(w.hits), func(j int) bool { return w.hits[j].Start >= start })
	for ; k < len(w.hits) && w.hits[k].Start < end; k++ {
		if w.hits[k].End <= end {
			return true
		}
	}
	return false
}

// scanString decodes the JSON string raw (at offset at of the line) and
// reports the secrets in its text with their offsets in the line.
func (w *jsonWalk) scanString(raw []byte, at int, escaped bool) {
	var mask RuleMask
	k := sort.Search(len(w.hits), func(j int) bool { return w.hits[j].Start >= at })
	for ; k < len(w.hits) && w.hits[k].Start < at+len(raw); k++ {
		if w.hits[k].End <= at+len(raw) {
			mask |= w.hits[k].Rules
		}
	}
	var text string
	var m offsetMap
	if escaped {
		text, m = decodeString(raw)
	} else {
		text = string(raw[1 : len(raw)-1])
	}
	// An anchor is made of bytes a JSON writer does not escape, so each
	// one in raw is one in text. (One written with \u escapes, which no
	// writer of these files does, is not seen.)
	p := jsonPath(w.path)
	for _, h := range w.a.secretHits(text, mask) {
		s, e := h.start+1, h.end+1
		if escaped {
			s, e = m.raw(h.start, false), m.raw(h.end, true)
		}
		w.out = append(w.out, SecretSpan{Rule: h.rule, Message: h.message, Start: at + s, End: at + e,
			Path: p, Excerpt: h.excerpt, Secret: text[h.start:h.end]})
	}
}

// pathKey is one member name in a path: bare when it is a plain name,
// else quoted in brackets.
func pathKey(key []byte, top bool) string {
	plain := len(key) > 0
	for _, c := range key {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			plain = false
			break
		}
	}
	if !plain {
		return "[" + strconv.Quote(string(key)) + "]"
	}
	if top {
		return string(key)
	}
	return "." + string(key)
}

func jsonPath(segs []string) string {
	p := strings.Join(segs, "")
	return strings.TrimPrefix(p, ".")
}

// secretHits runs the secret rules of mask over text, earlier rules
// first (a later rule's match that overlaps an earlier one's is the same
// secret), with no cap on the matches: a scrub must see them all.
func (a *Anchors) secretHits(text string, mask RuleMask) []scanHit {
	var hits []scanHit
	var taken [][2]int // sorted, disjoint
	for i, r := range a.rules {
		if mask&(1<<i) == 0 {
			continue
		}
		for _, loc := range ruleMatches(r, text, "") {
			start, end, ok := r.check(text, loc)
			if !ok {
				continue
			}
			k := sort.Search(len(taken), func(j int) bool { return taken[j][0] >= end })
			if k > 0 && taken[k-1][1] > start {
				continue
			}
			taken = slices.Insert(taken, k, [2]int{start, end})
			hits = append(hits, r.hit(text, start, end))
		}
	}
	slices.SortFunc(hits, func(x, y scanHit) int { return x.start - y.start })
	return hits
}

// offsetMap maps offsets in a decoded JSON string to offsets in its raw
// form (quotes included), through the escapes.
type offsetMap []escapeAt

// escapeAt is one escape sequence: where it starts in the text and in
// the raw string, and how long it is in each.
type escapeAt struct {
	dec, raw, decLen, rawLen int
}

// raw maps text offset d to the raw string. An offset inside an escape's
// text (a rune of several bytes) maps to the escape's start, or with end
// to its end, so a span maps to whole escapes.
func (m offsetMap) raw(d int, end bool) int {
	k := sort.Search(len(m), func(j int) bool { return m[j].dec > d }) - 1
	if k < 0 {
		return d + 1
	}
	e := m[k]
	switch {
	case d == e.dec:
		return e.raw
	case d < e.dec+e.decLen:
		if end {
			return e.raw + e.rawLen
		}
		return e.raw
	}
	return e.raw + e.rawLen + (d - e.dec - e.decLen)
}

// decodeString decodes a valid JSON string (quotes included) as
// encoding/json does for valid input, and maps its escapes. Bytes that
// are not escapes are copied as they are.
func decodeString(raw []byte) (string, offsetMap) {
	var b strings.Builder
	b.Grow(len(raw))
	var m offsetMap
	i := 1
	last := len(raw) - 1
	for i < last {
		j := i
		for j < last && raw[j] != '\\' {
			j++
		}
		b.Write(raw[i:j])
		if j >= last {
			break
		}
		e := escapeAt{dec: b.Len(), raw: j}
		n := 2
		switch c := raw[j+1]; c {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, k := decodeU(raw[j:last])
			b.WriteRune(r)
			n = k
		default: // '"', '\\', '/'
			b.WriteByte(c)
		}
		e.decLen, e.rawLen = b.Len()-e.dec, n
		m = append(m, e)
		i = j + n
	}
	return b.String(), m
}

// decodeU decodes the \uXXXX escape at s[0] (and the low surrogate after
// it, when it makes a pair), returning the rune and the bytes used; a lone
// surrogate is U+FFFD, as encoding/json reads it.
func decodeU(s []byte) (rune, int) {
	if len(s) < 6 {
		return utf8.RuneError, len(s)
	}
	r := hex4(s[2:6])
	if utf16.IsSurrogate(r) {
		if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if p := utf16.DecodeRune(r, hex4(s[8:12])); p != utf8.RuneError {
				return p, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r, 6
}

func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}
