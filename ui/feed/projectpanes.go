package feed

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	engineloads "github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/health"
	"github.com/memscope/memscope/views/index"
	"github.com/memscope/memscope/views/memories"
	"github.com/memscope/memscope/views/prompt"
)

// ProjectPanes is what a project load means to the open project's
// panes: each pane's typed messages, in the order the pane takes them.
// The Memories and Index panes get raw text until the rendered text
// arrives (IndexData with the rendering).
type ProjectPanes struct {
	Memories []tea.Msg
	Health   []tea.Msg
	Prompt   prompt.LoadsMsg
	Index    index.DataMsg
}

// Panes are the panes' messages for the load p.
func (p *ProjectLoaded) Panes() ProjectPanes {
	label := StoreLabel(p)
	return ProjectPanes{
		Memories: []tea.Msg{memories.RowsMsg{Rows: p.Rows}, memories.StoreMsg{Label: label}},
		Health:   []tea.Msg{health.StoreMsg{Label: label}, p.HealthData()},
		Prompt:   prompt.LoadsMsg{Loads: p.Loads},
		Index:    index.DataMsg{Data: p.IndexData(nil)},
	}
}

// HealthData is the Health pane's lint report and prune plan (nil until
// the pane was first shown).
func (p *ProjectLoaded) HealthData() health.DataMsg {
	return health.DataMsg{Lint: &p.Lint, Plan: p.Plan}
}

// StoreLabel names the store p shows when the project has more than one,
// for the Memories and Index panes: "" when there is only auto memory.
func StoreLabel(p *ProjectLoaded) string {
	if len(p.Stores) < 2 || p.StoreIdx >= len(p.Stores) {
		return ""
	}
	s := p.Stores[p.StoreIdx]
	label := "project memory"
	switch {
	case p.StoreIdx > 0 && s.Kind != model.StoreAgent:
		// The auto memory folder moved out of the home, team memory.
		label = s.Label
	case s.Kind == model.StoreAgent:
		label = "agent " + s.Agent + " (" + model.AgentScopeLabel(s.Scope) + ")"
		if !s.Exists {
			label += ", no memory yet"
		}
	}
	return fmt.Sprintf("%s · store %d/%d · m: next", label, p.StoreIdx+1, len(p.Stores))
}

// RenderedIndex is the loaded part of MEMORY.md rendered for the Index
// pane, at Width.
type RenderedIndex struct {
	Loaded string
	Width  int
}

// IndexData builds the Index pane's data; r is the rendered text, nil
// before rendering.
func (p *ProjectLoaded) IndexData(r *RenderedIndex) index.Data {
	d := index.Data{Cap: p.Cap, Exists: p.Dir != nil && p.Dir.Index != nil}
	if p.Dir != nil {
		d.Unread = p.Dir.IndexUnread
	}
	if p.Dir != nil && p.Dir.Exists {
		d.Path = p.AbsDir + "/" + model.MemoryIndexName
	}
	d.Store = StoreLabel(p)
	if r != nil {
		d.Loaded, d.Width = r.Loaded, r.Width
	} else {
		d.Loaded = LoadedIndexText(p.Cap)
	}
	if p.Cap.Truncated && p.Cap.CutFileLine > 0 {
		lines := strings.Split(strings.ReplaceAll(string(p.IndexRaw), "\r\n", "\n"), "\n")
		if p.Cap.CutFileLine-1 < len(lines) {
			d.Dropped = lines[p.Cap.CutFileLine-1:]
		}
		d.Unseen = unseenNotes(p, d.Dropped)
	}
	return d
}

// LoadedIndexText is the part of MEMORY.md the client loads, without the
// warning it appends.
func LoadedIndexText(c memindex.IndexCap) string {
	s := c.Content
	if c.Warning != "" {
		if i := strings.LastIndex(s, c.Warning); i >= 0 {
			s = s[:i]
		}
	}
	return model.SanitizeForTerminal(strings.TrimRight(s, "\n"))
}

// unseenNotes says, for each dropped index line that links a memory,
// since when the model has not seen it (by index into dropped).
func unseenNotes(p *ProjectLoaded, dropped []string) map[int]string {
	if p.Loads == nil || p.Loads.Sessions == 0 || p.Dir == nil {
		return nil
	}
	byFile := map[string]engineloads.Memory{}
	for _, mem := range p.Loads.Memories {
		byFile[mem.File] = mem
	}
	res := memindex.NewResolver(p.Dir)
	out := map[int]string{}
	for i, l := range dropped {
		if rel, ok := res.File(model.ParseIndexEntry(l)); ok {
			if u := byFile[rel].Unseen(); u != "" {
				out[i] = u
			}
		}
	}
	return out
}
