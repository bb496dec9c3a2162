package hit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/views/component/style"
)

func plain(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ansi.Strip(l)
	}
	return out
}

func spotFor(content, match string, nth int) Spot {
	off := -1
	for range nth + 1 {
		off += 1 + strings.Index(content[off+1:], match)
	}
	line := strings.Count(content[:off], "\n") + 1
	return Spot{Line: line, Offset: off, Where: "project", Snippet: "… " + match + " …", Match: [2]int{len("… "), len("… ") + len(match)}}
}

// The match is placed by its byte offset: the second "go" of the file is
// marked, not the first on another line, and only the hit's line has ▶.
func TestDocPlacesTheMatchByOffset(t *testing.T) {
	content := "# Title\nlet's go\nwe go and go\n"
	d := NewDoc(content, spotFor(content, "go", 2))
	lines, at := d.Lines(style.New(true, true), 60)
	got := plain(lines)
	if at != 2 || !d.Found() || d.Line() != 3 || len(got) != 3 {
		t.Fatalf("at %d found %v line %d: %q", at, d.Found(), d.Line(), got)
	}
	if got[2] != "▶ 3 │ we go and «go»" || got[1] != "  2 │ let's go" {
		t.Errorf("lines: %q", got)
	}
}

// Without a usable offset the hit's line is searched for the match,
// ignoring case as the search does; a line that no longer holds it (the
// file changed) is marked whole and Found says so.
func TestDocFallsBackToTheLine(t *testing.T) {
	content := "one\nTwo Words here\nthree\n"
	s := Spot{Line: 2, Offset: 999, Snippet: "two words", Match: [2]int{0, 9}}
	d := NewDoc(content, s)
	got := plain(func() []string { l, _ := d.Lines(style.New(true, true), 60); return l }())
	if !d.Found() || got[1] != "▶ 2 │ «Two Words» here" {
		t.Errorf("by line: found %v %q", d.Found(), got)
	}
	d = NewDoc("one\nchanged\n", s)
	got = plain(func() []string { l, _ := d.Lines(style.New(true, true), 60); return l }())
	if d.Found() || got[1] != "▶ 2 │ changed" {
		t.Errorf("changed file: found %v %q", d.Found(), got)
	}
	// A line past the end marks the last line.
	if d := NewDoc("a\nb\n", Spot{Line: 9, Offset: -1, Snippet: "zz", Match: [2]int{0, 2}}); d.Line() != 2 {
		t.Errorf("a line past the end should mark the last, got %d", d.Line())
	}
}

// A file's text is untrusted: escape sequences are removed, tabs
// expanded (after the match too, at their stops), and on a long line the
// match stays in view.
func TestDocLinesAreSafeAndKeepTheMatchInView(t *testing.T) {
	long := strings.Repeat("x", 200) + "NEEDLE" + strings.Repeat("y", 200)
	content := "\x1b]0;title\x07evil\x1b[31m red\n\tif NEEDLE\tz\n" + long + "\n"
	d := NewDoc(content, spotFor(content, "NEEDLE", 0))
	lines, _ := d.Lines(style.New(true, true), 40)
	for _, l := range lines {
		if strings.Contains(l, "\x1b]") || strings.Contains(l, "\x07") || strings.Contains(l, "\t") {
			t.Errorf("unsafe line %q", l)
		}
	}
	got := plain(lines)
	if got[1] != "▶ 2 │     if «NEEDLE»   z" {
		t.Errorf("tabs: %q", got[1])
	}
	d = NewDoc(content, spotFor(content, "NEEDLE", 1))
	lines, _ = d.Lines(style.New(true, true), 40)
	got = plain(lines)
	if !strings.Contains(got[2], "«NEEDLE»") || ansi.StringWidth(got[2]) > 40 {
		t.Errorf("long line: %q (%d cells)", got[2], ansi.StringWidth(got[2]))
	}
	for _, l := range got {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("line wider than 40: %q", l)
		}
	}
}

// A Spot with no line and no offset marks nothing; an empty file says
// so.
func TestDocWithoutHit(t *testing.T) {
	lines, at := NewDoc("a\nb\n", Spot{Offset: -1}).Lines(style.New(true, true), 40)
	if at != -1 || strings.Contains(strings.Join(plain(lines), "\n"), "▶") {
		t.Errorf("no hit: at %d %q", at, plain(lines))
	}
	lines, at = NewDoc("", Spot{Line: 1}).Lines(style.New(true, true), 40)
	if at != -1 || plain(lines)[0] != "(empty file)" {
		t.Errorf("empty: at %d %q", at, plain(lines))
	}
}

// Lines are drawn once per width and style: the second call returns the
// same slice, a new width draws again.
func TestDocLinesAreCached(t *testing.T) {
	st := style.New(true, true)
	d := NewDoc("a\nb\n", Spot{Line: 1, Offset: -1, Snippet: "a", Match: [2]int{0, 1}})
	a, _ := d.Lines(st, 40)
	b, _ := d.Lines(st, 40)
	c, _ := d.Lines(st, 30)
	if &a[0] != &b[0] || &a[0] == &c[0] {
		t.Error("the lines should be drawn once per width")
	}
}

// The header says where the hit is and marks the snippet's match.
func TestHeader(t *testing.T) {
	got := plain(Header(Spot{Line: 7, Where: "backup v1 of /a/b.go", Seeing: "seen", Snippet: "call f(x) now", Match: [2]int{5, 9}}, style.New(true, true), 80))
	if got[0] != "⌕ search hit: line 7 · backup v1 of /a/b.go · seen" || got[1] != "  call «f(x)» now" {
		t.Errorf("header: %q", got)
	}
}
