package ui

import (
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/index"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/markdown"
	"github.com/memscope/memscope/views/memories"
)

// renderedMsg carries Markdown rendered for the current widths.
type renderedMsg struct {
	slug        string
	indexWidth  int
	bodyWidth   int
	indexLoaded string
	bodies      map[string]string // by memory file path
	// cache is every text rendered for this message, for the next
	// renderCmd (see renderKey).
	cache renderCache
}

// maxRenderCache bounds the rendered Markdown kept from one rendering to
// the next, in bytes of source and rendered text: 8 MiB, a few hundred
// memory folders' worth (a typical one is a few KiB to a few hundred).
// What a rendering uses is kept first, then what the one before kept, as
// long as it fits; past the bound, the rest is rendered again when
// shown.
const maxRenderCache = 8 << 20

// renderCache is the Markdown rendered for one renderedMsg, by text,
// width and style, with its size in bytes.
type renderCache struct {
	m     map[renderKey]string
	bytes int
}

func (c renderCache) get(k renderKey) (string, bool) {
	s, ok := c.m[k]
	return s, ok
}

// put keeps s for k unless that takes the cache over limit bytes.
func (c *renderCache) put(k renderKey, s string, limit int) {
	n := len(k.text) + len(s)
	if c.bytes+n > limit {
		return
	}
	if c.m == nil {
		c.m = map[renderKey]string{}
	}
	c.m[k] = s
	c.bytes += n
}

// renderKey identifies one Markdown rendering: the same text at the same
// width and style renders the same, so a memory folder where one file
// changed renders only that file again.
type renderKey struct {
	text          string
	width         int
	dark, noColor bool
}

// renderCmd renders the index and the memory bodies for the current pane
// widths, in the background.
func (m Model) renderCmd() tea.Cmd {
	p := m.feeds.project.Cur()
	if p.Slug == "" || m.width == 0 {
		return nil
	}
	r, st := m.md, markdown.StyleFor(m.styles.IsDark, m.styles.NoColor)
	dark, noColor := m.styles.IsDark, m.styles.NoColor
	iw, bw := m.p.index.RenderWidth(), m.p.memories.BodyWidth()
	loaded := feed.LoadedIndexText(p.Cap)
	bodies := map[string]string{}
	for _, row := range p.Rows {
		bodies[row.File.Path] = row.File.Body
	}
	// The last rendering's cache is only read here: each renderedMsg
	// brings a new one.
	prev := m.rendered
	return func() tea.Msg {
		out := renderedMsg{slug: p.Slug, indexWidth: iw, bodyWidth: bw, bodies: map[string]string{}, cache: renderCache{}}
		render := func(text string, width int) string {
			k := renderKey{text: text, width: width, dark: dark, noColor: noColor}
			s, ok := out.cache.get(k)
			if !ok {
				if s, ok = prev.get(k); !ok {
					s = r.Render(text, width, st)
				}
				out.cache.put(k, s, maxRenderCache)
			}
			return s
		}
		if loaded != "" {
			out.indexLoaded = render(loaded, iw)
		}
		for k, body := range bodies {
			out.bodies[k] = render(model.SanitizeForTerminal(body), bw)
		}
		// Then what the last rendering kept and this one did not use, in
		// the room left: a store without memory, a zoom (another width)
		// or a theme shown for a moment does not make the next rendering
		// of the store or width before start over.
		for k, s := range prev.m {
			if _, ok := out.cache.get(k); !ok {
				out.cache.put(k, s, maxRenderCache)
			}
		}
		return out
	}
}

// applyRendered swaps rendered text in, when it is for the open project.
func (m *Model) applyRendered(r renderedMsg) {
	p := m.feeds.project.Cur()
	if r.slug != p.Slug {
		return
	}
	m.rendered = r.cache
	rows := make([]memories.Row, len(p.Rows))
	copy(rows, p.Rows)
	for i := range rows {
		if b, ok := r.bodies[rows[i].File.Path]; ok {
			rows[i].Body = b
		}
	}
	m.p.memories, _ = m.p.memories.Update(memories.RowsMsg{Rows: rows})
	paneTable[paneIndex].update(m.p, index.DataMsg{Data: p.IndexData(&feed.RenderedIndex{Loaded: r.indexLoaded, Width: r.indexWidth})})
}
