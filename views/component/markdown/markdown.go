// Package markdown renders Markdown for the panes with glamour. Building a
// glamour renderer is costly, so one is kept per (width, style) and reused;
// rendering runs in the root's commands, never in View.
package markdown

import (
	"strings"
	"sync"

	"charm.land/glamour/v2"
)

// Style names a glamour style.
type Style string

// The styles memscope uses.
const (
	Dark   Style = "dark"
	Light  Style = "light"
	NoTTY  Style = "notty" // NO_COLOR: structure without colour
	margin       = 2       // glamour's document margin, subtracted from the wrap width
)

// StyleFor picks the style for a background and NO_COLOR.
func StyleFor(isDark, noColor bool) Style {
	switch {
	case noColor:
		return NoTTY
	case isDark:
		return Dark
	}
	return Light
}

// maxRenderers bounds the glamour renderers kept (one per width and
// style): a terminal dragged wider one column at a time would otherwise
// keep one for every width it passed.
const maxRenderers = 8

type cacheKey struct {
	width int
	style Style
}

// Renderer caches glamour renderers. Its methods are safe to call from
// several commands at once.
type Renderer struct {
	mu    sync.Mutex
	cache map[cacheKey]*glamour.TermRenderer
}

// NewRenderer returns an empty cache.
func NewRenderer() *Renderer {
	return &Renderer{cache: map[cacheKey]*glamour.TermRenderer{}}
}

// Render renders md to fit width cells. On a glamour error it returns the
// text as it is, so content is never lost to a rendering problem.
func (r *Renderer) Render(md string, width int, st Style) string {
	if width < 10 {
		width = 10
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	k := cacheKey{width, st}
	tr, ok := r.cache[k]
	if !ok {
		var err error
		tr, err = glamour.NewTermRenderer(glamour.WithStandardStyle(string(st)), glamour.WithWordWrap(width-margin), glamour.WithBaseURL(linkBase))
		if err != nil {
			return md
		}
		if len(r.cache) >= maxRenderers {
			// A resize a column at a time makes a renderer per width:
			// keep the ones of the last few sizes only.
			clear(r.cache)
		}
		r.cache[k] = tr
	}
	out, err := tr.Render(md)
	if err != nil {
		return md
	}
	return strings.Trim(strings.ReplaceAll(out, linkBase, ""), "\n")
}

// linkBase is the base URL relative links are resolved against, removed
// from the output after. Without a base, glamour resolves "user_role.md"
// against an empty URL and prints "/user_role.md", a path that does not
// exist; MEMORY.md's links are relative to the memory folder.
const linkBase = "x://memscope/"
