package text

import (
	"testing"
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
