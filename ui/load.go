package ui

import (
	"errors"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/inventory"
	memlint "github.com/memscope/memscope/engine/lint"
	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
	"github.com/memscope/memscope/views/projects"
	"github.com/memscope/memscope/views/replay"
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
	// pasteStatus is the inventory's resolutions by hash (the History
	// pane's badges).
	pasteStatus map[model.PasteHash]model.PasteResolution
	project     projectLoadedMsg
	// storeDir is the memory store the Memories and Index panes show: an
	// agent's folder, "" for the project's auto memory (msgs.NextMemoryStore).
	storeDir string
	// files are each project's transcripts, by slug, newest first: a
	// changed session updates its project's row from them.
	files map[string][]model.TranscriptFile
	// active is when each of those transcripts was last active, by path
	// (enginesessions.LastActive).
	active map[string]enginesessions.Active
	// refs counts history's paste references, kept current as history
	// grows (the paste inventory checks what it counts).
	refs model.PasteRefs
	// sessions is the open project's Replay list, as last loaded.
	sessions []replay.Session
	// unreviewed counts the open project's memories to review; -1 until
	// its inbox is read.
	unreviewed int
}

// loaders is what a store's loads carry from one to the next. Each part
// belongs to the running load of its store (its flight runs one at a
// time), so Update only hands it on, never reads it.
type loaders struct {
	// history is where history.jsonl was read up to.
	history *model.HistoryTail
	// verdicts remembers the paste files already hashed; restored says
	// the ones kept by an earlier run were asked for (Options.Cache).
	verdicts *model.PasteVerdicts
	restored bool
	// followers summarize the open project's transcripts, by path;
	// followersOf is the project they belong to.
	followers   map[string]*enginesessions.Follower
	followersOf string
	// lint remembers per-file lint work (shingles, pairs, scans) on the
	// open project's memory folder; lintOf is that project and the store
	// asked for (slug, NUL, folder).
	lint   *memlint.Memo
	lintOf string
}

// flights are the stores' flights (see flight).
type flights struct {
	home     flight[homeReq]
	history  flight[historyReq]
	pastes   flight[pastesReq]
	project  flight[string]
	sessions flight[sessionsReq]
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

// homeReq asks for the project list: all of it (full), or the rows of
// the projects whose sessions or memory folder changed.
type homeReq struct {
	full bool
	// openAll loads the open project's memory and sessions afterwards
	// (start-up, ctrl+r); otherwise they load when another project opens.
	openAll  bool
	sessions map[sessionKey]bool
	memory   map[string]bool
}

func mergeHome(a, b homeReq) homeReq {
	a.full, a.openAll = a.full || b.full, a.openAll || b.openAll
	c := change{sessions: a.sessions, memory: a.memory}
	c.merge(change{sessions: b.sessions, memory: b.memory})
	a.sessions, a.memory = c.sessions, c.memory
	return a
}

type homeLoadedMsg struct {
	rows     []projects.Row
	problems []model.Problem
	files    map[string][]model.TranscriptFile
	// active is when each transcript was last active, by path.
	active  map[string]enginesessions.Active
	openAll bool
}

// homeDeltaMsg carries the changed parts of some project rows.
type homeDeltaMsg struct {
	// sessions are the transcripts of each changed session now (none
	// when it is gone).
	sessions map[sessionKey][]model.TranscriptFile
	memory   map[string]memoryState
	// paths are projects' real folders, probed for rows that had none.
	paths    map[string]string
	problems []model.Problem
	// active is when each changed session's transcripts were last
	// active, by path.
	active map[string]enginesessions.Active
}

// memoryState is the size of one project's memory folder.
type memoryState struct {
	exists bool
	count  inventory.MemoryCount
}

// historyReq asks for what was appended to history.jsonl, or for all of
// it (full).
type historyReq struct{ full bool }

func mergeHistory(a, b historyReq) historyReq { return historyReq{full: a.full || b.full} }

type historyLoadedMsg struct {
	err error // the file could not be read; nothing else is set
	// read is what was read: all of the file (read.Full, then history is
	// set) or what was appended.
	read    model.HistoryRead
	history *model.History
	// refs counts history's paste references (with a full read).
	refs model.PasteRefs
}

// pastesLoadedMsg carries the paste inventory for the references refs.
type pastesLoadedMsg struct {
	inventory *model.PasteInventory
	refs      map[model.PasteHash]int
}

// sessionsReq asks for the open project's Replay list: all of it, or the
// sessions ids whose transcripts changed.
type sessionsReq struct {
	slug string
	full bool
	ids  map[string]bool
}

func mergeSessions(a, b sessionsReq) sessionsReq {
	if a.slug != b.slug {
		return sessionsReq{slug: b.slug, full: true}
	}
	a.full = a.full || b.full
	for id := range b.ids {
		if a.ids == nil {
			a.ids = map[string]bool{}
		}
		a.ids[id] = true
	}
	return a
}

// sessionsLoadedMsg lists a project's sessions for the Replay pane.
type sessionsLoadedMsg struct {
	slug      string
	sessions  []replay.Session
	followers map[string]*enginesessions.Follower
	// mayLoad says what the sessions loaded may have changed: a
	// transcript was read from its start, or an attachment record was
	// appended (summarizeSessions). Other appends leave the loads be.
	mayLoad bool
}

type errMsg struct{ err error }

// requestHome starts a project list load, or queues it behind the
// running one.
func (m *Model) requestHome(r homeReq) tea.Cmd {
	return m.fl.home.request(m, r, mergeHome, Model.loadHomeCmd)
}

// loadHomeCmd lists the projects with the size of their memory, or reads
// the changed parts of some rows.
func (m Model) loadHomeCmd(r homeReq) tea.Cmd {
	fsys := m.opts.Home.FS
	if r.full {
		m.loading["home"] = true
		return func() tea.Msg {
			ps, files, probs := model.ListProjectsFiles(fsys)
			rows := make([]projects.Row, len(ps))
			active := map[string]enginesessions.Active{}
			for i, p := range ps {
				rows[i] = projects.Row{Project: p, Unreviewed: -1}
				if p.HasMemory {
					rows[i].Memory = inventory.CountMemory(fsys, p.Dir+"/memory")
				}
				for _, t := range files[p.Slug] {
					active[t.Path] = enginesessions.LastActive(fsys, t)
				}
				rows[i].LastActive = lastActive(files[p.Slug], active)
			}
			return homeLoadedMsg{rows: rows, problems: probs, files: files, active: active, openAll: r.openAll}
		}
	}
	// Rows without a real path probe it again from their transcripts,
	// which the command gets a copy of.
	probe := map[string][]model.TranscriptFile{}
	// A transcript of a changed session that is as it was listed (a
	// subagent's, when the main one was appended to) keeps its last
	// activity: it is not read again.
	known := map[string]knownActive{}
	for k := range r.sessions {
		if i := m.rowIndex(k.slug); i >= 0 && m.data.projects[i].Project.Path == "" {
			probe[k.slug] = slices.Clone(m.data.files[k.slug])
		}
		for _, t := range withSession(m.data.files[k.slug], k.id) {
			if a, ok := m.data.active[t.Path]; ok {
				known[t.Path] = knownActive{file: t, active: a}
			}
		}
	}
	return func() tea.Msg {
		out := homeDeltaMsg{sessions: map[sessionKey][]model.TranscriptFile{}, memory: map[string]memoryState{}, paths: map[string]string{}, active: map[string]enginesessions.Active{}}
		for k := range r.sessions {
			ts, probs := model.FindSessionTranscripts(fsys, k.slug, k.id)
			out.sessions[k] = ts
			for _, t := range ts {
				if k, ok := known[t.Path]; ok && sameListing(k.file, t) {
					out.active[t.Path] = k.active
					continue
				}
				out.active[t.Path] = enginesessions.LastActive(fsys, t)
			}
			out.problems = append(out.problems, probs...)
			if old, ok := probe[k.slug]; ok {
				all := append(withoutSession(old, k.id), ts...)
				(&model.Project{}).SetTranscripts(all)
				out.paths[k.slug] = model.ProbeProjectPath(fsys, all)
			}
		}
		for slug := range r.memory {
			dir := "projects/" + slug + "/memory"
			var st memoryState
			if info, err := fs.Stat(fsys, dir); err == nil && info.IsDir() {
				st.exists = true
				st.count = inventory.CountMemory(fsys, dir)
			}
			out.memory[slug] = st
		}
		return out
	}
}

// knownActive is a transcript as last listed and when it was last
// active then.
type knownActive struct {
	file   model.TranscriptFile
	active enginesessions.Active
}

// sameListing reports whether a and b list the same version of a
// transcript (path, size, mtime and meta file): what was read of a holds
// for b.
func sameListing(a, b model.TranscriptFile) bool {
	return a.Path == b.Path && a.Size == b.Size && a.ModTime.Equal(b.ModTime) && a.MetaPath == b.MetaPath
}

// lastActive is when a project was last active: the newest of its
// transcripts' (enginesessions.LastActive, by path in active).
func lastActive(ts []model.TranscriptFile, active map[string]enginesessions.Active) enginesessions.Active {
	as := make([]enginesessions.Active, 0, len(ts))
	for _, t := range ts {
		as = append(as, active[t.Path])
	}
	return enginesessions.Newest(as...)
}

// withSession returns the transcripts of session id in ts.
func withSession(ts []model.TranscriptFile, id string) []model.TranscriptFile {
	var out []model.TranscriptFile
	for _, t := range ts {
		if t.SessionID == id {
			out = append(out, t)
		}
	}
	return out
}

// withoutSession returns ts without the transcripts of session id.
func withoutSession(ts []model.TranscriptFile, id string) []model.TranscriptFile {
	out := make([]model.TranscriptFile, 0, len(ts))
	for _, t := range ts {
		if t.SessionID != id {
			out = append(out, t)
		}
	}
	return out
}

// rowIndex is the index of project slug's row, or -1.
func (m *Model) rowIndex(slug string) int {
	for i, r := range m.data.projects {
		if r.Project.Slug == slug {
			return i
		}
	}
	return -1
}

// homeDone ends a project list load and starts the one waiting.
func (m *Model) homeDone() tea.Cmd { return m.fl.home.finish(m, Model.loadHomeCmd) }

// applyHomeDelta updates the rows of the projects that changed. A session
// of a project the list does not have yet asks for the whole list.
func (m *Model) applyHomeDelta(msg homeDeltaMsg) tea.Cmd {
	rows := slices.Clone(m.data.projects)
	if m.data.files == nil {
		m.data.files = map[string][]model.TranscriptFile{}
	}
	unknown := false
	touched := map[string]bool{}
	if m.data.active == nil {
		m.data.active = map[string]enginesessions.Active{}
	}
	for k, ts := range msg.sessions {
		for _, t := range withSession(m.data.files[k.slug], k.id) {
			delete(m.data.active, t.Path)
		}
		m.data.files[k.slug] = append(withoutSession(m.data.files[k.slug], k.id), ts...)
		touched[k.slug] = true
	}
	maps.Copy(m.data.active, msg.active)
	for slug := range touched {
		i := m.rowIndex(slug)
		if i < 0 {
			unknown = true
			continue
		}
		rows[i].Project.SetTranscripts(m.data.files[slug])
		rows[i].LastActive = lastActive(m.data.files[slug], m.data.active)
		if p := msg.paths[slug]; p != "" && rows[i].Project.Path == "" {
			rows[i].Project.Path = p
		}
	}
	for slug, st := range msg.memory {
		i := m.rowIndex(slug)
		if i < 0 {
			unknown = true
			continue
		}
		rows[i].Project.HasMemory = st.exists
		rows[i].Memory = st.count
	}
	m.data.projects = rows
	m.projects.SetRows(rows, m.opts.Now())
	if unknown {
		return m.requestHome(homeReq{full: true})
	}
	return nil
}

// requestHistory starts reading history.jsonl, or queues it behind the
// running read.
func (m *Model) requestHistory(r historyReq) tea.Cmd {
	return m.fl.history.request(m, r, mergeHistory, Model.loadHistoryCmd)
}

// loadHistoryCmd reads what was appended to history.jsonl since the last
// read, or all of it (the first time, when asked, or when the file is no
// longer the one read before).
func (m Model) loadHistoryCmd(r historyReq) tea.Cmd {
	fsys, tail := m.opts.Home.FS, m.live.history
	if r.full {
		tail.State = model.TailState{}
		m.loading["history"] = true
	}
	return func() tea.Msg {
		read, err := tail.Read(fsys, model.HistoryPath)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return historyLoadedMsg{err: err}
			}
			// A home where nothing was typed yet has no history file.
			read = model.HistoryRead{Full: true}
		}
		msg := historyLoadedMsg{read: read}
		if read.Full {
			msg.history = model.NewHistory(model.HistoryPath, read.Entries, read.Problems)
			msg.refs = model.PasteRefsOf(msg.history)
		}
		return msg
	}
}

// applyHistoryRead takes what loadHistoryCmd read: a new history, or
// entries to append. The paste inventory is checked again when history
// refers to new pastes.
func (m *Model) applyHistoryRead(msg historyLoadedMsg) tea.Cmd {
	r := msg.read
	if r.Full || m.data.history == nil {
		if msg.history == nil {
			msg.history = model.NewHistory(model.HistoryPath, r.Entries, r.Problems)
			msg.refs = model.PasteRefsOf(msg.history)
		}
		m.data.history, m.data.refs = msg.history, msg.refs
		m.showHistory()
		// A whole read (the start, ctrl+r, history rewritten) lists the
		// paste folders again too.
		return m.requestPastes(pastesReq{full: true})
	}
	if len(r.Entries) == 0 && len(r.Problems) == 0 {
		return nil
	}
	before := cap(m.data.history.Entries)
	m.data.history.Append(r.Entries, r.Problems)
	hashed := m.data.refs.Add(r.Entries)
	// The pane holds pointers into the entries: show them again when
	// the open project got prompts, or when the entries moved.
	if cap(m.data.history.Entries) != before || m.touchesOpen(r.Entries) {
		m.showHistory()
	}
	if hashed {
		return m.requestPastes(pastesReq{})
	}
	return nil
}

// touchesOpen reports whether any of entries belongs to the open project.
func (m *Model) touchesOpen(entries []model.HistoryEntry) bool {
	openPath := m.data.openPath()
	for i := range entries {
		if p := entries[i].Project; p == openPath || model.Slug(p) == m.data.open {
			return true
		}
	}
	return false
}

// historyDone ends a history read and starts the one waiting.
func (m *Model) historyDone() tea.Cmd { return m.fl.history.finish(m, Model.loadHistoryCmd) }

// pastesReq asks for the paste inventory to be checked against
// history's current references: the paste folders listed again (full),
// or only the files named (the rest of the last listing is kept).
type pastesReq struct {
	full  bool
	names map[string]bool
}

func mergePastes(a, b pastesReq) pastesReq {
	r := pastesReq{full: a.full || b.full, names: map[string]bool{}}
	for n := range a.names {
		r.names[n] = true
	}
	for n := range b.names {
		r.names[n] = true
	}
	return r
}

// requestPastes starts checking the paste inventory against history's
// current references, or queues it behind the running check.
func (m *Model) requestPastes(r pastesReq) tea.Cmd {
	return m.fl.pastes.request(m, r, mergePastes, Model.loadPastesCmd)
}

// pasteNames are the changed files in the paste folders, for a check
// that lists only those; full when a folder itself changed.
func pasteNames(c change) pastesReq {
	r := pastesReq{names: map[string]bool{}}
	for n := range c.names {
		dir, name := path.Split(n)
		switch strings.TrimSuffix(dir, "/") {
		case model.PasteCacheDir, model.PasteStoreDir:
			if name != "" {
				r.names[n] = true
				continue
			}
		}
		if n == model.PasteCacheDir || n == model.PasteStoreDir {
			r.full = true
		}
	}
	return r
}

// loadPastesCmd lists the paste folders and checks every referenced
// hash; a file already checked (same name, size, mtime and inode) is not
// read again.
//
// With Options.Cache the verdicts outlive the run: the first check starts
// from the ones an earlier run kept (each used only for the file version
// its stamp names), and a check that hashed a file keeps them again.
func (m Model) loadPastesCmd(r pastesReq) tea.Cmd {
	fsys, v, refs := m.opts.Home.FS, m.live.verdicts, m.data.refs.Clone()
	prev := m.data.inventory
	if r.full {
		prev = nil
	}
	names := slices.Sorted(maps.Keys(r.names))
	cache, restore := m.opts.Cache, !m.live.restored
	m.live.restored = true
	name := diskcache.Name(pasteCacheKind, m.opts.Home.Dir)
	return func() tea.Msg {
		if restore {
			if saved, ok := diskcache.Load[[]model.PasteVerdict](cache, pasteCacheKind, name); ok {
				v.Restore(saved)
			}
		}
		before := v.Hashed()
		inv, ok := model.UpdatePasteInventory(fsys, refs, v, prev, names)
		if !ok {
			inv = model.InventoryPasteRefs(fsys, refs, v)
		}
		if v.Hashed() > before {
			// A cache that cannot be written costs the next start its
			// speed, never its answer.
			_ = diskcache.Save(cache, pasteCacheKind, name, v.Saved())
		}
		return pastesLoadedMsg{inventory: inv, refs: refs.Counts}
	}
}

// pasteCacheKind names and versions the paste verdicts kept across runs.
const pasteCacheKind = "paste-verdicts.1"

// pastesDone ends a paste check and starts the one waiting.
func (m *Model) pastesDone() tea.Cmd { return m.fl.pastes.finish(m, Model.loadPastesCmd) }

// resolvePasteCmd reads one paste's text.
func (m Model) resolvePasteCmd(hash string) tea.Cmd {
	fsys := m.opts.Home.FS
	return func() tea.Msg {
		r := model.NewPasteCache(fsys).Resolve(model.PasteHash(hash))
		return msgs.PasteResolved{Hash: hash, Status: string(r.Status), Content: r.Content, Reason: r.Reason}
	}
}

// applyHome takes a fresh project list and picks the project to open: the
// one asked for, else the one already open, else the most recently
// active. It reports whether the open project changed.
func (m *Model) applyHome(msg homeLoadedMsg) bool {
	// Review counts stay until they are counted again.
	counted := map[string]int{}
	for _, r := range m.data.projects {
		counted[r.Project.Slug] = r.Unreviewed
	}
	for i, r := range msg.rows {
		if n, ok := counted[r.Project.Slug]; ok {
			msg.rows[i].Unreviewed = n
		}
	}
	m.data.projects = msg.rows
	m.data.problems = msg.problems
	m.data.files = msg.files
	m.data.active = msg.active
	was := m.data.open
	want := m.data.open
	if want == "" && m.opts.Project != "" {
		want = m.projectFor(m.opts.Project)
	}
	if want == "" && len(msg.rows) > 0 {
		newest := msg.rows[0]
		for _, r := range msg.rows {
			if r.LastActive.Time.After(newest.LastActive.Time) {
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
	return want != was
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
	if slug != m.data.open {
		m.data.storeDir = ""
		m.data.unreviewed = -1
	}
	m.data.open = slug
	m.projects.SetOpen(slug)
	m.showHistory()
}

// loadOpenProject reads the open project's memory folder and its
// sessions.
func (m *Model) loadOpenProject() tea.Cmd {
	slug := m.data.open
	m.replay.SetSessionsLoading(slug)
	return tea.Batch(m.requestProject(slug), m.requestSessions(sessionsReq{slug: slug, full: true}))
}

// showHistory shows the open project's prompts, with the status of their
// hashed pastes from the paste inventory.
func (m *Model) showHistory() {
	h := m.data.history
	if h == nil {
		return
	}
	status := m.data.pasteStatus
	if status == nil {
		status = map[model.PasteHash]model.PasteResolution{}
	}
	var entries []*model.HistoryEntry
	ps := m.historyProjects()
	for _, p := range ps {
		entries = append(entries, h.ForProject(p)...)
	}
	if len(ps) > 1 {
		sort.SliceStable(entries, func(i, j int) bool { return entries[i].Line > entries[j].Line })
	}
	m.history.SetEntries(m.data.open, entries, status, m.opts.Now())
}

// setInventory takes a new paste inventory.
func (m *Model) setInventory(inv *model.PasteInventory, refs map[model.PasteHash]int) {
	m.data.inventory, m.data.pasteRefs = inv, refs
	m.data.pasteStatus = make(map[model.PasteHash]model.PasteResolution, len(inv.Resolutions))
	for _, r := range inv.Resolutions {
		m.data.pasteStatus[r.Hash] = r
	}
}

// showPastes shows the paste inventory.
func (m *Model) showPastes() {
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

// reloadAll re-reads everything (ctrl+r, or after the editor).
func (m *Model) reloadAll() tea.Cmd {
	m.stale[paneRetention], m.stale[paneFiles], m.stale[paneSecurity] = true, true, true
	// The project list's arrival loads the open project and its sessions.
	return tea.Batch(m.requestHome(homeReq{full: true, openAll: true}), m.requestHistory(historyReq{full: true}), m.lazyLoadCmd())
}

// reload re-reads what a batch of file events changed, and only that.
func (m *Model) reload(c change) tea.Cmd {
	if c.all {
		return m.reloadAll()
	}
	var cmds []tea.Cmd
	switch {
	case c.projects:
		cmds = append(cmds, m.requestHome(homeReq{full: true}))
	case len(c.sessions) > 0 || len(c.memory) > 0:
		cmds = append(cmds, m.requestHome(homeReq{sessions: c.sessions, memory: c.memory}))
	}
	if c.history {
		cmds = append(cmds, m.requestHistory(historyReq{}))
	}
	if c.pastes {
		cmds = append(cmds, m.requestPastes(pasteNames(c)))
	}
	if open := m.data.open; open != "" {
		if c.memory[open] {
			cmds = append(cmds, m.requestProject(open))
		}
		var ids map[string]bool
		for k := range c.sessions {
			if k.slug == open {
				if ids == nil {
					ids = map[string]bool{}
				}
				ids[k.id] = true
			}
		}
		if ids != nil {
			cmds = append(cmds, m.requestSessions(sessionsReq{slug: open, ids: ids}))
		}
	}
	if c.prompt {
		cmds = append(cmds, m.previewCmd(m.prompt.Query()))
	}
	m.lazyChange(c)
	// The Security pane's scan reads all of the home: any change makes
	// it stale.
	m.stale[paneSecurity] = true
	if m.focus == paneSecurity {
		// A scan reads every byte of the home (a second of CPU on a
		// gigabyte): not on every append of a running session. The pane
		// says its scan is older than the home; ctrl+r scans again, and
		// so does coming back to the pane.
		m.security.SetOutdated(true)
		return tea.Batch(cmds...)
	}
	cmds = append(cmds, m.lazyLoadCmd())
	return tea.Batch(cmds...)
}

// lazyPanes is what the lazily read panes can bring up to date without
// reading the home again.
type lazyPanes struct {
	// forecast is the Retention pane's last forecast, which
	// cleanup.Refresh brings up to date from the files in names.
	forecast *cleanup.Forecast
	names    map[string]bool
	// filesSession says the transcript of the session open in the Files
	// pane changed: that session is read again, not the list.
	filesSession bool
}

// maxLazyNames bounds the file names kept for a refresh: past it the
// pane reads the home again.
const maxLazyNames = 4096

// lazyChange notes what a change means to the lazily read panes, which
// read far more than a file event names: the Retention forecast is
// refreshed from the files named (cleanup.Refresh reads those, and the
// whole home only when it must); the Files pane lists its sessions again
// only when file history or the project list changed, and reads its open
// session again when that session's transcript changed. Other changes
// (history, pastes, memory, other sessions) leave it alone.
func (m *Model) lazyChange(c change) {
	lz := m.lazy
	if c.all || len(lz.names)+len(c.names) > maxLazyNames {
		m.stale[paneRetention], m.stale[paneFiles] = true, true
		clear(lz.names)
		return
	}
	if !m.stale[paneRetention] {
		for n := range c.names {
			lz.names[n] = true
		}
	}
	if c.projects {
		m.stale[paneFiles] = true
	}
	cur := m.files.Session()
	for n := range c.names {
		switch {
		case n == model.FileHistoryDir || strings.HasPrefix(n, model.FileHistoryDir+"/"):
			m.stale[paneFiles] = true
		case cur != nil && n == cur.Transcript:
			lz.filesSession = true
		}
	}
}

// lazyLoadCmd reads the focused pane's data when it is stale, or brings
// it up to date from the files that changed (lazyChange): the Retention
// and Files panes are not read at start-up nor on every live reload,
// only when someone looks at them. One Retention read runs at a time;
// what changes meanwhile is read when it is in.
func (m *Model) lazyLoadCmd() tea.Cmd {
	lz := m.lazy
	switch m.focus {
	case paneRetention:
		if m.loading["retention"] {
			return nil
		}
		home, root, now := m.opts.Home, m.root(), m.opts.Now()
		switch {
		case m.stale[paneRetention] || lz.forecast == nil:
			m.stale[paneRetention] = false
			clear(lz.names)
			m.loading["retention"] = true
			return forecastCmd(home, root, now, nil, nil)
		case len(lz.names) > 0:
			names := slices.Sorted(maps.Keys(lz.names))
			clear(lz.names)
			m.loading["retention"] = true
			return forecastCmd(home, root, now, lz.forecast, names)
		}
	case paneFiles:
		switch cur := m.files.Session(); {
		case m.stale[paneFiles]:
			m.stale[paneFiles], lz.filesSession = false, false
			m.loading["files"] = true
			return m.loadFileSessionsCmd()
		case lz.filesSession && cur != nil:
			lz.filesSession = false
			return m.loadFileSessionCmd(string(cur.SessionID), cur.Transcript)
		}
	case paneSecurity:
		if m.stale[paneSecurity] {
			m.stale[paneSecurity] = false
			m.loading["secrets"] = true
			return m.loadSecretsCmd()
		}
	}
	return nil
}
