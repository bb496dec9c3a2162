package ui

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
	"github.com/memscope/memscope/views/projects"
)

// homeData is everything loaded from the home, as the last commands
// returned it.
type homeData struct {
	projects  []projects.Row
	problems  []model.Problem
	open      string // slug of the open project
	history   *model.History
	inventory *model.PasteInventory
	pasteRefs map[model.PasteHash]int
	project   projectLoadedMsg
}

// openPath is the open project's real path (or its slug when unknown).
func (d homeData) openPath() string {
	for _, r := range d.projects {
		if r.Project.Slug == d.open {
			if r.Project.Path != "" {
				return r.Project.Path
			}
			return r.Project.Slug
		}
	}
	return d.open
}

type homeLoadedMsg struct {
	rows     []projects.Row
	problems []model.Problem
}

type historyLoadedMsg struct {
	err       error // the file could not be read; nothing else is set
	history   *model.History
	inventory *model.PasteInventory
	refs      map[model.PasteHash]int
}

type errMsg struct{ err error }

// loadHomeCmd lists the projects with the size of their memory.
func (m Model) loadHomeCmd() tea.Cmd {
	fsys := m.opts.Home.FS
	return func() tea.Msg {
		ps, probs := model.ListProjects(fsys)
		rows := make([]projects.Row, len(ps))
		for i, p := range ps {
			rows[i] = projects.Row{Project: p}
			if p.HasMemory {
				rows[i].MemoryFiles, rows[i].MemoryBytes = memorySize(fsys, p.Dir+"/memory")
			}
		}
		return homeLoadedMsg{rows: rows, problems: probs}
	}
}

// memorySize counts the markdown files under a memory folder.
func memorySize(fsys fs.FS, dir string) (files int, bytes int64) {
	fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != dir && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			if info, err := d.Info(); err == nil {
				files++
				bytes += info.Size()
			}
		}
		return nil
	})
	return files, bytes
}

// loadHistoryCmd reads history.jsonl and checks every paste it refers to.
func (m Model) loadHistoryCmd() tea.Cmd {
	fsys := m.opts.Home.FS
	return func() tea.Msg {
		h, err := model.ReadHistory(fsys, model.HistoryPath)
		if err != nil && h == nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return historyLoadedMsg{err: err}
			}
			// A home where nothing was typed yet has no history file.
			h = &model.History{}
		}
		inv := model.InventoryPastes(fsys, h)
		return historyLoadedMsg{history: h, inventory: inv, refs: model.CountPasteRefs(h)}
	}
}

// resolvePasteCmd reads one paste's text.
func (m Model) resolvePasteCmd(hash string) tea.Cmd {
	fsys := m.opts.Home.FS
	return func() tea.Msg {
		r := model.NewPasteCache(fsys).Resolve(model.PasteHash(hash))
		return msgs.PasteResolved{Hash: hash, Status: string(r.Status), Content: r.Content, Reason: r.Reason}
	}
}

// applyHome takes a fresh project list and picks the project to open: the
// one asked for, else the one already open, else the most recently active.
func (m *Model) applyHome(msg homeLoadedMsg) {
	m.data.projects = msg.rows
	m.data.problems = msg.problems
	want := m.data.open
	if want == "" && m.opts.Project != "" {
		want = m.projectFor(m.opts.Project)
	}
	if want == "" && len(msg.rows) > 0 {
		newest := msg.rows[0]
		for _, r := range msg.rows {
			if r.Project.LastActivity.After(newest.Project.LastActivity) {
				newest = r
			}
		}
		want = newest.Project.Slug
	}
	for i := range m.data.projects {
		m.data.projects[i].Current = m.opts.Project != "" && m.data.projects[i].Project.Path == m.opts.Project
	}
	m.openProject(want)
	m.projects.SetRows(m.data.projects, m.opts.Now())
}

// projectFor finds the project of folder dir: the project started there,
// else the nearest folder above it that has one (started in repo/sub,
// the project may be repo).
func (m *Model) projectFor(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		for _, r := range m.data.projects {
			if r.Project.Path == d {
				return r.Project.Slug
			}
		}
		if slug, ok := model.FindProjectDir(m.opts.Home.FS, d); ok {
			return slug
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// openProject switches the project panes to slug.
func (m *Model) openProject(slug string) {
	m.data.open = slug
	m.projects.SetOpen(slug)
	m.applyHistory()
}

// applyHistory shows the open project's prompts and the paste inventory.
func (m *Model) applyHistory() {
	h := m.data.history
	if h == nil {
		return
	}
	var status = map[model.PasteHash]model.PasteResolution{}
	if m.data.inventory != nil {
		for _, r := range m.data.inventory.Resolutions {
			status[r.Hash] = r
		}
	}
	var entries []*model.HistoryEntry
	for _, p := range m.historyProjects() {
		entries = append(entries, h.ForProject(p)...)
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Line > entries[j].Line })
	m.history.SetEntries(m.data.open, entries, status, m.opts.Now())
	m.pastes.SetInventory(m.data.inventory, m.data.pasteRefs, m.opts.Now())
}

// historyProjects are the history "project" values that belong to the open
// project: its real path, and any path whose slug is the project's folder
// (history keeps the startup folder, which the slug cannot be reversed to).
func (m *Model) historyProjects() []string {
	if m.data.history == nil {
		return nil
	}
	var out []string
	openPath := m.data.openPath()
	for _, p := range m.data.history.Projects() {
		if p == openPath || model.Slug(p) == m.data.open {
			out = append(out, p)
		}
	}
	return out
}

// reloadAll re-reads everything (after a file change or ctrl+r).
func (m *Model) reloadAll() tea.Cmd {
	m.loading["home"] = true
	m.loading["history"] = true
	m.stale[paneRetention], m.stale[paneFiles] = true, true
	// The project list's arrival loads the open project and its sessions.
	return tea.Batch(m.loadHomeCmd(), m.loadHistoryCmd(), m.lazyLoadCmd())
}

// lazyLoadCmd reads the focused pane's data when it is stale: the
// Retention and Files panes are not read at start-up nor on every live
// reload, only when someone looks at them.
func (m *Model) lazyLoadCmd() tea.Cmd {
	if !m.stale[m.focus] {
		return nil
	}
	m.stale[m.focus] = false
	switch m.focus {
	case paneRetention:
		m.loading["retention"] = true
		return m.loadRetentionCmd()
	case paneFiles:
		m.loading["files"] = true
		return m.loadFileSessionsCmd()
	}
	return nil
}
