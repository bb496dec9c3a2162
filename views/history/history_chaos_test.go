package history

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestShownPrefixKeepsWhatShows: a huge prompt line is cut before it is
// sanitized, on a rune boundary, and never shorter than the row can show.
func TestShownPrefixKeepsWhatShows(t *testing.T) {
	cases := []struct {
		name  string
		s     string
		width int
	}{
		{"short stays whole", "hello", 80},
		{"10 MiB of ascii", strings.Repeat("a", 10<<20), 80},
		{"10 MiB of 3-byte runes", strings.Repeat("日", 10<<20/3), 120},
		{"4-byte runes at the cut", strings.Repeat("🙂", 5000), 7},
		{"escapes first", strings.Repeat("\x1b[31m", 400) + strings.Repeat("x", 1<<20), 50},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := shownPrefix(tc.s, tc.width)
			if !strings.HasPrefix(tc.s, got) || !utf8.ValidString(got) {
				t.Fatalf("not a whole-rune prefix (len %d of %d)", len(got), len(tc.s))
			}
			if len(tc.s) <= tc.width*4+1024 && got != tc.s {
				t.Errorf("a line that fits was cut to %d of %d bytes", len(got), len(tc.s))
			}
			if len(got) > tc.width*4+1024 {
				t.Errorf("kept %d bytes for %d cells", len(got), tc.width)
			}
			if runes := utf8.RuneCountInString(got); runes < tc.width && runes < utf8.RuneCountInString(tc.s) && !strings.Contains(tc.s, "\x1b") {
				t.Errorf("kept %d runes, fewer than the %d cells of the row", runes, tc.width)
			}
		})
	}
}
