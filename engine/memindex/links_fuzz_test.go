package memindex

import (
	"path"
	"regexp"
	"strings"
	"testing"
)

var fuzzSafeName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// FindWikiLinks spans are exact; RewriteWikiLinks changes exactly the
// links named from, leaves the rest of the text alone, and rewriting back
// restores the text.
func FuzzWikiLinks(f *testing.F) {
	f.Add("See [[terse]] and [[terse|the rule]], not [[other#x]].", "terse", "brief")
	f.Add("[[[x]]] [[ spaced ]] [[]] [[a\nb]] [[c", "x", "y")
	f.Fuzz(func(t *testing.T, text, from, to string) {
		if rel, ok := TargetPath(text); ok && (rel == "" || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") || path.Clean(rel) != rel) {
			t.Fatalf("IndexTargetPath(%q) = %q leaves the folder or is not clean", text, rel)
		}
		links := FindWikiLinks(text)
		count := 0
		for _, l := range links {
			if l.Start >= l.End || text[l.Start:l.End] != l.Name || strings.ContainsAny(l.Name, "[]\n") || l.Name != strings.TrimSpace(l.Name) {
				t.Fatalf("bad link %+v in %q", l, text)
			}
			if l.Line != strings.Count(text[:l.Start], "\n")+1 {
				t.Fatalf("link %+v on the wrong line", l)
			}
			if l.Name == from {
				count++
			}
		}
		out, n := RewriteWikiLinks(text, from, to)
		if n != count {
			t.Fatalf("rewrote %d links, %d name %q", n, count, from)
		}
		if n == 0 && out != text {
			t.Fatal("text changed without a rewrite")
		}
		if !fuzzSafeName.MatchString(to) || !fuzzSafeName.MatchString(from) {
			return
		}
		for _, l := range links {
			if l.Name == to {
				return
			}
		}
		after := FindWikiLinks(out)
		if len(after) != len(links) {
			t.Fatalf("%d links became %d: %q", len(links), len(after), out)
		}
		for i, l := range after {
			want := links[i].Name
			if want == from {
				want = to
			}
			if l.Name != want {
				t.Fatalf("link %d is %q, want %q", i, l.Name, want)
			}
		}
		if back, m := RewriteWikiLinks(out, to, from); back != text || m != n {
			t.Fatalf("rewriting back gives %q (%d), want %q", back, m, text)
		}
	})
}
