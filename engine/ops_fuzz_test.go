package engine

import (
	"encoding/json"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

var fuzzSafeName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// FindWikiLinks spans are exact; RewriteWikiLinks changes exactly the
// links named from, leaves the rest of the text alone, and rewriting back
// restores the text.
func FuzzWikiLinks(f *testing.F) {
	f.Add("See [[terse]] and [[terse|the rule]], not [[other#x]].", "terse", "brief")
	f.Add("[[[x]]] [[ spaced ]] [[]] [[a\nb]] [[c", "x", "y")
	f.Fuzz(func(t *testing.T, text, from, to string) {
		if rel, ok := IndexTargetPath(text); ok && (rel == "" || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") || path.Clean(rel) != rel) {
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

// Any bytes parse without panic; what parses validates and survives a
// rewrite; nothing is dropped silently.
func FuzzJournal(f *testing.F) {
	f.Add([]byte(`{"id":"20261122-111420.836","time":"2026-11-22T11:14:20.836Z","op":"rename","summary":"s","files":[{"path":"a.md","existed":true,"before":"aGk=","mode":420,"after":""}]}` + "\n"))
	f.Add([]byte("garbage\n{\"id\":\"x\",\"files\":[]}\n{\"id\":\"cut"))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, probs := ParseJournal(JournalPath, data)
		for _, e := range entries {
			if err := e.validate(); err != nil {
				t.Fatalf("parsed entry does not validate: %v", err)
			}
		}
		nonBlank := 0
		for _, line := range strings.Split(strings.TrimPrefix(string(data), "\ufeff"), "\n") {
			if strings.TrimSpace(strings.TrimSuffix(line, "\r")) != "" {
				nonBlank++
			}
		}
		if len(entries)+len(probs) != nonBlank {
			t.Fatalf("%d entries + %d problems for %d lines", len(entries), len(probs), nonBlank)
		}
		j, _ := parseJournal(JournalPath, data)
		again, probs2 := ParseJournal(JournalPath, j.bytes())
		a, _ := json.Marshal(entries)
		b, _ := json.Marshal(again)
		if string(a) != string(b) || len(probs2) != len(probs) {
			t.Fatalf("rewrite changed the journal: %s vs %s, problems %d vs %d", a, b, len(probs), len(probs2))
		}
	})
}

// Similarity is a symmetric number in [0, 1], identical texts score 1,
// and the shared text is a piece of the first text.
func FuzzDuplicates(f *testing.F) {
	f.Add("Integration tests hit a real Postgres, never a mocked driver.", "Use the real Postgres in integration tests, do not mock the driver.")
	f.Add("same", "same")
	f.Add("\xff\xfe bad utf8 ü", "")
	f.Fuzz(func(t *testing.T, a, b string) {
		ab := FindDuplicates([]DupeDoc{{Path: "a", Text: a}, {Path: "b", Text: b}}, 1e-9)
		ba := FindDuplicates([]DupeDoc{{Path: "b", Text: b}, {Path: "a", Text: a}}, 1e-9)
		if len(ab) != len(ba) || len(ab) > 1 {
			t.Fatalf("pairs %d vs %d", len(ab), len(ba))
		}
		if len(ab) == 1 {
			if ab[0].Similarity <= 0 || ab[0].Similarity > 1 || ab[0].Similarity != ba[0].Similarity {
				t.Fatalf("similarity %v vs %v", ab[0].Similarity, ba[0].Similarity)
			}
			if s := strings.TrimSuffix(ab[0].Shared, "…"); !strings.Contains(a, s) || s == "" {
				t.Fatalf("shared %q is not in %q", ab[0].Shared, a)
			}
		}
		if words := dupeWords(a); len(words) > 0 {
			same := FindDuplicates([]DupeDoc{{Path: "a", Text: a}, {Path: "c", Text: a}}, 0)
			if len(same) != 1 || same[0].Similarity != 1 {
				t.Fatalf("identical texts: %+v", same)
			}
		}
	})
}

// Applying the diff to the old text gives the new text.
func FuzzUnifiedDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\nd", true, true)
	f.Add("", "x\n", false, true)
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\nX\n4\n5\n6\n7\n8\nY\n10\n", true, true)
	f.Fuzz(func(t *testing.T, a, b string, aExists, bExists bool) {
		if !aExists {
			a = ""
		}
		if !bExists {
			b = ""
		}
		d := UnifiedDiff("f", []byte(a), aExists, []byte(b), bExists)
		if a == b && aExists == bExists {
			if d != "" {
				t.Fatalf("diff of equal texts: %q", d)
			}
			return
		}
		got, err := applyUnified(a, d)
		if err != nil || got != b {
			t.Fatalf("patch gives %q (%v), want %q\n%s", got, err, b, d)
		}
	})
}

// applyUnified applies a diff made by UnifiedDiff to a.
func applyUnified(a, diff string) (string, error) {
	old := splitLinesKeepEOL(a)
	lines := splitLinesKeepEOL(diff)
	var out []string
	pos := 0
	hdr := regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@\n$`)
	for i := 2; i < len(lines); i++ {
		m := hdr.FindStringSubmatch(lines[i])
		if m == nil {
			return "", errBadPatch(lines[i])
		}
		start, _ := strconv.Atoi(m[1])
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		if n > 0 {
			start--
		}
		out = append(out, old[pos:start]...)
		pos = start
		for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "@@ ") {
			i++
			l := lines[i]
			text := l[1:]
			if i+1 < len(lines) && lines[i+1] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ':
				out = append(out, text)
				pos++
			case '-':
				pos++
			case '+':
				out = append(out, text)
			default:
				return "", errBadPatch(l)
			}
		}
	}
	out = append(out, old[pos:]...)
	return strings.Join(out, ""), nil
}

type errBadPatch string

func (e errBadPatch) Error() string { return "bad patch line " + strconv.Quote(string(e)) }

// References are on real lines and paths stay inside the project.
func FuzzDriftRefs(f *testing.F) {
	f.Add("see internal/cart/legacy.go and `PriceBasket`, `cmd/reindex`\n```\n`Hidden`\n```\n")
	f.Add("`../x.go` `/abs/y.go` https://h/a/b.go `a.go:12`")
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Count(text, "\n") + 1
		for _, r := range DriftRefs(text) {
			if r.Line < 1 || r.Line > lines || r.Text == "" {
				t.Fatalf("ref %+v outside the text", r)
			}
			if r.Kind == RefPath && (strings.HasPrefix(r.Text, "/") || r.Text == ".." || strings.HasPrefix(r.Text, "../")) {
				t.Fatalf("path ref %q leaves the project", r.Text)
			}
			if !utf8.ValidString(r.Text) && r.Kind != RefPath {
				t.Fatalf("ref %q is not text", r.Text)
			}
		}
	})
}
