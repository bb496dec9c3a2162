package feed

import (
	"github.com/memscope/memscope/engine/memrows"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/memories"
	"strings"
	"testing"
)

// The rendered-Markdown cache kept between renderings stays within its
// byte bound: texts past it are not kept (they render again next time),
// and what is kept is found again.
func TestRenderCacheIsBoundedByBytes(t *testing.T) {
	var c renderCache
	const limit = 1000
	for i := range 50 {
		k := renderKey{text: strings.Repeat("x", 40) + string(rune('a'+i)), width: 80}
		c.put(k, strings.Repeat("y", 60), limit)
	}
	if c.bytes > limit {
		t.Errorf("the cache holds %d bytes, over its bound %d", c.bytes, limit)
	}
	if got := len(c.m); got != limit/101 {
		t.Errorf("the cache keeps %d renderings of 101 bytes under %d bytes, want %d", got, limit, limit/101)
	}
	if _, ok := c.get(renderKey{text: strings.Repeat("x", 40) + "a", width: 80}); !ok {
		t.Error("the first rendering, within the bound, is not kept")
	}
	if _, ok := c.get(renderKey{text: strings.Repeat("x", 40) + "z", width: 80}); ok {
		t.Error("a rendering past the bound is kept")
	}
	if maxRenderCache != 8<<20 {
		t.Errorf("maxRenderCache is %d; its comment states 8 MiB", maxRenderCache)
	}
}

// The Markdown feed on its own: a rendering of the open project gives
// the Memories pane its bodies rendered (control sequences stripped) and
// keeps its cache for the next one, which renders the same texts from
// it; a rendering that arrives after the project changed is dropped.
func TestMarkdownFeedRendersTheOpenProject(t *testing.T) {
	md := NewMarkdown()
	p := &ProjectLoaded{Slug: "p", Rows: []memories.Row{
		{Row: memrows.Row{File: &model.MemoryFile{Path: "a.md", Body: "# Title\n\nsome **bold** text\x1b[31m red\n"}}},
		{Row: memrows.Row{File: &model.MemoryFile{Path: "b.md", Body: "- item\n"}}},
	}}
	// Nothing is rendered before its pane is first shown: the index
	// alone once Index was, the bodies once Memories was.
	p.Cap.Content, p.Cap.LoadedChars = "# Index\n", 8
	if md.Render(p, 40, 40, true, true) != nil {
		t.Error("a rendering before the Index or Memories pane was on screen")
	}
	if !md.ShowIndex() || md.ShowIndex() {
		t.Error("ShowIndex does not say the first showing, and only it")
	}
	if r := md.Render(p, 40, 40, true, true)().(Rendered); len(r.bodies) != 0 || !r.index || r.indexLoaded == "" {
		t.Errorf("with Index shown: %d bodies rendered, the index %q", len(r.bodies), r.indexLoaded)
	}
	if !md.ShowBodies() || md.ShowBodies() {
		t.Error("ShowBodies does not say the first showing, and only it")
	}
	if md.Render(&ProjectLoaded{}, 40, 40, true, true) != nil {
		t.Error("rendering with no project open")
	}
	r, ok := md.Render(p, 40, 40, true, true)().(Rendered)
	if !ok {
		t.Fatal("the rendering is not a Rendered")
	}
	rows, idx, ok := md.Loaded(r, p)
	if !ok || len(rows.Rows) != 2 || idx.Data.Width != 40 {
		t.Fatalf("loaded %v: %d rows", ok, len(rows.Rows))
	}
	if b := rows.Rows[0].Body; !strings.Contains(b, "Title") || !strings.Contains(b, "bold") || strings.Contains(b, "\x1b[31m") {
		t.Errorf("rendered body %q", b)
	}
	if p.Rows[0].Body != "" {
		t.Error("Loaded wrote the project's own rows")
	}
	if len(md.last.m) != 3 {
		t.Errorf("the feed keeps %d renderings, want the index and the 2 bodies", len(md.last.m))
	}
	// The next rendering takes the same texts from the cache: with the
	// renderer gone it still renders them.
	md.r = nil
	r2 := md.Render(p, 40, 40, true, true)().(Rendered)
	if r2.bodies["a.md"] != r.bodies["a.md"] {
		t.Error("the second rendering differs from the first")
	}
	if _, _, ok := md.Loaded(r2, &ProjectLoaded{Slug: "other"}); ok {
		t.Error("a rendering of another project was applied")
	}
}

// A rendering keeps, after what it used, what the rendering before kept:
// after a resize the memory bodies rendered at the old width are still
// there, so going back to it renders nothing again.
func TestRenderCacheKeepsTheWidthBefore(t *testing.T) {
	md := NewMarkdown()
	md.ShowIndex()
	md.ShowBodies()
	p := &ProjectLoaded{Slug: "p", Rows: []memories.Row{
		{Row: memrows.Row{File: &model.MemoryFile{Path: "a.md", Body: "# A\n\nfirst body\n"}}},
		{Row: memrows.Row{File: &model.MemoryFile{Path: "b.md", Body: "- second body\n"}}},
	}}
	render := func(width int) {
		t.Helper()
		if _, _, ok := md.Loaded(md.Render(p, width, width, true, true)().(Rendered), p); !ok {
			t.Fatal("the rendering was not applied")
		}
	}
	render(100)
	wide := map[renderKey]bool{}
	for k := range md.last.m {
		if k.width == 100 {
			wide[k] = true
		}
	}
	if len(wide) != 2 {
		t.Fatalf("%d bodies rendered at width 100, want 2", len(wide))
	}
	render(60)
	for k := range wide {
		if _, ok := md.last.get(k); !ok {
			t.Fatalf("after the resize the rendering at width 100 of %.40q is gone: going back renders it again", k.text)
		}
	}
}
