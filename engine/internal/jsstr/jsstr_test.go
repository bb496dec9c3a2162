package jsstr

import (
	"strings"
	"testing"
)

// FuzzCutTextAtLineSameAsUnits holds CutTextAtLine equal to the round trip
// through UTF-16 units it replaces, for every max up to the text's length.
func FuzzCutTextAtLineSameAsUnits(f *testing.F) {
	f.Add("ab\ncd😀\nef", 5)
	f.Add("😀😀😀", 3)
	f.Add("x\n😀😀y", 4)
	f.Add("\n😀", 2)
	f.Add("a\xffb\nc", 3)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 0 || max > 1<<16 {
			return
		}
		u, wantHard := CutAtLine(Units(s), max)
		got, hard := CutTextAtLine(s, max)
		if want := FromUnits(u); got != want || hard != wantHard {
			t.Fatalf("CutTextAtLine(%q, %d) = %q, %v; units give %q, %v", s, max, got, hard, want, wantHard)
		}
	})
}

// FuzzCutAtWordSameAsUnits holds CutAtWord equal to its units version.
func FuzzCutAtWordSameAsUnits(f *testing.F) {
	f.Add("a few words that go on", 8)
	f.Add("😀😀😀😀 😀😀😀😀", 5)
	f.Add("😀😀😀😀😀😀😀😀", 4)
	f.Add(" 😀😀😀😀😀😀😀", 5)
	f.Add("a\xffb c d e f", 4)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 1 || max > 1<<16 {
			return
		}
		if got, want := CutAtWord(s, max), cutAtWordUnits(s, max); got != want {
			t.Fatalf("CutAtWord(%q, %d) = %q; units give %q", s, max, got, want)
		}
	})
}

// TestCutsDoNotAllocate: a cut of valid text takes a substring, making no
// copy of the text as units (the units version allocated four times).
func TestCutsDoNotAllocate(t *testing.T) {
	s := strings.Repeat("- [A](a.md) — a hook 😀 of some length\n", 100)
	if n := testing.AllocsPerRun(10, func() { CutTextAtLine(s, 1000) }); n != 0 {
		t.Errorf("CutTextAtLine: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(10, func() { CutAtWord(s[:200], 300) }); n != 0 {
		t.Errorf("CutAtWord within max: %v allocations, want 0", n)
	}
}
