package text

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0B", 1023: "1023B", 1024: "1.0K", 1536: "1.5K", 5 << 20: "5.0M", 3 << 30: "3.0G"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestTokens(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1.0k", 9950: "9.9k", 10000: "10k", 167500: "167k", 999999: "999k", 1000000: "1.0M", 2345678: "2.3M"} {
		if got := Tokens(n); got != want {
			t.Errorf("Tokens(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	if got := Truncate("hello world", 6); got != "hello…" {
		t.Errorf("Truncate = %q", got)
	}
	if got := Truncate("日本語テキスト", 5); got != "日本…" {
		t.Errorf("Truncate wide = %q", got)
	}
	if got := TruncateLeft("/home/me/project", 9); got != "…/project" {
		t.Errorf("TruncateLeft = %q", got)
	}
	if got := Truncate("short", 10); got != "short" {
		t.Errorf("no cut expected, got %q", got)
	}
}

func TestWrap(t *testing.T) {
	got := Wrap("one two three four five six seven\nnext", 12)
	want := "one two\nthree four\nfive six\nseven\nnext"
	if got != want {
		t.Errorf("Wrap = %q, want %q", got, want)
	}
	if got := Wrap("supercalifragilistic word", 10); got != "supercalifragilistic\nword" {
		t.Errorf("long word: %q", got)
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n         int
		one, many string
		want      string
	}{{1, "orphan", "", "1 orphan"}, {0, "orphan", "", "0 orphans"}, {2, "file", "", "2 files"}, {1, "hash", "hashes", "1 hash"}, {3, "hash", "hashes", "3 hashes"}} {
		if got := Count(c.n, c.one, c.many); got != c.want {
			t.Errorf("Count(%d, %q, %q) = %q, want %q", c.n, c.one, c.many, got, c.want)
		}
	}
}

// Tabs become the spaces to the next stop, counted in cells from the
// line's start (wide runes included), so indentation keeps its shape.
func TestExpandTabs(t *testing.T) {
	for in, want := range map[string]string{
		"\tx":       "    x",
		"+\tx":      "+   x",
		"ab\t\tc":   "ab      c",
		"日本\tx":     "日本    x",
		"no tabs":   "no tabs",
		"abcd\tefg": "abcd    efg",
	} {
		if got := ExpandTabs(in); got != want {
			t.Errorf("ExpandTabs(%q) = %q, want %q", in, got, want)
		}
	}
}

// Truncate and TruncateLeft keep s whole when it fits in w cells, and
// else cut it to fit with its "…"; Pad pads to w. Whatever s holds:
// printable ASCII (its cells counted by its length) or wide characters,
// combining marks, escape sequences and line breaks (measured by
// lipgloss).
func TestCutsFitWhatever(t *testing.T) {
	for _, s := range []string{"", "a", "abcdefghij", "/home/me/projects/shop-api/memory/user_role.md",
		"日本語のテキスト", "e\u0301te\u0301 cafe\u0301", "\x1b[1mbold\x1b[0m text", "tab\there", "two\nlines", "mixed ascii 日本 end"} {
		for w := 1; w <= lipgloss.Width(s)+2; w++ {
			for name, cut := range map[string]func(string, int) string{"Truncate": Truncate, "TruncateLeft": TruncateLeft} {
				got := cut(s, w)
				switch {
				case lipgloss.Width(s) <= w && got != s:
					t.Errorf("%s(%q, %d) = %q, want it whole", name, s, w, got)
				case lipgloss.Width(s) > w && (lipgloss.Width(got) > w || !strings.Contains(got, "…")):
					t.Errorf("%s(%q, %d) = %q: %d cells", name, s, w, got, lipgloss.Width(got))
				}
			}
			if p := Pad(s, w); lipgloss.Width(p) != max(w, lipgloss.Width(s)) {
				t.Errorf("Pad(%q, %d) is %d cells", s, w, lipgloss.Width(p))
			}
		}
	}
}

// A cut of printable ASCII is one allocation (the result): the panes cut
// paths and names on every frame. Before, TruncateLeft made a rune slice
// and measured every suffix (a string each: 60 allocations for a
// 100-character path cut to 40) and Truncate grew a builder rune by rune.
func TestASCIICutsAllocateOnce(t *testing.T) {
	long := strings.Repeat("/projects/shop-api", 6)
	for name, cut := range map[string]func(string, int) string{"Truncate": Truncate, "TruncateLeft": TruncateLeft} {
		if n := testing.AllocsPerRun(20, func() { _ = cut(long, 40) }); n > 1 {
			t.Errorf("%s of a %d-character path to 40 cells: %.0f allocations, want 1", name, len(long), n)
		}
	}
}
