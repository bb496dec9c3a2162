package memindex

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

const warnTail = ". Keep index entries to one line under ~200 chars; move detail into topic files."

// memLines builds n index lines "- [Memory i](mem_i.md) — hook line number i".
func memLines(n int, eol string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "- [Memory %d](mem_%d.md) — hook line number %d%s", i, i, i, eol)
	}
	return b.String()
}

// padLine returns s padded with "x" to n characters (ASCII only).
func padLine(s string, n int) string { return s + strings.Repeat("x", n-len(s)) }

func TestCapIndexWarnings(t *testing.T) {
	lorem := strings.Repeat("lorem ", 100)
	var sizeOnly, twoCuts []string
	for i := 1; i <= 10; i++ {
		sizeOnly = append(sizeOnly, padLine(fmt.Sprintf("- [E%d](e%d.md) — %s", i, i, lorem), 3000+2)) // "—" is 3 bytes, 1 unit
	}
	for i := 1; i <= 250; i++ {
		twoCuts = append(twoCuts, padLine(fmt.Sprintf("- [T%03d](t%03d.md) — %s", i, i, "word"), 150+2))
	}
	both := strings.Repeat(strings.Repeat("b", 99)+"\n", 299) + strings.Repeat("b", 100)
	blankCut := memLines(200, "\n") + "\n" + memLines(49, "\n")
	tests := []struct {
		name        string
		in          string
		want        string // the warning line
		loadedLines int
		cutFileLine int
		dropped     int
	}{
		{"lines only: FORMATS.md verbatim", memLines(250, "\n"),
			`> WARNING: MEMORY.md is 250 lines (limit: 200). Only part of it was loaded: 50 of 250 lines were cut off, starting at line 201 ("- [Memory 201](mem_201.md) — hook line number 201")` + warnTail,
			200, 201, 50},
		{"size only, quote cut at a word", strings.Join(sizeOnly, "\n"),
			`> WARNING: MEMORY.md is 29.3KB (limit: 24.4KB) — index entries are too long. Only part of it was loaded: 2 of 10 lines were cut off, starting at line 9 ("- [E9](e9.md) — lorem lorem lorem lorem lorem lorem lorem lorem lorem lorem…")` + warnTail,
			8, 9, 2},
		{"both, line cut is enough", both,
			`> WARNING: MEMORY.md is 300 lines and 29.3KB. Only part of it was loaded: 100 of 300 lines were cut off, starting at line 201 ("` + strings.Repeat("b", 79) + `…")` + warnTail,
			200, 201, 0},
		{"both, then cut at a newline", strings.Join(twoCuts, "\n"),
			`> WARNING: MEMORY.md is 250 lines and 36.9KB. Only part of it was loaded: 85 of 250 lines were cut off, starting at line 166 ("- [T166](t166.md) —…")` + warnTail,
			165, 166, 85},
		{"cut inside line 1", strings.Repeat("a", 30000) + "\n- [B](b.md) — b",
			`> WARNING: MEMORY.md is 29.3KB (limit: 24.4KB) — index entries are too long. Only part of it was loaded: everything after the first 25000 characters of line 1 was cut off` + warnTail,
			1, 1, 1},
		{"first cut line empty: no quote", blankCut,
			`> WARNING: MEMORY.md is 250 lines (limit: 200). Only part of it was loaded: 50 of 250 lines were cut off, starting at line 201` + warnTail,
			200, 201, 49},
		{"leading blank lines and CRLF: file lines shift", "\r\n\n" + memLines(250, "\r\n"),
			`> WARNING: MEMORY.md is 250 lines (limit: 200). Only part of it was loaded: 50 of 250 lines were cut off, starting at line 201 ("- [Memory 201](mem_201.md) — hook line number 201")` + warnTail,
			200, 203, 50},
		{"both, cut inside line 1", strings.Repeat("a", 30000) + strings.Repeat("\nx", 250),
			`> WARNING: MEMORY.md is 251 lines and 29.8KB. Only part of it was loaded: everything after the first 25000 characters of line 1 was cut off` + warnTail,
			1, 1, 0},
		{"line break exactly at 25000 is a line cut", strings.Repeat("a", 25000) + "\nmore",
			`> WARNING: MEMORY.md is 24.4KB (limit: 24.4KB) — index entries are too long. Only part of it was loaded: 1 of 2 lines were cut off, starting at line 2 ("more")` + warnTail,
			1, 2, 0},
		{"quote of exactly 80 characters is whole", memLines(200, "\n") + strings.Repeat("q", 80),
			`> WARNING: MEMORY.md is 201 lines (limit: 200). Only part of it was loaded: 1 of 201 lines were cut off, starting at line 201 ("` + strings.Repeat("q", 80) + `")` + warnTail,
			200, 201, 0},
		{"quote of 81 characters is cut at the word", memLines(200, "\n") + strings.Repeat("w", 40) + " " + strings.Repeat("z", 40),
			`> WARNING: MEMORY.md is 201 lines (limit: 200). Only part of it was loaded: 1 of 201 lines were cut off, starting at line 201 ("` + strings.Repeat("w", 40) + `…")` + warnTail,
			200, 201, 0},
		{"blank lines after line 200 are trimmed, not counted", memLines(200, "\n") + "\n \n\t\n\u00a0\n", "", 200, 0, 0},
		{"exactly at both caps loads whole", strings.Repeat("c", 25000-200) + strings.Repeat("\n", 199) + "c", "", 200, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := CapIndex([]byte(tt.in))
			if c.Warning != tt.want {
				t.Errorf("warning\n got %s\nwant %s", c.Warning, tt.want)
			}
			if c.LoadedLines != tt.loadedLines || c.CutFileLine != tt.cutFileLine || len(c.DroppedEntries) != tt.dropped {
				t.Errorf("loaded %d cutFileLine %d dropped %d; want %d %d %d", c.LoadedLines, c.CutFileLine, len(c.DroppedEntries), tt.loadedLines, tt.cutFileLine, tt.dropped)
			}
			if c.Truncated != (tt.want != "") {
				t.Errorf("truncated = %v", c.Truncated)
			}
			if tt.want != "" && !strings.HasSuffix(c.Content, "\n\n"+tt.want) {
				t.Errorf("content does not end with the warning")
			}
			if c.LoadedChars > MaxChars || c.LoadedLines > MaxLines {
				t.Errorf("loaded over the caps: %d lines %d chars", c.LoadedLines, c.LoadedChars)
			}
		})
	}
}

func TestCapIndexDroppedEntries(t *testing.T) {
	c := CapIndex([]byte("\n" + memLines(202, "\n")))
	want := []DroppedEntry{{Line: 202, Title: "Memory 201", Target: "mem_201.md"}, {Line: 203, Title: "Memory 202", Target: "mem_202.md"}}
	if !reflect.DeepEqual(c.DroppedEntries, want) {
		t.Errorf("dropped = %+v", c.DroppedEntries)
	}
	c = CapIndex([]byte("- [Long](l.md) — " + strings.Repeat("z", 26000) + "\n- [Next](n.md)\n"))
	want = []DroppedEntry{{Line: 1, Title: "Long", Target: "l.md", Partial: true}, {Line: 2, Title: "Next", Target: "n.md"}}
	if !reflect.DeepEqual(c.DroppedEntries, want) {
		t.Errorf("dropped after hard cut = %+v", c.DroppedEntries)
	}
}

func TestCapIndexCountsUTF16(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		truncated  bool
		chars      int
		wantPrefix string
	}{
		// 25000 CJK characters are 75000 bytes but 25000 UTF-16 units: at the cap, not over.
		{"CJK at the cap", strings.Repeat("项", 25000), false, 25000, ""},
		{"CJK one over", strings.Repeat("项", 25001), true, 25001, strings.Repeat("项", 25000)},
		// An emoji is two units: 12500 of them fill the cap exactly.
		{"emoji at the cap", strings.Repeat("😀", 12500), false, 25000, ""},
		{"emoji plus one", strings.Repeat("😀", 12500) + "a", true, 25001, strings.Repeat("😀", 12500) + "\n\n"},
		// A hard cut between the halves of a pair leaves a lone surrogate,
		// which Node writes as U+FFFD.
		{"cut splits a pair", "a" + strings.Repeat("😀", 12500), true, 25001, "a" + strings.Repeat("😀", 12499) + "\uFFFD\n\n"},
		{"trim uses JS white space (BOM, NBSP)", "\uFEFF\u00A0 x \u3000", false, 1, ""},
		{"U+0085 is not JS white space", "\u0085x", false, 2, ""},
		{"invalid UTF-8 counts as U+FFFD", "\xe2\x82x\xff", false, 3, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := CapIndex([]byte(tt.in))
			if c.Truncated != tt.truncated || c.Chars != tt.chars {
				t.Errorf("truncated %v chars %d; want %v %d", c.Truncated, c.Chars, tt.truncated, tt.chars)
			}
			if !strings.HasPrefix(c.Content, tt.wantPrefix) {
				t.Errorf("content does not start as expected")
			}
		})
	}
}

func TestCapIndexRoom(t *testing.T) {
	c := CapIndex([]byte("  \n- [A](a.md) — x\n\n"))
	if c.Lines != 1 || c.Chars != 15 || c.RoomLines != 199 || c.RoomChars != 24985 || c.Content != "- [A](a.md) — x" {
		t.Errorf("%+v", c)
	}
	if e := CapIndex(nil); e.Lines != 0 || e.RoomLines != 200 || e.RoomChars != 25000 || e.Truncated {
		t.Errorf("empty: %+v", e)
	}
}
