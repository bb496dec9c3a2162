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
// project list are there. A store folder that does not exist yet is
// waited for: its nearest existing parent is watched, and the folder is
// added when it appears (watcher.watchWaiting), before its creation
// reaches the root, which reloads the project as for a write in it.
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
		dirs, waiting := map[string]string{}, map[string]bool{}
		for _, s := range list {
			dir := filepath.FromSlash(s.Dir)
			if within(w.home, dir) {
				continue // startWatchCmd watches the home's
			}
			dirs[dir] = s.Slug
			if !w.watchStore(dir) {
				waiting[dir] = true
			}
		}
		w.setWaiting(waiting)
		return storesWatchedMsg{dirs: dirs}
	}
}

// watchStore watches the store folder dir and its sub-folders (team/),
// or, when dir does not exist, its nearest existing parent; it reports
// whether dir itself is watched. A folder below the parent that appears
// before the parent's watch starts sends no event: the parent is looked
// for again until it holds still.
func (w *watcher) watchStore(dir string) bool {
	for {
		p := nearestDir(dir)
		if p == "" {
			return false
		}
		if p == dir {
			w.mu.Lock()
			w.watched[dir] = true
			w.mu.Unlock()
			w.w.Add(dir)
			subs, _ := filepath.Glob(filepath.Join(dir, "*"))
			for _, sub := range subs {
				if st, err := os.Stat(sub); err == nil && st.IsDir() && !strings.HasPrefix(filepath.Base(sub), ".") {
					w.w.Add(sub)
				}
			}
			return true
		}
		w.w.Add(p)
		w.mu.Lock()
		w.parents[p] = true
		w.mu.Unlock()
		if nearestDir(dir) == p {
			return false
		}
	}
}

// nearestDir is dir, or its nearest parent that is a folder; "" when
// none is.
func nearestDir(dir string) string {
	for {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// setWaiting replaces the store folders waited for.
func (w *watcher) setWaiting(waiting map[string]bool) {
	w.mu.Lock()
	w.waiting = waiting
	w.mu.Unlock()
}

// watchWaiting watches the waited-for store folders at or below p, which
// was just created (the store folder, or a folder on the way to it); the
// watcher's goroutine calls it before it passes the event on.
func (w *watcher) watchWaiting(p string) {
	w.mu.Lock()
	var dirs []string
	for d := range w.waiting {
		if within(p, d) {
			dirs = append(dirs, d)
		}
	}
	w.mu.Unlock()
	for _, d := range dirs {
		if w.watchStore(d) {
			w.mu.Lock()
			delete(w.waiting, d)
			w.mu.Unlock()
		}
	}
}

// onlyParent reports whether p is an event in a folder watched only as
// the parent of a store folder waited for, and not on the way to one: an
// event the root has no use for. A parent that is a store folder itself
// (an auto memory folder, its team/ not there yet) is not only a parent.
func (w *watcher) onlyParent(p string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.parents[filepath.Dir(p)] {
		return false
	}
	for d := range w.watched {
		if within(d, p) {
			return false
		}
	}
	for d := range w.waiting {
		if within(p, d) {
			return false
		}
	}
	return true
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
