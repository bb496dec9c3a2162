package ui

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/leftover"
	memlint "github.com/memscope/memscope/engine/lint"
	engineloads "github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/memrows"
	enginepreview "github.com/memscope/memscope/engine/preview"
	enginesessions "github.com/memscope/memscope/engine/sessions"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/markdown"
	"github.com/memscope/memscope/views/index"
	"github.com/memscope/memscope/views/memories"
	"github.com/memscope/memscope/views/replay"
)

// projectLoadedMsg carries what the project panes show, before rendering.
type projectLoadedMsg struct {
	slug   string
	memDir string // fs path of the memory folder
	// absDir is the memory folder on disk; stores are the project's
	// memory stores (its auto memory first, then each agent's) and
	// storeIdx the one read; want is the store that was asked for (a
	// folder, "" for auto memory), to tell a stale load.
	absDir   string
	stores   []model.MemoryStore
	storeIdx int
	want     string
	dir      *model.MemoryDir
	indexRaw []byte
	cap      memindex.IndexCap
	rows     []memories.Row
	problems []model.Problem
	// store edits the memory folder; nil when the home is not on disk.
	store *memstore.Store
	lint  memlint.Report
	plan  *memstore.Plan
	// writable is nil when the store may write the memory folder.
	writable error
	// loads is what the project's sessions loaded; nil when not read.
	loads *engineloads.Report
	// leftovers are what interrupted memscope writes left, in every
	// memory folder of the home and beside the files its restores wrote
	// (the Health pane lists them; C removes them).
	leftovers leftover.Report
}

// renderedMsg carries Markdown rendered for the current widths.
type renderedMsg struct {
	slug        string
	indexWidth  int
	bodyWidth   int
	indexLoaded string
	bodies      map[string]string // by memory file path
	// cache is every text rendered for this message, for the next
	// renderCmd (see renderKey).
	cache map[renderKey]string
}

// renderKey identifies one Markdown rendering: the same text at the same
// width and style renders the same, so a memory folder where one file
// changed renders only that file again.
type renderKey struct {
	text          string
	width         int
	dark, noColor bool
}

// requestProject starts loading a project's memory folder, or queues it
// behind the running load (the newest request wins).
func (m *Model) requestProject(slug string) tea.Cmd {
	if slug == "" {
		return nil
	}
	return m.fl.project.request(m, slug, newest, Model.loadProjectCmd)
}

// projectDone ends a memory folder load and starts the one waiting.
func (m *Model) projectDone() tea.Cmd { return m.fl.project.finish(m, Model.loadProjectCmd) }

// loadProjectCmd reads a project's memory folder and runs the engine over
// it: the index cap, each file's age and staleness, and the scan.
func (m Model) loadProjectCmd(slug string) tea.Cmd {
	m.loading["project"] = true
	fsys, now, homeDir, project, writes, root := m.opts.Home.FS, m.opts.Now(), m.opts.Home.Dir, m.projectPath(slug), m.opts.Writes, m.root()
	th := m.opts.Staleness
	machine, want, getenv, cache := m.opts.Root, m.data.storeDir, m.opts.Getenv, m.loadsCache
	if key := slug + "\x00" + want; m.live.lint == nil || m.live.lintOf != key {
		// One folder's memo: a project or store switch starts another.
		m.live.lint, m.live.lintOf = memlint.NewMemo(), key
	}
	memo := m.live.lint
	return func() tea.Msg {
		memDir := "projects/" + slug + "/memory"
		src := memSource{fsys: fsys, home: fsys, name: memDir, abs: joinAbs(homeDir, memDir), onDisk: homeOnDisk(machine, homeDir), homeDir: homeDir}
		stores, idx := projectStores(root, homeDir, project, src.abs, want, getenv)
		if idx > 0 {
			s := stores[idx]
			src = memSource{fsys: root, home: fsys, name: model.RootName(s.Dir), abs: s.Dir, onDisk: homeOnDisk(machine, s.Dir), unstamped: !s.Stamped, homeDir: homeDir}
		}
		// On disk, the store reads the folder once for everything: the
		// panes, lint, the prune plan and the edits' conflict checks.
		var store *memstore.Store
		var md *model.MemoryDir
		var probs []model.Problem
		if src.onDisk {
			abs := filepath.FromSlash(src.abs)
			store, probs = memstore.Open(abs, memstore.DirFSWith(abs, writes))
			if src.unstamped {
				store.Unstamped()
			}
			md = store.Memory()
		} else {
			md, probs = model.ReadMemoryDir(src.fsys, src.name)
		}
		// The loads are what the cache holds of the transcripts: reading
		// them does not hold up the memory panes. loads.go reads them
		// after this load, and loads the project again if they changed.
		// Loads are the project's: read against its auto memory even when
		// an agent's store is shown (loadsCmd reads the same, so the two
		// agree and the load does not start again).
		loadsMD := md
		if idx > 0 {
			loadsMD, _ = model.ReadMemoryDir(fsys, memDir)
		}
		prev := projectLoads(fsys, root, loadsMD, homeDir, slug, project, getenv, now, cache, true)
		msg := loadProject(src, root, md, probs, slug, project, now, th, prev, memo)
		msg.stores, msg.storeIdx, msg.want = stores, idx, want
		msg.loads = prev
		msg.store = store
		if store != nil {
			msg.writable = store.Writable()
		}
		// The store's plan is the plan of the folder it read (md).
		po := memstore.PruneOptions{Now: now, Unstamped: src.unstamped, Staleness: th, Dupes: memo.Dupes()}
		if prev != nil {
			if ml := prev.MemoryLoads(); ml != nil {
				po.LoadsSince, po.LastLoaded = ml.Since, ml.Last
			}
		}
		plan := memstore.PlanPrune(md, po)
		msg.plan = &plan
		return msg
	}
}

// memSource is the memory folder a project load reads: name through fsys
// (the home's projects/<slug>/memory, or an agent's folder through the
// machine's root), abs on disk.
type memSource struct {
	fsys      fs.FS
	name, abs string
	// home is the home's file system (memscope's journals there).
	home fs.FS
	// onDisk: a store on disk reads and writes it.
	onDisk bool
	// unstamped: the client does not stamp it (agent memory).
	unstamped bool
	// homeDir is the Claude home (its journals, for the leftover search).
	homeDir string
}

// projectStores lists the open project's memory stores: its auto memory
// (the home's folder, auto) then each agent's memory
// (model.FindAgentStores, found the client's way from the project's
// folder), and the index of want (a folder; "" or gone: 0).
func projectStores(root fs.FS, homeDir, project, auto, want string, getenv func(string) string) ([]model.MemoryStore, int) {
	stores := []model.MemoryStore{{Kind: model.StoreAuto, Dir: auto, Label: "project memory (auto memory)", Exists: true, Stamped: true}}
	if strings.HasPrefix(project, "/") {
		mo := model.MemoryOptions{Root: root, HomeDir: homeDir, StartDir: project, Getenv: getenv}
		agents, _ := model.FindAgentStores(model.AgentStoreOptionsFor(mo, model.MemoryLocation{Git: model.FindGitRoot(root, project)}))
		stores = append(stores, agents...)
	}
	for i, s := range stores {
		if want != "" && s.Dir == want {
			return stores, i
		}
	}
	return stores, 0
}

// homeOnDisk reports whether the home folder dir is a folder of the
// machine, as root (Options.Root) shows it: then its memory folders are
// read by a store on disk, which edits write through. A home that is only
// an fs.FS (a test's MapFS under a made-up folder) is not, whatever that
// folder holds on this machine.
func homeOnDisk(root fs.FS, dir string) bool {
	if root == nil {
		return false
	}
	st, err := fs.Stat(root, model.RootName(filepath.ToSlash(dir)))
	return err == nil && st.IsDir()
}

// root is the tree project-side lookups walk: Options.Root with the home
// mounted at its folder (so a home given as its own fs.FS, like the
// demo's, is found where its path says).
func (m Model) root() fs.FS {
	return model.MountFS(m.opts.Root, m.opts.Home.Dir, m.opts.Home.FS)
}

// projectPath is the real folder of the project with this slug, "" when
// the transcripts do not say.
func (m Model) projectPath(slug string) string {
	for _, r := range m.data.projects {
		if r.Project.Slug == slug {
			return r.Project.Path
		}
	}
	return ""
}

// loadProject runs the engine over a memory folder already read: lint,
// the index cap, each file's age and staleness. The project's folder, for
// drift, is read through root (Model.root). memo (may be nil) keeps lint's
// per-file work from the folder's last load.
func loadProject(src memSource, root fs.FS, md *model.MemoryDir, probs []model.Problem, slug, project string, now time.Time, th memindex.StalenessThresholds, loads *engineloads.Report, memo *memlint.Memo) projectLoadedMsg {
	msg := projectLoadedMsg{slug: slug, memDir: src.name, absDir: src.abs, dir: md, problems: probs}
	in := memlint.Input{Memory: md, Problems: probs, Now: now, Unstamped: src.unstamped, Staleness: th, Memo: memo}
	if sub, err := fs.Sub(src.fsys, src.name); err == nil {
		in.MemoryFS = sub
	}
	if project != "" {
		name := model.RootName(filepath.ToSlash(project))
		if st, err := fs.Stat(root, name); err == nil && st.IsDir() {
			in.Project, _ = fs.Sub(root, name)
		}
	}
	// memscope's own leftovers, wherever it writes (the Health pane
	// lists them, as lint does), looked for on every start and reload.
	msg.leftovers = leftover.Find(leftover.Input{Root: root, HomeDir: src.homeDir, MemoryDirs: []string{src.abs}, Now: now})
	in.Leftovers = leftover.LintCopies(msg.leftovers.Items, src.abs)
	in.Interrupted = leftover.LintInterrupted(src.homeDir, msg.leftovers.Interrupted)
	byFile := map[string]*engineloads.Memory{}
	if loads != nil {
		in.Loads = loads.LintFacts()
		for i := range loads.Memories {
			byFile[loads.Memories[i].File] = &loads.Memories[i]
		}
	}
	msg.lint = memlint.Run(in)
	if md.Index != nil {
		msg.indexRaw = md.Index.Bytes()
	}
	msg.cap = memindex.CapIndex(msg.indexRaw)
	// The rows are the engine's (memrows, as `memscope export --memory`
	// prints them), with lint's findings as flags.
	for _, r := range memrows.Build(memrows.Input{Memory: md, Now: now, Lint: &msg.lint, Staleness: th}) {
		msg.rows = append(msg.rows, memories.Row{Row: r, AbsPath: src.abs + "/" + r.File.Path, Loads: byFile[r.File.Path]})
	}
	return msg
}

func joinAbs(homeDir string, parts ...string) string {
	return homeDir + "/" + strings.Join(parts, "/")
}

// renderCmd renders the index and the memory bodies for the current pane
// widths, in the background.
func (m Model) renderCmd() tea.Cmd {
	p := m.data.project
	if p.slug == "" || m.width == 0 {
		return nil
	}
	r, st := m.md, markdown.StyleFor(m.styles.IsDark, m.styles.NoColor)
	dark, noColor := m.styles.IsDark, m.styles.NoColor
	iw, bw := m.index.RenderWidth(), m.memories.BodyWidth()
	loaded := loadedIndexText(p.cap)
	bodies := map[string]string{}
	for _, row := range p.rows {
		bodies[row.File.Path] = row.File.Body
	}
	// The last rendering's cache is only read here: each renderedMsg
	// brings a new one.
	prev := m.rendered
	return func() tea.Msg {
		out := renderedMsg{slug: p.slug, indexWidth: iw, bodyWidth: bw, bodies: map[string]string{}, cache: map[renderKey]string{}}
		render := func(text string, width int) string {
			k := renderKey{text: text, width: width, dark: dark, noColor: noColor}
			s, ok := out.cache[k]
			if !ok {
				if s, ok = prev[k]; !ok {
					s = r.Render(text, width, st)
				}
				out.cache[k] = s
			}
			return s
		}
		if loaded != "" {
			out.indexLoaded = render(loaded, iw)
		}
		for k, body := range bodies {
			out.bodies[k] = render(model.SanitizeForTerminal(body), bw)
		}
		return out
	}
}

// loadedIndexText is the part of MEMORY.md the client loads, without the
// warning it appends.
func loadedIndexText(c memindex.IndexCap) string {
	s := c.Content
	if c.Warning != "" {
		if i := strings.LastIndex(s, c.Warning); i >= 0 {
			s = s[:i]
		}
	}
	return model.SanitizeForTerminal(strings.TrimRight(s, "\n"))
}

// storeLabel names the store p shows when the project has more than one,
// for the Memories and Index panes: "" when there is only auto memory.
func storeLabel(p projectLoadedMsg) string {
	if len(p.stores) < 2 || p.storeIdx >= len(p.stores) {
		return ""
	}
	s := p.stores[p.storeIdx]
	label := "project memory"
	if s.Kind == model.StoreAgent {
		label = "agent " + s.Agent + " (" + model.AgentScopeLabel(s.Scope) + ")"
		if !s.Exists {
			label += ", no memory yet"
		}
	}
	return fmt.Sprintf("%s · store %d/%d · m: next", label, p.storeIdx+1, len(p.stores))
}

// applyProject hands a loaded project to the Index and Memories panes,
// with raw text until the rendered text arrives.
func (m *Model) applyProject(p projectLoadedMsg) {
	m.data.project = p
	m.memories.SetRows(p.rows)
	m.memories.SetStore(storeLabel(p))
	m.health.SetStore(storeLabel(p))
	m.prompt.SetLoads(p.loads)
	m.health.SetData(&p.lint, p.plan)
	m.index.SetData(m.indexData(p, nil))
	m.applyWritable(writableMsg{project: true, err: p.writable})
	m.announceLeftovers(p)
}

// indexData builds the Index pane's data; r is the rendered text, nil
// before rendering.
func (m *Model) indexData(p projectLoadedMsg, r *renderedMsg) index.Data {
	d := index.Data{Cap: p.cap, Exists: p.dir != nil && p.dir.Index != nil}
	if p.dir != nil {
		d.Unread = p.dir.IndexUnread
	}
	if p.dir != nil && p.dir.Exists {
		d.Path = p.absDir + "/" + model.MemoryIndexName
	}
	d.Store = storeLabel(p)
	if r != nil {
		d.Loaded, d.Width = r.indexLoaded, r.indexWidth
	} else {
		d.Loaded = loadedIndexText(p.cap)
	}
	if p.cap.Truncated && p.cap.CutFileLine > 0 {
		lines := strings.Split(strings.ReplaceAll(string(p.indexRaw), "\r\n", "\n"), "\n")
		if p.cap.CutFileLine-1 < len(lines) {
			d.Dropped = lines[p.cap.CutFileLine-1:]
		}
		d.Unseen = unseenNotes(p, d.Dropped)
	}
	return d
}

// applyRendered swaps rendered text in, when it is for the open project.
func (m *Model) applyRendered(r renderedMsg) {
	p := m.data.project
	if r.slug != p.slug {
		return
	}
	m.rendered = r.cache
	rows := make([]memories.Row, len(p.rows))
	copy(rows, p.rows)
	for i := range rows {
		if b, ok := r.bodies[rows[i].File.Path]; ok {
			rows[i].Body = b
		}
	}
	m.memories.SetRows(rows)
	m.index.SetData(m.indexData(p, &r))
}

// requestSessions starts loading the open project's Replay list, or
// queues it behind the running load.
func (m *Model) requestSessions(r sessionsReq) tea.Cmd {
	if r.slug == "" {
		return nil
	}
	return m.fl.sessions.request(m, r, mergeSessions, Model.loadSessionsCmd)
}

// sessionsDone ends a Replay list load and starts the one waiting.
func (m *Model) sessionsDone() tea.Cmd { return m.fl.sessions.finish(m, Model.loadSessionsCmd) }

// loadSessionsCmd lists a project's transcripts with a summary of each
// (records, compactions, time span): all of them, or, when the list is
// that project's, only the sessions whose transcripts changed, each read
// from where its follower stopped.
func (m Model) loadSessionsCmd(r sessionsReq) tea.Cmd {
	fsys := m.opts.Home.FS
	if r.full || m.live.followersOf != r.slug {
		return func() tea.Msg {
			ts, _ := model.FindProjectTranscripts(fsys, r.slug)
			fw := make(map[string]*enginesessions.Follower, len(ts))
			out := make([]replay.Session, len(ts))
			for i, t := range ts {
				fw[t.Path] = enginesessions.NewFollower()
				out[i].File = t
			}
			summarizeSessions(fsys, out, fw)
			return sessionsLoadedMsg{slug: r.slug, sessions: sortSessions(out), followers: fw, mayLoad: true}
		}
	}
	prev, fw := slices.Clone(m.data.sessions), m.live.followers
	return func() tea.Msg {
		var out, changed []replay.Session
		for _, s := range prev {
			if !r.ids[s.File.SessionID] {
				out = append(out, s)
			}
		}
		keep := map[string]bool{}
		for id := range r.ids {
			ts, _ := model.FindSessionTranscripts(fsys, r.slug, id)
			for _, t := range ts {
				keep[t.Path] = true
				if s, ok := unchangedSession(prev, fw[t.Path], t); ok {
					// A transcript of the session that was not written
					// (a subagent's, when the main one was): as it was.
					out = append(out, s)
					continue
				}
				if fw[t.Path] == nil {
					fw[t.Path] = enginesessions.NewFollower()
				}
				changed = append(changed, replay.Session{File: t})
			}
		}
		for p := range fw {
			if s, ok := sessionOf(prev, p); ok && r.ids[s] && !keep[p] {
				delete(fw, p) // the transcript is gone
			}
		}
		mayLoad := summarizeSessions(fsys, changed, fw)
		return sessionsLoadedMsg{slug: r.slug, sessions: sortSessions(append(out, changed...)), followers: fw, mayLoad: mayLoad}
	}
}

// unchangedSession is the row of transcript t in ss when t is listed as
// it was then (sameListing) and its follower read all of it: nothing was
// written to it since.
func unchangedSession(ss []replay.Session, f *enginesessions.Follower, t model.TranscriptFile) (replay.Session, bool) {
	if f == nil || f.Read().Offset != t.Size {
		return replay.Session{}, false
	}
	for _, s := range ss {
		if s.File.Path == t.Path {
			return s, sameListing(s.File, t)
		}
	}
	return replay.Session{}, false
}

// sessionOf is the session id of transcript path in ss.
func sessionOf(ss []replay.Session, path string) (string, bool) {
	for _, s := range ss {
		if s.File.Path == path {
			return s.File.SessionID, true
		}
	}
	return "", false
}

// summarizeSessions brings each session's counts up to date through its
// follower (fw, by path), on as many workers as there are processors.
// mayLoad says a transcript was read from its start or an attachment
// record was read (Follower.Attachments): only then can what the
// sessions loaded have changed.
func summarizeSessions(fsys fs.FS, ss []replay.Session, fw map[string]*enginesessions.Follower) (mayLoad bool) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	var attached atomic.Bool
	for range min(runtime.GOMAXPROCS(0), len(ss)) {
		wg.Go(func() {
			for i := range jobs {
				s := &ss[i]
				f := fw[s.File.Path]
				starts, lines := f.Attachments()
				sum, _ := f.Update(fsys, s.File.Path)
				if s2, l2 := f.Attachments(); s2 != starts || l2 != lines {
					attached.Store(true)
				}
				s.Records, s.Boundaries, s.Micro = sum.Records, sum.CompactBoundaries, sum.MicrocompactBoundaries
				if s.File.MetaPath != "" {
					if meta, err := model.ReadSubagentMeta(fsys, s.File.MetaPath); err == nil {
						s.Agent = meta.Label()
					}
				}
				s.Title, s.Active = f.Title(), enginesessions.LastActive(fsys, s.File)
			}
		})
	}
	for i := range ss {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return attached.Load()
}

// sortSessions orders the Replay list newest first (by path among
// equals, as the transcripts are listed).
func sortSessions(ss []replay.Session) []replay.Session {
	sort.Slice(ss, func(i, j int) bool { return ss[i].File.Path < ss[j].File.Path })
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].File.ModTime.After(ss[j].File.ModTime) })
	return ss
}

// previewMsg carries the prompt preview for a project.
type previewMsg struct {
	project string
	preview *enginepreview.Preview
}

// previewCmd builds what enters the next session's prompt for the open
// project, with recall for query when it is set.
func (m Model) previewCmd(query string) tea.Cmd {
	project := m.previewProject()
	if project == "" || !strings.HasPrefix(project, "/") {
		return nil
	}
	home, now, getenv, root := m.opts.Home, m.opts.Now(), m.opts.Getenv, m.root()
	return func() tea.Msg {
		o := previewOptions(root, home.Dir, project, getenv, now)
		if query != "" {
			o.Queries = []string{query}
		}
		p := enginepreview.Build(o)
		return previewMsg{project: project, preview: &p}
	}
}

// previewOptions are the options of the next session's prompt for
// project, as the Prompt pane builds it.
func previewOptions(root fs.FS, homeDir, project string, getenv func(string) string, now time.Time) enginepreview.Options {
	userHome := getenv("HOME")
	return enginepreview.Options{
		Root:            root,
		HomeDir:         homeDir,
		UserHome:        userHome,
		Project:         project,
		Getenv:          getenv,
		ClaudeJSONPaths: model.ClaudeJSONPaths(homeDir, userHome),
		Now:             now,
	}
}

// noProjectText is what the project panes say in a home where Claude
// Code has not run yet.
const noProjectText = "no project in this home yet: Claude Code has not run here. Run claude in a project folder, then press ctrl+r here (memscope --demo shows the built-in example)."

// showNoProject tells the panes that show a project's data that there is
// none to load, so none of them keeps saying it is reading.
func (m *Model) showNoProject() {
	m.index.SetUnavailable(noProjectText)
	m.memories.SetUnavailable(noProjectText)
	m.replay.SetUnavailable(noProjectText)
	m.health.SetUnavailable(noProjectText)
	m.reviewPane.SetUnavailable(noProjectText)
}

// previewProject is the folder the Prompt pane previews: the open
// project's, else (no project in the home yet) the folder memscope was
// started in, as the CLI's prompt command does.
func (m Model) previewProject() string {
	if m.data.open == "" {
		return m.opts.Project
	}
	return m.data.openPath()
}

// previewOrExplainCmd builds the preview, or, when there is no folder to
// build it for, tells the Prompt pane why, so it never waits for nothing.
func (m *Model) previewOrExplainCmd(query string) tea.Cmd {
	if cmd := m.previewCmd(query); cmd != nil {
		return cmd
	}
	if m.data.open == "" {
		m.prompt.SetUnavailable(noProjectText)
	} else {
		m.prompt.SetUnavailable("no preview: the transcripts of " + m.data.open + " do not say which folder it was started in, and the preview reads that folder's CLAUDE.md files and settings.")
	}
	return nil
}

// unseenNotes says, for each dropped index line that links a memory,
// since when the model has not seen it (by index into dropped).
func unseenNotes(p projectLoadedMsg, dropped []string) map[int]string {
	if p.loads == nil || p.loads.Sessions == 0 || p.dir == nil {
		return nil
	}
	byFile := map[string]engineloads.Memory{}
	for _, mem := range p.loads.Memories {
		byFile[mem.File] = mem
	}
	res := memindex.NewResolver(p.dir)
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
