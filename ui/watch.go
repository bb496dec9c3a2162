package ui

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/fsnotify/fsnotify"

	"github.com/memscope/memscope/model"
)

// debounce is how long the root waits after the last file event before it
// reloads: editors and Claude Code write in bursts (temp file, rename).
const debounce = 250 * time.Millisecond

// maxReloadDelay bounds how long a steady stream of events can put a
// reload off: a busy session appends every few milliseconds, and a
// debounce alone would wait for a pause that never comes.
const maxReloadDelay = 2 * time.Second

// reloadDeadlineMsg fires maxReloadDelay after the first event of a
// burst; it reloads if that burst has not been reloaded yet.
type reloadDeadlineMsg struct{ burst int }

func reloadDeadline(burst int) tea.Cmd {
	return tea.Tick(maxReloadDelay, func(time.Time) tea.Msg { return reloadDeadlineMsg{burst: burst} })
}

// watcher forwards file events from the home as messages. It watches
// folders, not files, because editors and the atomic writer save by
// renaming a new file over the old one. Events are gathered into a set
// of paths until the root takes them: none is dropped (each names the
// store to reload), and a burst of events on one file is one path.
type watcher struct {
	w    *fsnotify.Watcher
	home string

	// stores are the memory store folders outside the home it watches,
	// by folder: their project's slug (watchstores.go). Update alone
	// reads and writes it.
	stores map[string]string

	mu sync.Mutex
	// waiting are the store folders outside the home that do not exist
	// yet, and parents the folders watched for them, their nearest
	// existing parents; watched the store folders watched
	// (watchstores.go).
	waiting, parents, watched map[string]bool
	paths                     map[string]bool
	// overflow says more than maxPendingPaths paths changed: the root
	// reloads everything.
	overflow bool
	// ready holds a token while paths has something to take; done is
	// closed when the watcher stops.
	ready chan struct{}
	done  chan struct{}
}

// maxPendingPaths bounds the paths gathered between two takes.
const maxPendingPaths = 4096

type watchStartedMsg struct {
	w   *watcher
	err error
}

// fileChangedMsg says files under the home changed.
type fileChangedMsg struct {
	paths []string
	// overflow: too many paths changed to name them.
	overflow bool
}

// reloadTickMsg fires debounce after an event; only the newest tag acts.
type reloadTickMsg struct {
	tag int
}

// startWatchCmd watches the home folder, file-history/ and its session
// folders (the Files pane), projects/*, their memory folders,
// their session folders and the subagents/ folders in them (the running
// subagents' transcripts, for the Live pane and the open session), the
// paste cache and sessions/ (the running clients' process files, for the
// Live pane). One goroutine reads fsnotify and exits when the watcher is
// closed (its channels close).
func startWatchCmd(home string) tea.Cmd {
	return func() tea.Msg {
		fw, err := fsnotify.NewWatcher()
		if err != nil {
			return watchStartedMsg{err: err}
		}
		dirs := []string{home, filepath.Join(home, "projects"), filepath.Join(home, "paste-cache"), filepath.Join(home, "sessions"), filepath.Join(home, model.FileHistoryDir)}
		// Each session's file history (the Files pane).
		dirs = append(dirs, subfolders(filepath.Join(home, model.FileHistoryDir), true)...)
		projects, _ := os.ReadDir(filepath.Join(home, "projects"))
		for _, e := range projects {
			p := filepath.Join(home, "projects", e.Name())
			dirs = append(dirs, p, filepath.Join(p, "memory"))
			dirs = append(dirs, subfolders(filepath.Join(p, "memory"), false)...)
			dirs = append(dirs, sessionFolders(p)...)
		}
		for _, d := range dirs {
			fw.Add(d) // missing folders are fine: nothing to watch yet
		}
		w := &watcher{w: fw, home: home, paths: map[string]bool{}, parents: map[string]bool{}, watched: map[string]bool{}, ready: make(chan struct{}, 1), done: make(chan struct{})}
		go w.run()
		return watchStartedMsg{w: w}
	}
}

func (w *watcher) run() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			if strings.Contains(filepath.Base(ev.Name), ".memscope-") {
				continue // our own temp files
			}
			// Whether the event is of use is told before a store folder
			// it made is watched (and waited for no more).
			skip := w.onlyParent(ev.Name)
			if ev.Has(fsnotify.Create) {
				w.watchNew(ev.Name)
				w.watchWaiting(ev.Name)
			}
			if skip {
				continue
			}
			w.add(ev.Name)
		case _, ok := <-w.w.Errors:
			if !ok {
				return
			}
		}
	}
}

// add notes that path changed.
func (w *watcher) add(path string) {
	w.mu.Lock()
	if !w.overflow {
		w.paths[path] = true
		if len(w.paths) > maxPendingPaths {
			w.overflow = true
			clear(w.paths)
		}
	}
	w.mu.Unlock()
	select {
	case w.ready <- struct{}{}:
	default: // already signalled
	}
}

// take returns the paths gathered since the last take.
func (w *watcher) take() fileChangedMsg {
	w.mu.Lock()
	defer w.mu.Unlock()
	msg := fileChangedMsg{overflow: w.overflow}
	for p := range w.paths {
		msg.paths = append(msg.paths, p)
	}
	sort.Strings(msg.paths)
	clear(w.paths)
	w.overflow = false
	return msg
}

// watchStat is os.Stat, asked by the watch set's listing of the entries
// it does not know the type of (the tests count it).
var watchStat = os.Stat

// subfolders are the folders in dir, a link to one included, in name
// order; names beginning with a dot only when hidden. The listing's
// types say which entries are folders: only a link (or an entry of no
// type) is stat'ed. Before, every name of a Glob of dir/* was stat'ed:
// the 2 430 memory files of W's 30 projects at every start.
func subfolders(dir string, hidden bool) []string {
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		if !hidden && strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		switch t := e.Type(); {
		case t.IsDir():
		case t&(fs.ModeSymlink|fs.ModeIrregular) != 0:
			if st, err := watchStat(p); err != nil || !st.IsDir() {
				continue
			}
		default:
			continue
		}
		out = append(out, p)
	}
	return out
}

// sessionFolders are the session folders of the project folder p
// (projects/<slug>/<session id>/, which hold tool results and
// subagents/) and their subagents/ folders that exist.
func sessionFolders(p string) []string {
	var dirs []string
	entries, _ := os.ReadDir(p)
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "memory" || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		d := filepath.Join(p, e.Name())
		dirs = append(dirs, d)
		if st, err := os.Stat(filepath.Join(d, "subagents")); err == nil && st.IsDir() {
			dirs = append(dirs, filepath.Join(d, "subagents"))
		}
	}
	return dirs
}

// watchNew adds a folder created after the start that startWatchCmd
// would have watched: sessions/, a project folder (Claude Code's first
// run in a project), its memory folder or a memory sub-folder, a session
// folder or its subagents/ folder (the first subagent of a session). A
// folder and the one inside it can appear together, so both are tried.
func (w *watcher) watchNew(p string) {
	if fh := filepath.Join(w.home, model.FileHistoryDir); p == filepath.Join(w.home, "sessions") || p == fh || filepath.Dir(p) == fh {
		// The first client to run made sessions/ or file-history/; a
		// session's first edit made its file-history folder.
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			w.w.Add(p)
		}
		return
	}
	rel, err := filepath.Rel(filepath.Join(w.home, "projects"), p)
	if err != nil || strings.HasPrefix(rel, "..") || strings.HasPrefix(filepath.Base(p), ".") {
		return
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	memory := len(parts) >= 2 && parts[1] == "memory"
	subagents := len(parts) == 3 && !memory && parts[2] == "subagents"
	if len(parts) > 3 || len(parts) == 3 && !memory && !subagents {
		return
	}
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return
	}
	w.w.Add(p)
	switch {
	case len(parts) == 1:
		w.w.Add(filepath.Join(p, "memory")) // missing is fine: its Create comes later
	case len(parts) == 2 && !memory:
		w.w.Add(filepath.Join(p, "subagents"))
	}
}

// next waits for file events and returns all those gathered by then.
func (w *watcher) next() tea.Cmd {
	if w == nil {
		return nil
	}
	return func() tea.Msg {
		select {
		case <-w.ready:
		case <-w.done:
			return nil
		}
		return w.take()
	}
}

// Close stops the watcher and its goroutine.
func (w *watcher) Close() {
	if w != nil {
		w.w.Close()
	}
}

// handleWatch turns file events into one debounced reload.
func (m Model) handleWatch(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case watchStartedMsg:
		m.watch = msg.w
		if msg.err != nil {
			m.setStatus("live reload off: "+msg.err.Error(), true)
			return m, nil, true
		}
		return m, tea.Batch(m.watch.next(), m.watchStoresCmd()), true
	case fileChangedMsg:
		for _, p := range msg.paths {
			m.pending.merge(m.classifyPath(p))
		}
		m.pending.all = m.pending.all || msg.overflow
		m.reloadTag++
		tag := m.reloadTag
		cmds := []tea.Cmd{m.watch.next(), tea.Tick(debounce, func(time.Time) tea.Msg { return reloadTickMsg{tag: tag} })}
		if !m.burstOpen {
			m.burstOpen = true
			m.burst++
			cmds = append(cmds, reloadDeadline(m.burst))
		}
		return m, tea.Batch(cmds...), true
	case reloadTickMsg:
		if msg.tag != m.reloadTag {
			return m, nil, true
		}
		m.burstOpen = false
		cmd := m.reloadPending()
		return m, cmd, true
	case reloadDeadlineMsg:
		if !m.burstOpen || msg.burst != m.burst {
			return m, nil, true
		}
		m.burstOpen = false
		cmd := m.reloadPending()
		return m, cmd, true
	}
	return m, nil, false
}

// reloadPending reloads what the file events since the last reload
// changed. Each store reloads one at a time (see flight): what changes
// while one reloads is read by the next.
func (m *Model) reloadPending() tea.Cmd {
	c := m.pending
	m.pending = change{}
	// The leftover search's walk hears of every file named, even those
	// nothing else reloads for (the Live pane's process files).
	m.feeds.project.Walk().Changed(c.names, c.all)
	if c.empty() {
		return nil
	}
	return m.reload(c)
}

// Close stops what the model started that outlives its commands: the
// file watcher (its fsnotify handle and its goroutine). The program's
// caller calls it when the program ends (cli/tui.go).
func (m Model) Close() { m.watch.Close() }
