package search

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzQuery compiles arbitrary queries (literal or regex, either case)
// and matches them in arbitrary text: no panic, every match inside the
// text and non-empty; a regex finds exactly the non-empty matches the
// regexp package finds on its own (the anchor prefilter never hides one);
// a case-sensitive literal found by strings.Index is found at that place.
func FuzzQuery(f *testing.F) {
	f.Add("needle", "a haystack with a needle in it", false, false)
	f.Add("NEEDLE", "a haystack with a needle", false, true)
	f.Add(`fo+\d`, "foo1 fo2 f3", true, false)
	f.Add(`(?s).`, "x\ny", true, true)
	f.Add(`\u00e9t\u00e9`, "été", false, false)
	f.Add("K", "\u212a Kelvin", false, false)
	f.Fuzz(func(t *testing.T, text, hay string, regex, caseSensitive bool) {
		q, err := Compile(text, QueryOptions{Regex: regex, Case: caseSensitive})
		if err != nil {
			return
		}
		got := q.matches(hay, 1000)
		for _, m := range got {
			if m[0] < 0 || m[0] >= m[1] || m[1] > len(hay) {
				t.Fatalf("match %v outside %d bytes of text", m, len(hay))
			}
		}
		switch {
		case regex:
			src := text
			if !caseSensitive {
				src = "(?i)" + src
			}
			re, err := regexp.Compile(src)
			if err != nil {
				t.Fatalf("Compile accepted %q, regexp refuses it: %v", src, err)
			}
			var want [][2]int
			for from := 0; from <= len(hay) && len(want) < 1000; {
				loc := re.FindStringIndex(hay[from:])
				if loc == nil {
					break
				}
				st, en := from+loc[0], from+loc[1]
				if st == en {
					_, size := utf8.DecodeRuneInString(hay[en:])
					from = en + max1(size)
					continue
				}
				want = append(want, [2]int{st, en})
				from = en
			}
			if len(got) != len(want) {
				t.Fatalf("query %q in %q: %v, regexp finds %v", text, hay, got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("query %q in %q: %v, regexp finds %v", text, hay, got, want)
				}
			}
		case caseSensitive:
			if i := strings.Index(hay, text); i >= 0 && (len(got) == 0 || got[0] != [2]int{i, i + len(text)}) {
				t.Fatalf("literal %q at %d of %q, matches %v", text, i, hay, got)
			}
		}
	})
}
