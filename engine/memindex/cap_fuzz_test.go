package memindex

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memscope/memscope/engine/internal/jsstr"
)

// FuzzIndexCap checks the truncation properties on arbitrary bytes (see
// checkIndexCap).
func FuzzIndexCap(f *testing.F) {
	f.Add([]byte(memLines(5, "\n")))
	f.Add([]byte(strings.Repeat("😀", 12600)))
	f.Fuzz(func(t *testing.T, data []byte) { checkIndexCap(t, data) })
}

// FuzzIndexCapScaled builds large inputs from a repeated unit, so that
// both caps (200 lines, 25000 UTF-16 units) are reached far more often
// than by mutating bytes: reps copies of unit+sep, then tail.
func FuzzIndexCapScaled(f *testing.F) {
	f.Add("- [Memory](mem.md) — hook line", uint16(250), "\n", "")
	f.Add("项", uint16(25001), "", "")
	f.Add("😀", uint16(12500), "", "a")
	f.Add("a", uint16(30000), "", "\n- [B](b.md) — b")
	f.Add(strings.Repeat("w ", 75), uint16(199), "\r\n", "\n\n  \n")
	f.Add("\u00a0x\u2028", uint16(9000), "\n", "\ufeff")
	f.Fuzz(func(t *testing.T, unit string, reps uint16, sep, tail string) {
		n := int(reps)
		if per := len(unit) + len(sep); per > 0 && per*n > 1<<20 {
			n = (1 << 20) / per
		}
		checkIndexCap(t, []byte(strings.Repeat(unit+sep, n)+tail))
	})
}

var warningRE = regexp.MustCompile(`^> WARNING: MEMORY\.md is ` +
	`(?:\d+ lines \(limit: 200\)|\d+(?:\.\d)?(?:KB|MB) \(limit: 24\.4KB\) — index entries are too long|\d+ lines and \d+(?:\.\d)?(?:KB|MB))` +
	`\. Only part of it was loaded: ` +
	`(?:\d+ of \d+ lines were cut off, starting at line \d+(?: \("(.*)"\))?|everything after the first 25000 characters of line 1 was cut off)` +
	`\. Keep index entries to one line under ~200 chars; move detail into topic files\.$`)

// checkIndexCap asserts, with counts made here rather than taken from the
// result: what loads is never over the caps; a cut result is a prefix of
// the trimmed input, ending at the last line end that fits (or a hard cut
// at 25000 units inside line 1), followed by "\n\n" and a warning of the
// client's form; an input within the caps loads unchanged, and capping
// that again changes nothing.
func checkIndexCap(t *testing.T, data []byte) {
	t.Helper()
	c := CapIndex(data)
	trimmed := jsstr.Trim(jsstr.DecodeLikeNode(data))
	lines := func(s string) int {
		if s == "" {
			return 0
		}
		return strings.Count(s, "\n") + 1
	}
	inLines, inUnits := lines(trimmed), jsstr.UTF16Len(trimmed)
	if !utf8.ValidString(c.Content) {
		t.Fatal("content is not valid UTF-8")
	}
	if c.Lines != inLines || c.Chars != inUnits {
		t.Fatalf("measured %d lines %d units, counted %d %d", c.Lines, c.Chars, inLines, inUnits)
	}
	if !c.Truncated {
		if inLines > MaxLines || inUnits > MaxChars {
			t.Fatalf("%d lines, %d units loaded whole", inLines, inUnits)
		}
		if c.Content != trimmed || c.Warning != "" || len(c.DroppedEntries) != 0 {
			t.Fatal("short input changed")
		}
		if again := CapIndex([]byte(c.Content)); again.Content != c.Content || again.Truncated {
			t.Fatal("capping is not idempotent on short input")
		}
		return
	}
	if inLines <= MaxLines && inUnits <= MaxChars {
		t.Fatal("truncated although within the caps")
	}
	kept, ok := strings.CutSuffix(c.Content, "\n\n"+c.Warning)
	if !ok {
		t.Fatal("content does not end with the warning")
	}
	m := warningRE.FindStringSubmatch(c.Warning)
	if m == nil {
		t.Fatalf("warning not of the client's form: %q", c.Warning)
	}
	if q := m[1]; jsstr.UTF16Len(q) > warningQuoteMax {
		t.Fatalf("quote is %d units", jsstr.UTF16Len(q))
	}
	if lines(kept) > MaxLines || jsstr.UTF16Len(kept) > MaxChars || lines(kept) != c.LoadedLines || jsstr.UTF16Len(kept) != c.LoadedChars {
		t.Fatalf("kept %d lines %d units, reported %d %d", lines(kept), jsstr.UTF16Len(kept), c.LoadedLines, c.LoadedChars)
	}
	// A hard cut may split a surrogate pair; Node writes the half as U+FFFD.
	prefix := kept
	if !strings.HasPrefix(trimmed, kept) {
		prefix = strings.TrimSuffix(kept, "\uFFFD")
		if prefix == kept || !strings.HasPrefix(trimmed, prefix) {
			t.Fatal("kept text is not a prefix of the input")
		}
	}
	hard := strings.Contains(c.Warning, "of line 1 was cut off")
	if hard {
		if strings.Contains(kept, "\n") || jsstr.UTF16Len(kept) != MaxChars {
			t.Fatalf("hard cut kept %d units and a line break: %v", jsstr.UTF16Len(kept), strings.Contains(kept, "\n"))
		}
		return
	}
	if trimmed[len(prefix)] != '\n' {
		t.Fatal("cut is not at a line end")
	}
	// The cut is at the last line end that fits: one more line would
	// break a cap.
	next := len(trimmed)
	if i := strings.IndexByte(trimmed[len(prefix)+1:], '\n'); i >= 0 {
		next = len(prefix) + 1 + i
	}
	if more := trimmed[:next]; lines(more) <= MaxLines && jsstr.UTF16Len(more) <= MaxChars {
		t.Fatalf("cut at line %d although line %d fits", lines(kept), lines(more))
	}
}
