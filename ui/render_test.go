package ui

import (
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
