package search

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A regular expression that is an alternation of literals (or one
// literal, or a literal query) is matched by the literal finders, not
// the expression: the matches are exactly the expression's (leftmost,
// the first alternative in order at one place, case folded the Unicode
// way: a text with a Kelvin sign or a long s goes to the expression).
func TestLiteralAlternationMatchesTheExpression(t *testing.T) {
	texts := []string{
		"the parser and the reader feed the writer; PARSER, Reader, wRiTeR",
		"abcd abc ab a bcd xabcx",
		"pars\u017fer pa\u017fser \u212aeeper keeper KEEPER",
		"readers reread the rereader writer rite",
		"the migration table, a SCHEMA column, schema  table, migration\u212acolumn",
		"parser reader pars read parser read pars reader parsreader",
		"xabcd abcd xc abc xbcd",
		"worker\nthe worker\nWORKER\r\nworkers\nworker",
		"the wor\u212aer\nworker",
		"index prompt\nindex prompt and index prompt\n\nINDEX PROMPT",
		"",
	}
	for _, c := range []struct {
		pattern string
		o       QueryOptions
		literal bool
	}{
		{"parser|reader|writer", QueryOptions{Regex: true}, true},
		{"(parser|reader|writer)", QueryOptions{Regex: true}, true},
		{"parser|reader|writer", QueryOptions{Regex: true, Case: true}, true},
		{"ab|abc", QueryOptions{Regex: true}, true}, // factored as ab(?:|c), expanded back
		{"abc|ab", QueryOptions{Regex: true}, true},
		{"bc|abcd", QueryOptions{Regex: true}, true},
		{"keeper|parser", QueryOptions{Regex: true}, true},
		{"reader|rere", QueryOptions{Regex: true}, true}, // factored, expanded back
		{"writer|rite", QueryOptions{Regex: true}, true},
		{"rite|writer", QueryOptions{Regex: true}, true},
		{"(migration|schema) (table|column)", QueryOptions{Regex: true}, true},
		{"(parser|pars) (reader|read)", QueryOptions{Regex: true}, true},
		{"(pars|parser)(er|)", QueryOptions{Regex: true}, true},
		{"(a|ab)(c|bcd)", QueryOptions{Regex: true}, true},
		{"(x|ab)(c|bcd)", QueryOptions{Regex: true}, true},
		{"release parser", QueryOptions{}, true},
		{"keeper", QueryOptions{}, true},
		{"parser|read(er|ing)", QueryOptions{Regex: true}, true},
		{"parser|read(er|ing)?", QueryOptions{Regex: true}, false},
		{"(pars|x)(er|)", QueryOptions{Regex: true}, true},
		{"[a-z]+er", QueryOptions{Regex: true}, false},
		// Literals between the edges of a line or of the text.
		{"(?m)worker$", QueryOptions{Regex: true}, true},
		{"worker$", QueryOptions{Regex: true}, true},
		{`worker\z`, QueryOptions{Regex: true, Case: true}, true},
		{"^index prompt", QueryOptions{Regex: true}, true},
		{"(?m)^index prompt", QueryOptions{Regex: true}, true},
		{`\Aindex`, QueryOptions{Regex: true}, true},
		{"(?m)^(ab|abc|worker)$", QueryOptions{Regex: true}, true},
		{"(?m)^(worker|work)", QueryOptions{Regex: true}, true},
		{"(?m)(er|ker)$", QueryOptions{Regex: true}, true},
		{"(?m)^$", QueryOptions{Regex: true}, false},
		{`worker\b`, QueryOptions{Regex: true}, false},
	} {
		q, err := Compile(c.pattern, c.o)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.lit != nil; got != c.literal {
			t.Errorf("%q %+v: matched by literals %v, want %v", c.pattern, c.o, got, c.literal)
		}
		src := c.pattern
		if !c.o.Regex {
			src = regexp.QuoteMeta(src)
		}
		if !c.o.Case {
			src = "(?i)" + src
		}
		re := regexp.MustCompile(src)
		for _, text := range texts {
			var want [][2]int
			for _, m := range re.FindAllStringIndex(text, -1) {
				if m[1] > m[0] {
					want = append(want, [2]int{m[0], m[1]})
				}
			}
			if got := q.matches(text, 1000); !slices.Equal(got, want) {
				t.Errorf("%q %+v in %q: matches %v, the expression's %v", c.pattern, c.o, text, got, want)
			}
		}
	}
}

// TestEdgedLiteralsMatchTheExpression: random alternations of literals
// between random edges (^ $ \A \z, in either mode, or none), in either
// case, are matched by the literal finders, and exactly as the
// expression matches them, in random texts of their letters and line
// breaks; and a record whose text matches, however a writer escaped it,
// is handed over and wanted (verify's look at the raw line,
// edgedLiterals.may, never hides it) and its string kept.
func TestEdgedLiteralsMatchTheExpression(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(28, 19))
	words := []string{"a", "ab", "abc", "b", "ba", "k", "ks", "wor", "worker"}
	begins := []string{"", "^", "(?m)^", `\A`}
	ends := []string{"", "$", "(?m)$", `\z`}
	alphabet := []string{"a", "b", "c", "k", "K", "s", "wor", "ker", "\n", "\r", " ", "\u212a", "\u017f", `"`, `\`, "n", "u"}
	literal, edged, checked := 0, 0, 0
	for round := range 3000 {
		var alts []string
		for range 1 + rng.IntN(3) {
			alts = append(alts, words[rng.IntN(len(words))])
		}
		src := begins[rng.IntN(len(begins))] + "(?:" + strings.Join(alts, "|") + ")" + ends[rng.IntN(len(ends))]
		qo := QueryOptions{Regex: true, Case: round%2 == 0}
		q, err := Compile(src, qo)
		if err != nil {
			t.Fatal(err)
		}
		if q.lit != nil {
			literal++
		}
		if q.pre.edged != nil {
			edged++
		}
		full := src
		if !qo.Case {
			full = "(?i)" + full
		}
		re := regexp.MustCompile(full)
		for range 10 {
			var text strings.Builder
			for range rng.IntN(24) {
				text.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			s := text.String()
			var want [][2]int
			for _, m := range re.FindAllStringIndex(s, -1) {
				if m[1] > m[0] {
					want = append(want, [2]int{m[0], m[1]})
				}
			}
			if got := q.matches(s, 1000); !slices.Equal(got, want) {
				t.Fatalf("%q in %q: matches %v, the expression's %v", full, s, got, want)
			}
			if len(want) == 0 {
				continue
			}
			checked += assertHanded(t, q, full, s, func(raw []byte) []byte {
				return fmt.Appendf(nil, `{"type":"user","uuid":"u1","message":{"role":"user","content":[{"type":"text","text":"wor\\nker\\""},{"type":"text","text":%s}]}}`, raw)
			})
		}
	}
	if literal < 2500 || edged < 1000 || checked < 2000 {
		t.Fatalf("%d of 3000 expressions matched by the literal finders, %d verified on the raw line; %d records checked", literal, edged, checked)
	}
}
