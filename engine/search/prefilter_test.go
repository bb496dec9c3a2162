package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
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
	writers := map[string]func(string) []byte{
		"JSON.stringify": func(s string) []byte {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s)
			return bytes.TrimSpace(b.Bytes())
		},
		"Go (HTML-safe)": func(s string) []byte { b, _ := json.Marshal(s); return b },
		"ensure_ascii":   asciiJSON,
	}
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
