package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memscope/memscope/internal/testenv"
)

// asciiJSON writes s as a JSON string the way writers with ensure_ascii
// do (Python's json, Jackson's ESCAPE_NON_ASCII): every non-ASCII
// character as \uXXXX (a surrogate pair above the BMP), controls as
// escapes, " and \ with a backslash, / as \/ (some writers do).
func asciiJSON(s string) []byte {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '/':
			b.WriteString(`\/`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04X\u%04X`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.Bytes()
}

// jsonWriters write a text as a JSON string as the client does
// (JSON.stringify) and as ensure_ascii writers do.
var jsonWriters = map[string]func(string) []byte{
	"JSON.stringify": func(s string) []byte {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		return bytes.TrimSpace(b.Bytes())
	},
	"ensure_ascii": asciiJSON,
}

// assertHanded asserts that the record record makes of text s, written
// by each of jsonWriters, is handed over and wanted (handed), and that
// the string is kept for decoding; full is the expression, for the
// message. It returns the records checked.
func assertHanded(t *testing.T, q *Query, full, s string, record func(raw []byte) []byte) int {
	t.Helper()
	for name, write := range jsonWriters {
		raw := write(s)
		line := record(raw)
		if !handed(q, line) {
			t.Fatalf("%s wrote %q as %s: %q was not handed over", name, s, line, full)
		}
		var scratch []byte
		if !q.pre.holds(raw, &scratch) {
			t.Fatalf("%s wrote %q as %s: %q, its string is not kept", name, s, raw, full)
		}
	}
	return len(jsonWriters)
}

// handed reports whether the line scan hands line over for a closer
// look (scanRegion, as a transcript's chunk is scanned).
func handed(q *Query, line []byte) bool {
	w := &worker{q: q}
	got := false
	region := append(bytes.Clone(line), '\n')
	w.scanRegion(region, 0, &lineCount{line: 1, buf: &w.countBuf}, w.queryScan(), func([]byte, int) { got = true })
	return got && w.wanted(line)
}

// TestPrefilterNeverHidesAMatch: whatever the query and however a JSON
// writer escaped the text (the client's JSON.stringify, Go's HTML-safe
// encoder, an ensure_ascii writer), a record whose text matches the query
// is handed over by the raw prefilter. Texts and queries are drawn from
// an alphabet of the characters the prefilter treats apart: plain ASCII,
// what JSON escapes, k and s and their non-ASCII folds, other letters
// with case outside ASCII, and characters beyond the BMP.
func TestPrefilterNeverHidesAMatch(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 18))
	alphabet := []rune("abkKsS ex-_<>&'\"\\/\n\tKſéÉß日本😀")
	writers := maps.Clone(jsonWriters)
	writers["Go (HTML-safe)"] = func(s string) []byte { b, _ := json.Marshal(s); return b }
	checked := 0
	for round := range 4000 {
		text := make([]rune, 1+rng.IntN(24))
		for i := range text {
			text[i] = alphabet[rng.IntN(len(alphabet))]
		}
		// The query: a piece of the text, its case changed at random
		// (a non-ASCII letter too), as a literal or a quoted regex.
		from := rng.IntN(len(text))
		to := from + 1 + rng.IntN(len(text)-from)
		qr := []rune(string(text[from:to]))
		for i, r := range qr {
			if rng.IntN(3) == 0 {
				if u := []rune(strings.ToUpper(string(r))); len(u) == 1 {
					qr[i] = u[0]
				}
			}
		}
		qo := QueryOptions{Regex: round%3 == 2, Case: round%5 == 0}
		query := string(qr)
		if qo.Regex {
			query = regexpQuote(query)
		}
		q, err := Compile(query, qo)
		if err != nil {
			continue
		}
		if len(q.matches(string(text), 1)) == 0 {
			continue // --case with a changed case: nothing to find
		}
		for name, write := range writers {
			line := fmt.Appendf(nil, `{"type":"user","uuid":"u1","message":{"role":"user","content":%s}}`, write(string(text)))
			if !handed(q, line) {
				t.Fatalf("%s wrote %q as %s: query %q %+v was not handed over", name, string(text), line, query, qo)
			}
			checked++
		}
	}
	if checked < 3000 {
		t.Fatalf("only %d matching records checked", checked)
	}
}

// TestRegexPrefilterNeverHidesAMatch: for random expressions built of
// the pieces the prefilter reads apart (literals with k and s, classes
// and their runs, repeats bounded and not, \b \B ^ $, alternations,
// prefixes), whatever text matches, however a writer escaped it, the
// record is handed over (the class run, the stretch of the alphabet,
// the anchored prefix check, the whole literals) and its string is kept
// for decoding; and the matches found in the text are the regexp's.
func TestRegexPrefilterNeverHidesAMatch(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(28, 5))
	atoms := []string{"a", "b", "k", "s", "ab", "ver", "ion", "x", " ", "é", "\u212a", "0", "[0-9]", `\d`, "[a-c]", "[ab ]", "[a-z]", "[kx]", `\w`, ".", "-", `"`, `\\`}
	quants := []string{"", "", "", "?", "*", "+", "{2}", "{1,3}", "{3,}", "{5}"}
	asserts := []string{`\b`, `\B`, "^", "$", "(?m)^", "(?m)$"}
	alphabet := []rune("abksvérion x0123456789-K\u212aſ\n\"\\/")
	piece := func() string {
		if rng.IntN(6) == 0 {
			return asserts[rng.IntN(len(asserts))]
		}
		a := atoms[rng.IntN(len(atoms))]
		if len([]rune(a)) > 1 && a[0] != '[' && a[0] != '\\' {
			a = "(?:" + a + ")"
		}
		return a + quants[rng.IntN(len(quants))]
	}
	checked := 0
	rounds := testenv.Size(t, 6000, 2000)
	for round := range rounds {
		var src strings.Builder
		for range 1 + rng.IntN(4) {
			src.WriteString(piece())
		}
		if rng.IntN(5) == 0 {
			src.WriteString("|")
			src.WriteString(piece())
			src.WriteString(piece())
		}
		qo := QueryOptions{Regex: true, Case: round%3 == 0}
		q, err := Compile(src.String(), qo)
		if err != nil {
			continue
		}
		full := src.String()
		if !qo.Case {
			full = "(?i)" + full
		}
		re := regexp.MustCompile(full)
		for range 8 {
			text := make([]rune, rng.IntN(30))
			for i := range text {
				text[i] = alphabet[rng.IntN(len(alphabet))]
			}
			s := string(text)
			var want [][2]int
			for _, m := range re.FindAllStringIndex(s, -1) {
				if m[1] > m[0] {
					want = append(want, [2]int{m[0], m[1]})
				}
			}
			if got := q.matches(s, 1000); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%q in %q: matches %v, the regexp's %v", full, s, got, want)
			}
			if len(want) == 0 {
				continue
			}
			checked += assertHanded(t, q, full, s, func(raw []byte) []byte {
				return fmt.Appendf(nil, `{"type":"user","uuid":"u1","message":{"role":"user","content":%s}}`, raw)
			})
		}
	}
	t.Logf("%d matching records checked in %d rounds", checked, rounds)
	if checked < rounds/2 {
		t.Fatalf("only %d matching records checked in %d rounds", checked, rounds)
	}
}
