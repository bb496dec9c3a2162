package engine

import (
	"strings"
	"testing"
)

// FuzzRecallCut checks that a recalled file is cut to at most 200 lines
// and 4096 bytes before its note, and that the kept part is a prefix.
func FuzzRecallCut(f *testing.F) {
	f.Add(strings.Repeat("line\n", 250))
	f.Add(strings.Repeat("é", 3000))
	f.Fuzz(func(t *testing.T, text string) {
		out, cut := CutRecalled(text, "/m/f.md")
		if !cut {
			if out != text {
				t.Fatal("uncut text changed")
			}
			return
		}
		i := strings.LastIndex(out, "\n\n> This memory file was truncated")
		if i < 0 {
			t.Fatal("no truncation note")
		}
		kept := out[:i]
		if !strings.HasPrefix(text, kept) || len(kept) > RecallFileMaxBytes || strings.Count(kept, "\n") >= RecallFileMaxLines {
			t.Fatalf("kept %d bytes, %d newlines", len(kept), strings.Count(kept, "\n"))
		}
	})
}
