package preview

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRecallCut checks the recalled-file cut on arbitrary text (see
// checkRecallCut).
func FuzzRecallCut(f *testing.F) {
	f.Add(strings.Repeat("line\n", 250))
	f.Add(strings.Repeat("é", 3000))
	f.Fuzz(func(t *testing.T, text string) { checkRecallCut(t, text) })
}

// FuzzRecallCutScaled builds long inputs from a repeated unit so both
// limits (200 lines, 4096 bytes) are reached often.
func FuzzRecallCutScaled(f *testing.F) {
	f.Add("l", uint16(200), "\n", "x")
	f.Add("😀", uint16(1025), "", "")
	f.Add(strings.Repeat("e", 99), uint16(300), "\n", "")
	f.Add("a\r", uint16(201), "\n", "")
	f.Fuzz(func(t *testing.T, unit string, reps uint16, sep, tail string) {
		n := int(reps)
		if per := len(unit) + len(sep); per > 0 && per*n > 1<<18 {
			n = (1 << 18) / per
		}
		checkRecallCut(t, strings.Repeat(unit+sep, n)+tail)
	})
}

// checkRecallCut asserts: a file within 200 lines and 4096 bytes is left
// alone; a longer one keeps a prefix of at most 200 lines and 4096 bytes
// (not splitting a character of valid UTF-8), then the note naming the file, and
// cutting the kept part again changes nothing.
func checkRecallCut(t *testing.T, text string) {
	t.Helper()
	const abs = "/m/f.md"
	lines := strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
	out, cut := CutRecalled(text, abs)
	if !cut {
		if out != text {
			t.Fatal("uncut text changed")
		}
		if lines > RecallFileMaxLines || len(text) > RecallFileMaxBytes {
			t.Fatalf("%d lines, %d bytes not cut", lines, len(text))
		}
		return
	}
	if lines <= RecallFileMaxLines && len(text) <= RecallFileMaxBytes {
		t.Fatalf("%d lines, %d bytes cut", lines, len(text))
	}
	kept, ok := strings.CutSuffix(out, "). Read the complete file at "+abs+".")
	if i := strings.LastIndex(kept, "\n\n> This memory file was truncated (over "); ok && i >= 0 {
		kept = kept[:i]
	} else {
		t.Fatal("no truncation note naming the file")
	}
	if !strings.HasPrefix(text, kept) || len(kept) > RecallFileMaxBytes || strings.Count(kept, "\n") >= RecallFileMaxLines {
		t.Fatalf("kept %d bytes, %d newlines", len(kept), strings.Count(kept, "\n"))
	}
	if len(kept) < len(text) && utf8.ValidString(text) && !isRuneStart(text[len(kept)]) {
		t.Fatal("cut splits a character")
	}
	// A cut inside one long line backs off at most the 3 bytes a
	// character can reach back, even over bytes that are not UTF-8.
	if head := text[:min(len(text), RecallFileMaxBytes+1)]; len(text) > RecallFileMaxBytes && !strings.Contains(head, "\n") && len(kept) < RecallFileMaxBytes-3 {
		t.Fatalf("kept only %d bytes of a long line", len(kept))
	}
	if again, cut := CutRecalled(kept, abs); cut || again != kept {
		t.Fatal("cutting the kept part again changed it")
	}
}
