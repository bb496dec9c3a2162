package model

import (
	"fmt"
	"testing"
)

func TestParsePlaceholders(t *testing.T) {
	type want struct {
		kind  PlaceholderKind
		id    PasteID
		lines int
		text  string
	}
	tests := []struct {
		display string
		want    []want
	}{
		{"[Pasted text #1 +39 lines] summarize this", []want{{PlaceholderPastedText, 1, 39, "[Pasted text #1 +39 lines]"}}},
		{"one liner [Pasted text #2] done", []want{{PlaceholderPastedText, 2, 0, "[Pasted text #2]"}}},
		{"[Image #3]", []want{{PlaceholderImage, 3, 0, "[Image #3]"}}},
		{"see [...Truncated text #4 +120 lines...] tail", []want{{PlaceholderTruncatedText, 4, 120, "[...Truncated text #4 +120 lines...]"}}},
		{"old form [Pasted text +12 lines]", []want{{PlaceholderPastedText, 0, 12, "[Pasted text +12 lines]"}}},
		{"[Image #1][Pasted text #2 +1 lines]x[Image #10]", []want{
			{PlaceholderImage, 1, 0, "[Image #1]"},
			{PlaceholderPastedText, 2, 1, "[Pasted text #2 +1 lines]"},
			{PlaceholderImage, 10, 0, "[Image #10]"},
		}},
		{"[[Image #5]]", []want{{PlaceholderImage, 5, 0, "[Image #5]"}}},
		{"héllo [Image #7] wörld", []want{{PlaceholderImage, 7, 0, "[Image #7]"}}},
		// Near misses are plain text.
		{"[Pasted text]", nil},
		{"[Pasted text #]", nil},
		{"[Pasted text #1 +3 line]", nil},
		{"[Pasted text #1 +3 lines", nil},
		{"[Image #x]", nil},
		{"[Image 1]", nil},
		{"[...Truncated text #1 +2 lines]", nil},
		{"[Pasted text #12345678901]", nil},
		{"[Pasted text #-1]", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.display, func(t *testing.T) {
			got := ParsePlaceholders(tt.display)
			if len(got) != len(tt.want) {
				t.Fatalf("got %+v, want %d placeholders", got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Kind != w.kind || g.ID != w.id || g.Lines != w.lines || tt.display[g.Start:g.End] != w.text {
					t.Errorf("placeholder %d = %+v (%q), want %+v", i, g, tt.display[g.Start:g.End], w)
				}
				if g.String() != w.text {
					t.Errorf("String() = %q, want %q", g.String(), w.text)
				}
			}
		})
	}
}

func TestHistoryEntryPlaceholdersLinkPastes(t *testing.T) {
	h := readFixtureHistory(t)
	e := entryAtLine(t, h, 10)
	refs := e.Placeholders()
	if len(refs) != 2 {
		t.Fatalf("refs = %+v", refs)
	}
	if refs[0].Kind != PlaceholderTruncatedText || refs[0].ID != 3 || refs[0].Paste != nil {
		t.Errorf("truncated #3 has no pastedContents item: %+v", refs[0])
	}
	if refs[1].ID != 1 || refs[1].Paste == nil || refs[1].Paste.Hash != "b20ad400088fc484" {
		t.Errorf("pasted #1 should link to its hash: %+v", refs[1])
	}
	if got := fmt.Sprint(len(entryAtLine(t, h, 7).Placeholders())); got != "0" {
		t.Errorf("plain prompt has %s placeholders", got)
	}
}
