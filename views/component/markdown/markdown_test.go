package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestRenderWrapsAndReusesRenderers(t *testing.T) {
	r := NewRenderer()
	md := "# Title\n\n" + strings.Repeat("word ", 40) + "\n\n- [Link](file.md) — hook\n"
	out := r.Render(md, 40, NoTTY)
	for _, l := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(l); w > 40 {
			t.Fatalf("line wider than 40 (%d): %q", w, l)
		}
	}
	if !strings.Contains(ansi.Strip(out), "Title") || !strings.Contains(ansi.Strip(out), "hook") {
		t.Fatalf("content lost:\n%s", out)
	}
	r.Render(md, 40, NoTTY)
	r.Render(md, 60, NoTTY)
	if len(r.cache) != 2 {
		t.Fatalf("want one renderer per width, have %d", len(r.cache))
	}
}

func TestStyleFor(t *testing.T) {
	if StyleFor(true, true) != NoTTY || StyleFor(true, false) != Dark || StyleFor(false, false) != Light {
		t.Fatal("style choice wrong")
	}
}

// TestRelativeLinksKeepTheirPath: MEMORY.md's links name files in the
// memory folder; they render as written, without a leading slash.
func TestRelativeLinksKeepTheirPath(t *testing.T) {
	out := NewRenderer().Render("- [Who I am](user_writer.md) — the hook\n", 80, NoTTY)
	if !strings.Contains(out, "user_writer.md") || strings.Contains(out, "/user_writer.md") || strings.Contains(out, "x://") {
		t.Fatalf("relative link rendered as %q", out)
	}
	if out := NewRenderer().Render("[site](https://example.com/a)\n", 80, NoTTY); !strings.Contains(out, "https://example.com/a") {
		t.Fatalf("absolute link rendered as %q", out)
	}
}

// The renderers kept are bounded: rendering at many widths (a terminal
// resized a column at a time) keeps at most maxRenderers, and renders as
// before.
func TestRendererCacheIsBounded(t *testing.T) {
	r := NewRenderer()
	for w := 20; w < 60; w++ {
		if out := r.Render("# Title\n\nbody", w, Dark); !strings.Contains(out, "Title") {
			t.Fatalf("width %d rendered %q", w, out)
		}
		if n := len(r.cache); n > maxRenderers {
			t.Fatalf("after width %d the renderer keeps %d glamour renderers, over %d", w, n, maxRenderers)
		}
	}
}
