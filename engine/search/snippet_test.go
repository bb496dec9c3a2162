package search

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestIndexedSecretsAreEachWindows cuts every snippet of random texts
// (lines of words, secrets planted among them, some cut across lines or
// at a window's edge) with the text's secret anchors found once
// (textSecrets.index) and with each window looked at on its own: the
// snippets are the same. It fails when the index misses an anchor a
// window holds (one ending past the window, one filed under a byte pair
// out of order) or finds one it does not.
func TestIndexedSecretsAreEachWindows(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(28, 3))
	secrets := []string{
		"ghp_" + strings.Repeat("a1B2c3D4e5", 3) + "f6G7h8",
		"AKIA" + "QW3RTY7UI0PASDF2",
		"sk-ant-api03-" + strings.Repeat("xY9_-kLm2N", 9) + "abcAA",
	}
	words := strings.Fields("parser reader writer the of a queue branch ghp_ AKIA sk-ant key token é ⏎")
	masked := 0
	for round := range 200 {
		var b strings.Builder
		for b.Len() < 200+rng.IntN(6000) {
			switch r := rng.IntN(40); {
			case r == 0:
				b.WriteString(secrets[rng.IntN(len(secrets))])
			case r == 1:
				s := secrets[rng.IntN(len(secrets))]
				b.WriteString(s[:rng.IntN(len(s))]) // a cut anchor
			case r < 6:
				b.WriteByte('\n')
			default:
				b.WriteString(words[rng.IntN(len(words))])
			}
			b.WriteByte(' ')
		}
		text := b.String()
		q, err := Compile(words[rng.IntN(3)], QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ms := q.matches(text, 1<<30)
		indexed := &textSecrets{}
		indexed.index(text, len(ms)+len(text)) // always indexed
		if !indexed.indexed {
			t.Fatalf("round %d: not indexed", round)
		}
		// Windows at every edge of every anchor, and random ones.
		each := &textSecrets{}
		for _, h := range indexed.hits {
			for _, rs := range []int{h.Start - 1, h.Start, h.Start + 1} {
				for _, re := range []int{h.End - 1, h.End, h.End + 1} {
					if rs >= 0 && re <= len(text) && rs < re {
						if got, want := indexed.anchorIn(text, rs, re), each.anchorIn(text, rs, re); got != want {
							t.Fatalf("round %d, [%d:%d] %q: indexed %v, on its own %v", round, rs, re, text[rs:re], got, want)
						}
					}
				}
			}
		}
		for range 50 {
			rs := rng.IntN(len(text))
			re := rs + rng.IntN(len(text)-rs+1)
			if got, want := indexed.anchorIn(text, rs, re), each.anchorIn(text, rs, re); got != want {
				t.Fatalf("round %d, [%d:%d]: indexed %v, on its own %v", round, rs, re, got, want)
			}
		}
		for _, m := range ms {
			want, wm := makeSnippet(text, m[0], m[1], &textSecrets{})
			got, gm := makeSnippet(text, m[0], m[1], indexed)
			if got != want || gm != wm {
				t.Fatalf("round %d, match at %d: indexed %q %v, each window %q %v", round, m[0], got, gm, want, wm)
			}
			if strings.Contains(want, "[secret: ") {
				masked++
			}
		}
	}
	if masked == 0 {
		t.Fatal("no snippet masked a secret: the texts test nothing")
	}
}
