package ui

import (
	"fmt"
	"io/fs"
	"strings"

	tea "charm.land/bubbletea/v2"

	engineloads "github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/health"
	"github.com/memscope/memscope/views/index"
	"github.com/memscope/memscope/views/memories"
	"github.com/memscope/memscope/views/prompt"
)

// requestProject starts loading a project's memory folder (the Project
// feed), or queues it behind the running load (the newest request wins).
func (m *Model) requestProject(slug string) tea.Cmd {
	return m.projectCmd(m.feeds.project.Request(slug))
}

// projectCmd is the Project feed's next load, counted among the sources
// loading while one runs.
func (m *Model) projectCmd(cmd tea.Cmd) tea.Cmd {
	if m.feeds.project.Loading() {
		m.loading["project"] = true
	}
	return cmd
}

// projectPath is the real folder of the project with this slug, "" when
// the transcripts do not say.
func (m Model) projectPath(slug string) string { return m.feeds.home.Path(slug) }

// root is the tree project-side lookups walk: Options.Root with the home
// mounted at its folder (so a home given as its own fs.FS, like the
// demo's, is found where its path says).
func (m Model) root() fs.FS {
	return feed.Mount(m.opts.Root, m.opts.Home)
}

// storeLabel names the store p shows when the project has more than one,
// for the Memories and Index panes: "" when there is only auto memory.
func storeLabel(p *feed.ProjectLoaded) string {
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

// applyProject hands a loaded project to the Index and Memories panes,
// with raw text until the rendered text arrives.
func (m *Model) applyProject(p *feed.ProjectLoaded) {
	m.p.memories, _ = m.p.memories.Update(memories.RowsMsg{Rows: p.Rows})
	m.p.memories, _ = m.p.memories.Update(memories.StoreMsg{Label: storeLabel(p)})
	m.p.health, _ = m.p.health.Update(health.StoreMsg{Label: storeLabel(p)})
	m.p.prompt, _ = m.p.prompt.Update(prompt.LoadsMsg{Loads: p.Loads})
	m.p.health, _ = m.p.health.Update(health.DataMsg{Lint: &p.Lint, Plan: p.Plan})
	m.p.index, _ = m.p.index.Update(index.DataMsg{Data: m.indexData(p, nil)})
	m.applyWritable(writableMsg{project: true, err: p.Writable})
	m.announceLeftovers(p)
}

// indexData builds the Index pane's data; r is the rendered text, nil
// before rendering.
func (m *Model) indexData(p *feed.ProjectLoaded, r *renderedMsg) index.Data {
	d := index.Data{Cap: p.Cap, Exists: p.Dir != nil && p.Dir.Index != nil}
	if p.Dir != nil {
		d.Unread = p.Dir.IndexUnread
	}
	if p.Dir != nil && p.Dir.Exists {
		d.Path = p.AbsDir + "/" + model.MemoryIndexName
	}
	d.Store = storeLabel(p)
	if r != nil {
		d.Loaded, d.Width = r.indexLoaded, r.indexWidth
	} else {
		d.Loaded = loadedIndexText(p.Cap)
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

// unseenNotes says, for each dropped index line that links a memory,
// since when the model has not seen it (by index into dropped).
func unseenNotes(p *feed.ProjectLoaded, dropped []string) map[int]string {
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
