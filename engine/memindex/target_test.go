package memindex

import (
	"testing"

	"github.com/memscope/memscope/model"
)

// TestTargetPath pins the one normalizer of index link targets: a
// Markdown link destination read as a URL relative to the memory folder.
func TestTargetPath(t *testing.T) {
	for _, c := range []struct {
		target, want string
		ok           bool
	}{
		{"a.md", "a.md", true},
		{"  a.md  ", "a.md", true},
		{"./a.md", "a.md", true},
		{"sub/../a.md", "a.md", true},
		{"sub//a.md", "sub/a.md", true},
		{"a.md#top", "a.md", true},
		{"a.md?x=1", "a.md", true},
		{"a.md?x=1#top", "a.md", true},
		{"<a b.md>", "a b.md", true},
		{"<a b.md#top>", "a b.md", true},
		{"<a b.md> \"Title\"", "a b.md", true},
		{"<a.md", "a.md", true}, // unterminated bracket: the rest
		{"a b.md", "a b.md", true},
		{"a.md \"Title\"", "a.md", true},
		{"a.md 'Title'", "a.md", true},
		{"a.md (Title)", "a.md", true},
		{"a%20b.md", "a b.md", true},
		{"a%23b.md", "a#b.md", true}, // an escaped "#" is part of the name
		{"a%5Cb.md", "a\\b.md", true},
		{"100%.md", "100%.md", true}, // not an escape: as written
		{"sub\\a.md", "sub/a.md", true},
		{".\\sub\\a.md", "sub/a.md", true},
		{"sub%2Fa.md", "sub/a.md", true},
		{"./a:b.md", "a:b.md", true},
		{"", "", false},
		{"#top", "", false},
		{"?x=1", "", false},
		{".", "", false},
		{"./", "", false},
		{"../a.md", "", false},
		{"sub/../../a.md", "", false},
		{"..\\a.md", "", false},
		{"/etc/passwd", "", false},
		{"\\a.md", "", false},
		{"%2Fetc%2Fpasswd", "", false},
		{"C:\\notes\\a.md", "", false},
		{"c:/a.md", "", false},
		{"https://example.com/a.md", "", false},
		{"mailto:me@example.com", "", false},
		{"file:a.md", "", false},
		{"a:b.md", "", false},
	} {
		got, ok := TargetPath(c.target)
		if got != c.want || ok != c.ok {
			t.Errorf("TargetPath(%q) = %q, %v; want %q, %v", c.target, got, ok, c.want, c.ok)
		}
	}
}

// TestResolver: a link entry names its target; a name entry names
// name.md, else the memory with that frontmatter name.
func TestResolver(t *testing.T) {
	md := &model.MemoryDir{Files: []*model.MemoryFile{
		{Path: "a.md", Name: "alpha"},
		{Path: "feedback_beta.md", Name: "beta"},
		{Path: "gamma.md", Name: "other"},
	}, Other: []string{"notes.txt"}}
	r := NewResolver(md)
	for _, c := range []struct {
		line, want string
		ok         bool
	}{
		{"- [A](./a.md#top) — hook", "a.md", true},
		{"- [N](notes.txt) — not a memory, but a file", "notes.txt", true},
		{"- [W](https://example.com) — a web page", "", false},
		{"- gamma -- by file name", "gamma.md", true},
		{"- beta -- by frontmatter name", "feedback_beta.md", true},
		{"- missing -- names a file that is not there", "missing.md", true},
		{"plain text", "", false},
	} {
		got, ok := r.File(model.ParseIndexEntry(c.line))
		if got != c.want || ok != c.ok {
			t.Errorf("File(%q) = %q, %v; want %q, %v", c.line, got, ok, c.want, c.ok)
		}
	}
	if !r.Exists("notes.txt") || !r.Exists(model.MemoryIndexName) || r.Exists("missing.md") {
		t.Error("Exists does not answer from the folder's files")
	}
}

// TestIndexCapLoads: a line loads when the index is within the caps or
// the line is before the cut; the line cut in part does not.
func TestIndexCapLoads(t *testing.T) {
	within := IndexCap{}
	cut := IndexCap{Truncated: true, CutFileLine: 3}
	for _, c := range []struct {
		c    IndexCap
		line int
		want bool
	}{
		{within, 1, true}, {within, 500, true},
		{cut, 2, true}, {cut, 3, false}, {cut, 4, false},
	} {
		if got := c.c.Loads(c.line); got != c.want {
			t.Errorf("%+v.Loads(%d) = %v, want %v", c.c, c.line, got, c.want)
		}
	}
}
