package lint

import (
	"strings"
	"testing"
	"unicode/utf8"
)

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
