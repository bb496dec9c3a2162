package ledger

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// TestNamesIsContains holds afterText.names, with its window set, to
// strings.Contains of the normalised texts, on random texts of a small
// alphabet (so that many names are in them, many only in part, and many
// windows share a bit) and of lengths around the window's.
func TestNamesIsContains(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 4))
	word := func(n int) string {
		const alphabet = "abcAB /.é\n"
		var b strings.Builder
		for range n {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for i := range 4000 {
		text := word(rng.IntN(3000))
		at := &afterText{raw: text, norm: normalize(text)}
		for range 20 {
			s := word(rng.IntN(12))
			if rng.IntN(3) == 0 && len(text) > 0 { // a piece of the text itself
				a := rng.IntN(len(text))
				s = text[a:min(len(text), a+rng.IntN(16))]
			}
			n := normalize(s)
			want := n != "" && strings.Contains(at.norm, n)
			if got := at.names(s); got != want {
				t.Fatalf("case %d: names(%q) in %q = %v, want %v", i, s, text, got, want)
			}
		}
	}
}

// TestNamesSearchesOnlyWhenTheWindowsMatch checks the window set answers
// a name the after-text lacks a four-byte piece of without searching the
// text (main searched it for every name), and still searches for one it
// holds.
func TestNamesSearchesOnlyWhenTheWindowsMatch(t *testing.T) {
	text := strings.Repeat("Worked on internal/store/journal.go and the parser; tests pass. ", 50)
	at := &afterText{raw: text, norm: normalize(text)}
	before := searches.Load()
	for _, p := range []string{"cmd/server/main.go", "go test ./engine/...", "docs/ROADMAP.md"} {
		if at.names(p) {
			t.Fatalf("names(%q) = true", p)
		}
	}
	if n := searches.Load() - before; n != 0 {
		t.Errorf("%d searches for names whose windows are not in the text, want 0", n)
	}
	if named := at.names("journal.go"); !named || searches.Load()-before != 1 {
		t.Errorf("journal.go: named %v after %d searches, want true after 1", named, searches.Load()-before)
	}
}

// TestAfterTextWindowsMadeWithNorm checks newAfterText of ASCII records
// makes the window set in the pass that normalises the text (before:
// on the first name, a second pass over it), that the set holds every
// window of the normalised text, and that normalizeGramsASCII is
// normalize, with text outside ASCII left to it.
func TestAfterTextWindowsMadeWithNorm(t *testing.T) {
	after := []*model.Record{{Message: &model.Message{Content: []model.ContentBlock{
		{Text: "Worked on  internal/store/Journal.go\n\tand the PARSER; tests pass.", Input: `{"file_path":"/W/x.go"}`},
	}}}}
	at := newAfterText(after)
	if at.grams.bits == nil {
		t.Fatal("newAfterText made no window set")
	}
	if at.norm != normalize(at.raw) {
		t.Fatalf("norm %q, want %q", at.norm, normalize(at.raw))
	}
	for i := 0; i+gramWidth <= len(at.norm); i++ {
		if !at.grams.mayHold(at.norm[i : i+gramWidth]) {
			t.Errorf("window %q of the normalised text not in the set", at.norm[i:i+gramWidth])
		}
	}
	rng := rand.New(rand.NewPCG(32, 5))
	const alphabet = "abcAB /.\n\t\r\f\v"
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		s := b.String()
		n, g, ok := normalizeGramsASCII(s)
		if !ok || n != normalize(s) {
			t.Fatalf("%q: %q %v, want %q", s, n, ok, normalize(s))
		}
		for i := 0; i+gramWidth <= len(n); i++ {
			if !g.mayHold(n[i : i+gramWidth]) {
				t.Fatalf("%q: window %q not in the set", s, n[i:i+gramWidth])
			}
		}
	}
	if _, _, ok := normalizeGramsASCII("Café Société"); ok {
		t.Error("normalizeGramsASCII took text outside ASCII")
	}
	if at := newAfterText([]*model.Record{{Message: &model.Message{Content: []model.ContentBlock{{Text: "Café"}}}}}); at.norm != normalize(at.raw) {
		t.Errorf("norm %q, want %q", at.norm, normalize(at.raw))
	}
}
