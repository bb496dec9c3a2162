package engine

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzIndexCap checks the truncation properties: what loads is never over
// the caps, is a prefix of the trimmed input followed by the warning, and
// an input already within the caps loads unchanged (and capping the
// result again changes nothing).
func FuzzIndexCap(f *testing.F) {
	f.Add([]byte(memLines(5, "\n")))
	f.Add([]byte(strings.Repeat("😀", 12600)))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := CapIndex(data)
		trimmed := jsTrim(decodeLikeNode(data))
		if !utf8.ValidString(c.Content) {
			t.Fatal("content is not valid UTF-8")
		}
		if c.LoadedLines > IndexMaxLines || c.LoadedChars > IndexMaxChars {
			t.Fatalf("loaded %d lines, %d chars", c.LoadedLines, c.LoadedChars)
		}
		if !c.Truncated {
			if c.Content != trimmed || c.Warning != "" {
				t.Fatal("short input changed")
			}
			if again := CapIndex([]byte(c.Content)); again.Content != c.Content || again.Truncated {
				t.Fatal("capping is not idempotent on short input")
			}
			return
		}
		kept, ok := strings.CutSuffix(c.Content, "\n\n"+c.Warning)
		if !ok || !strings.HasPrefix(c.Warning, "> WARNING: MEMORY.md is ") {
			t.Fatal("content does not end with the warning")
		}
		// A hard cut may split a surrogate pair; Node writes the half as U+FFFD.
		if !strings.HasPrefix(trimmed, kept) && !(strings.HasSuffix(kept, "\uFFFD") && strings.HasPrefix(trimmed, strings.TrimSuffix(kept, "\uFFFD"))) {
			t.Fatal("kept text is not a prefix of the input")
		}
		if utf16Len(kept) != c.LoadedChars || c.LoadedChars > IndexMaxChars {
			t.Fatalf("kept %d units, reported %d", utf16Len(kept), c.LoadedChars)
		}
		if c.Lines <= IndexMaxLines && c.Chars <= IndexMaxChars {
			t.Fatal("truncated although within the caps")
		}
	})
}
