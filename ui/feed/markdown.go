package feed

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/markdown"
	"github.com/memscope/memscope/views/index"
	"github.com/memscope/memscope/views/memories"
)

// Markdown renders the open project's index and memory bodies for the
// Index and Memories panes, at their widths and in the terminal's style,
// in the background. It keeps what it rendered last (bounded by bytes,
// maxRenderCache), so a memory folder where one file changed renders
// only that file again. The index is rendered once the Index pane was
// first on screen, the memory bodies once the Memories pane was
// (ShowIndex, ShowBodies): most starts open neither, and until then the
// panes show the raw text.
type Markdown struct {
	r *markdown.Renderer
	// index and bodies say the Index pane, the Memories pane, has been
	// on screen.
	index, bodies bool
	// last is the last rendering's cache: only read by a Render's
	// command, replaced (never written) by Loaded.
	last renderCache
}

// NewMarkdown returns a feed that has rendered nothing.
func NewMarkdown() *Markdown { return &Markdown{r: markdown.NewRenderer()} }

// ShowIndex says the Index pane is on screen; first is true the first
// time, when the caller renders.
func (md *Markdown) ShowIndex() (first bool) {
	first, md.index = !md.index, true
	return first
}

// ShowBodies says the Memories pane is on screen; first is true the
// first time, when the caller renders.
func (md *Markdown) ShowBodies() (first bool) {
	first, md.bodies = !md.bodies, true
	return first
}

// Rendered carries Markdown rendered for the current widths.
type Rendered struct {
	slug       string
	indexWidth int
	// indexLoaded is the index rendered, when index says it was.
	index       bool
	indexLoaded string
	bodies      map[string]string // by memory file path
	// cache is every text rendered for this message, for the next
	// Render (see renderKey).
	cache renderCache
}

// Bodies is how many memory bodies r carries rendered; Index says it
// carries the index rendered.
func (r Rendered) Bodies() int { return len(r.bodies) }
func (r Rendered) Index() bool { return r.index }

// maxRenderCache bounds the rendered Markdown kept from one rendering to
// the next, in bytes of source and rendered text: 8 MiB, a few hundred
// memory folders' worth (a typical one is a few KiB to a few hundred).
// What a rendering uses is kept first, then what the one before kept, as
// long as it fits; past the bound, the rest is rendered again when
// shown.
const maxRenderCache = 8 << 20

// renderCache is the Markdown rendered for one Rendered, by text, width
// and style, with its size in bytes.
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
// width and style renders the same.
type renderKey struct {
	text          string
	width         int
	dark, noColor bool
}

// Render renders p's index (at indexWidth) and memory bodies (at
// bodyWidth) in the background, each once its pane was shown (nil when
// no project is loaded or neither was).
func (md *Markdown) Render(p *ProjectLoaded, indexWidth, bodyWidth int, dark, noColor bool) tea.Cmd {
	if p.Slug == "" || !md.index && !md.bodies {
		return nil
	}
	renderIndex := md.index
	r, st := md.r, markdown.StyleFor(dark, noColor)
	slug, loaded := p.Slug, LoadedIndexText(p.Cap)
	bodies := map[string]string{}
	for _, row := range p.Rows {
		if md.bodies {
			bodies[row.File.Path] = row.File.Body
		}
	}
	prev := md.last
	return func() tea.Msg {
		out := Rendered{slug: slug, indexWidth: indexWidth, index: renderIndex, bodies: map[string]string{}, cache: renderCache{}}
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
		if renderIndex && loaded != "" {
			out.indexLoaded = render(loaded, indexWidth)
		}
		for k, body := range bodies {
			out.bodies[k] = render(model.SanitizeForTerminal(body), bodyWidth)
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

// Loaded keeps r's renderings for the next Render and returns the panes'
// messages: p's rows with their bodies rendered and the Index pane's
// data. ok is false when r is of another project than p (the project
// changed while it rendered): nothing is kept.
func (md *Markdown) Loaded(r Rendered, p *ProjectLoaded) (rows memories.RowsMsg, idx index.DataMsg, ok bool) {
	if r.slug != p.Slug {
		return memories.RowsMsg{}, index.DataMsg{}, false
	}
	md.last = r.cache
	out := make([]memories.Row, len(p.Rows))
	copy(out, p.Rows)
	for i := range out {
		if b, ok := r.bodies[out[i].File.Path]; ok {
			out[i].Body = b
		}
	}
	var ri *RenderedIndex // the raw text until the index is rendered
	if r.index {
		ri = &RenderedIndex{Loaded: r.indexLoaded, Width: r.indexWidth}
	}
	return memories.RowsMsg{Rows: out}, index.DataMsg{Data: p.IndexData(ri)}, true
}
