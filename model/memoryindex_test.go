package model

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestMemoryIndexRoundTrip(t *testing.T) {
	for name, in := range map[string]string{
		"empty":             "",
		"one line no EOL":   "- [A](a.md) — hook",
		"LF":                "# Index\n- [A](a.md) — hook\n\n",
		"CRLF":              "- [A](a.md) — hook\r\n- [B](b.md)\r\n",
		"mixed and lone CR": "a\r\nb\nc\rd\r",
		"BOM":               "\uFEFF- [A](a.md)\n",
		"invalid UTF-8":     "- [\xff](x.md) — \xfe\n",
		"only newlines":     "\n\n\n",
		"10 MiB line":       strings.Repeat("x", 10<<20) + "\n- [A](a.md)",
	} {
		t.Run(name, func(t *testing.T) {
			ix := ParseMemoryIndex([]byte(in))
			if got := ix.Bytes(); !bytes.Equal(got, []byte(in)) {
				t.Errorf("round trip changed the bytes: %q", truncateForLog(string(got)))
			}
		})
	}
}

func truncateForLog(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

func TestMemoryIndexLines(t *testing.T) {
	ix := ParseMemoryIndex([]byte("\uFEFF# Memory\r\n- [A](a.md) — one\nlast"))
	if !ix.BOM || len(ix.Lines) != 3 {
		t.Fatalf("parsed %+v", ix)
	}
	want := []IndexLine{
		{Number: 1, Text: "# Memory", EOL: EndCRLF},
		{Number: 2, Text: "- [A](a.md) — one", EOL: EndLF, Entry: &IndexEntry{Form: EntryLink, Bullet: "-", Title: "A", Target: "a.md", Separator: " — ", Hook: "one"}},
		{Number: 3, Text: "last", EOL: EndNone},
	}
	if !reflect.DeepEqual(ix.Lines, want) {
		t.Errorf("lines = %+v\nwant %+v", ix.Lines, want)
	}
	if e := ix.Entries(); len(e) != 1 || e[0].Number != 2 {
		t.Errorf("entries = %+v", e)
	}
}

func TestParseIndexEntry(t *testing.T) {
	link := func(bullet, title, target, sep, hook string) *IndexEntry {
		return &IndexEntry{Form: EntryLink, Bullet: bullet, Title: title, Target: target, Separator: sep, Hook: hook}
	}
	tests := []struct {
		in   string
		want *IndexEntry
	}{
		{"- [Prefers terse](prefers-terse.md) — User wants short answers", link("-", "Prefers terse", "prefers-terse.md", " — ", "User wants short answers")},
		{"* [A](a.md) - hook", link("*", "A", "a.md", " - ", "hook")},
		{"+ [A](a.md) -- hook", link("+", "A", "a.md", " -- ", "hook")},
		{"- [A](a.md) – en dash", link("-", "A", "a.md", " – ", "en dash")},
		{"- [A](a.md): colon", link("-", "A", "a.md", ": ", "colon")},
		{"- [A](a.md)", link("-", "A", "a.md", "", "")},
		{"- [A](a.md)   ", link("-", "A", "a.md", "", "")},
		{"- [A](a.md) no separator", link("-", "A", "a.md", " ", "no separator")},
		{"- [A](a.md) —", link("-", "A", "a.md", " —", "")},
		{"- [A](a.md) -2 degrees", link("-", "A", "a.md", " ", "-2 degrees")},
		{"- [f(x)](f(x).md) — parens", link("-", "f(x)", "f(x).md", " — ", "parens")},
		{"- [[nested]](n.md) — x", link("-", "[nested]", "n.md", " — ", "x")},
		{"- [](e.md)", link("-", "", "e.md", "", "")},
		{"-\t[T](t.md)\t—\thook", link("-", "T", "t.md", "\t—\t", "hook")},
		{"- [A](sub/dir/a.md) — x", link("-", "A", "sub/dir/a.md", " — ", "x")},
		{"- feedback_no_mock -- Do not mock the database", &IndexEntry{Form: EntryName, Bullet: "-", Title: "feedback_no_mock", Separator: " -- ", Hook: "Do not mock the database"}},
		{"- user_role — data scientist", &IndexEntry{Form: EntryName, Bullet: "-", Title: "user_role", Separator: " — ", Hook: "data scientist"}},
		{"  - [A](a.md) — indented", &IndexEntry{Form: EntryLink, Indent: "  ", Bullet: "-", Title: "A", Target: "a.md", Separator: " — ", Hook: "indented"}},
		{"- note - plain bullet", nil},
		{"- just text", nil},
		{"# Heading", nil},
		{"", nil},
		{"-[A](a.md)", nil},
		{"- [A](a.md", nil},
		{"- [A] (a.md)", nil},
		{"- [A](a.md)x", nil},
		{"1. [A](a.md)", nil},
	}
	for _, tt := range tests {
		got := ParseIndexEntry(tt.in)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseIndexEntry(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}
