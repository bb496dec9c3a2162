package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
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

// A rendering keeps, after what it used, what the rendering before kept:
// after a resize the memory bodies rendered at the old width are still
// there, so going back to it renders nothing again.
func TestRenderCacheKeepsTheWidthBefore(t *testing.T) {
	m := newTestModel(t, 120, 40)
	m = drain(t, m, m.renderCmd())
	bw := m.p.memories.BodyWidth()
	wide := map[renderKey]bool{}
	for k := range m.rendered.m {
		if k.width == bw {
			wide[k] = true
		}
	}
	if len(wide) == 0 {
		t.Fatalf("no memory body rendered at width %d", bw)
	}
	next, cmd := m.Update(tea.WindowSizeMsg{Width: 80, Height: 40})
	m = drain(t, next.(Model), cmd)
	if m.p.memories.BodyWidth() == bw {
		t.Fatalf("the body width is %d at 80 columns as at 120", bw)
	}
	for k := range wide {
		if _, ok := m.rendered.get(k); !ok {
			t.Fatalf("after the resize the rendering at width %d of %.40q is gone: going back renders it again", bw, k.text)
		}
	}
}
