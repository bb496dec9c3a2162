package ui

import (
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/model"
)

// storesWatchedMsg names the memory stores outside the home that the
// watcher now watches, by folder: the slug of the project whose store it
// is ("" for a user-scope agent store).
type storesWatchedMsg struct{ dirs map[string]string }

// watchStoresCmd watches every memory store of the home's projects that
// lives outside the home (model.HomeMemoryStores, the one list: a moved
// autoMemoryDirectory, CLAUDE_CODE_REMOTE_MEMORY_DIR, team and agent
// memory), so a write there reloads the project and its review as a
// write under the home does. Nothing before both the watcher and the
// project list are there; a store folder that does not exist yet is not
// watched.
func (m Model) watchStoresCmd() tea.Cmd {
	w := m.watch
	rows := m.feeds.home.Rows()
	if w == nil || len(rows) == 0 {
		return nil
	}
	root, homeDir, getenv := m.root(), filepath.ToSlash(m.opts.Home.Dir), m.opts.Getenv
	ps := make([]model.Project, len(rows))
	for i, r := range rows {
		ps[i] = r.Project
	}
	return func() tea.Msg {
		list, _ := model.HomeMemoryStores(model.HomeStoresOptions{Root: root, HomeDir: homeDir, UserHome: getenv("HOME"), Getenv: getenv, Projects: ps, User: true})
		dirs := map[string]string{}
		for _, s := range list {
			dir := filepath.FromSlash(s.Dir)
			if within(w.home, dir) {
				continue // startWatchCmd watches the home's
			}
			dirs[dir] = s.Slug
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				continue
			}
			w.w.Add(dir)
			subs, _ := filepath.Glob(filepath.Join(dir, "*"))
			for _, sub := range subs {
				if st, err := os.Stat(sub); err == nil && st.IsDir() && !strings.HasPrefix(filepath.Base(sub), ".") {
					w.w.Add(sub)
				}
			}
		}
		return storesWatchedMsg{dirs: dirs}
	}
}

// within reports whether p is dir or inside it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// classifyPath says what an event about p changes: a file in a memory
// store outside the home changes its project's memory (the open
// project's, for a user-scope agent store); anything else as classify
// says.
func (m *Model) classifyPath(p string) change {
	if m.watch != nil {
		best, slug, found := "", "", false
		for dir, s := range m.watch.stores {
			if len(dir) > len(best) && within(dir, p) {
				best, slug, found = dir, s, true
			}
		}
		if found {
			var c change
			if slug == "" {
				slug = m.data.open
			}
			if slug != "" {
				c.addMemory(slug)
			}
			return c
		}
	}
	return classify(m.opts.Home.Dir, p)
}

// handleStores keeps the folders of the stores watched outside the home.
func (m Model) handleStores(msg tea.Msg) (Model, tea.Cmd, bool) {
	if msg, ok := msg.(storesWatchedMsg); ok {
		if m.watch != nil {
			m.watch.stores = msg.dirs
		}
		return m, nil, true
	}
	return m, nil, false
}
