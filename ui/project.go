package ui

import (
	"fmt"
	"github.com/memscope/memscope/engine/memcheck"
	"github.com/memscope/memscope/views/health"
	"github.com/memscope/memscope/views/prompt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/leftover"
	memlint "github.com/memscope/memscope/engine/lint"
	engineloads "github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/memrows"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/index"
	"github.com/memscope/memscope/views/memories"
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

// requestProject starts loading a project's memory folder, or queues it
// behind the running load (the newest request wins).
func (m *Model) requestProject(slug string) tea.Cmd {
	if slug == "" {
		return nil
	}
	return m.fl.project.request(m, slug, feed.Newest, Model.loadProjectCmd)
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
	userHome := getenv("HOME")
	if key := slug + "\x00" + want; m.live.lint == nil || m.live.lintOf != key {
		// One folder's memo: a project or store switch starts another.
		m.live.lint, m.live.lintOf = memlint.NewMemo(), key
	}
	memo := m.live.lint
	// Only file events say what changed in the home: without live reload
	// the leftover search walks it on every load.
	var walk *leftover.WalkCache
	if m.opts.Watch {
		walk = m.live.walk
	}
	return func() tea.Msg {
		memDir := "projects/" + slug + "/memory"
		src := memSource{fsys: fsys, home: fsys, name: memDir, abs: joinAbs(homeDir, memDir), onDisk: homeOnDisk(machine, homeDir), homeDir: homeDir, walk: walk}
		stores, idx := projectStores(root, homeDir, userHome, slug, project, want, getenv)
		if idx > 0 {
			s := stores[idx]
			src = memSource{fsys: root, home: fsys, name: model.RootName(s.Dir), abs: s.Dir, onDisk: homeOnDisk(machine, s.Dir), unstamped: !s.Stamped, homeDir: homeDir, walk: walk}
		}
		// On disk, the store reads the folder once for everything: the
		// panes, lint, the prune plan and the edits' conflict checks.
		var store *memstore.Store
		var md *model.MemoryDir
		var probs []model.Problem
		if src.onDisk {
			abs := filepath.FromSlash(src.abs)
			store, probs = memstore.Open(abs, memstore.DirFSIn(homeDir, abs, writes))
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
		po := memcheck.Prune(memstore.PruneOptions{Now: now, Staleness: th}, checkRequest(src, root, md, probs, project, now, th, prev, memo))
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
	// homeDir is the Claude home (its journals, for the leftover search);
	// walk keeps that search's walk of the home (nil: none).
	homeDir string
	walk    *leftover.WalkCache
}

// projectStores lists the open project's memory stores
// (projectMemoryStores: its auto memory under the home first) and the
// index of want (a folder; "" or gone: 0).
func projectStores(root fs.FS, homeDir, userHome, slug, project, want string, getenv func(string) string) ([]model.MemoryStore, int) {
	stores, _ := projectMemoryStores(root, homeDir, userHome, slug, project, getenv)
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
func (m Model) projectPath(slug string) string { return m.feeds.home.Path(slug) }

// loadProject runs the engine over a memory folder already read: lint,
// the index cap, each file's age and staleness. The project's folder, for
// drift, is read through root (Model.root). memo (may be nil) keeps lint's
// per-file work from the folder's last load.
func loadProject(src memSource, root fs.FS, md *model.MemoryDir, probs []model.Problem, slug, project string, now time.Time, th memindex.StalenessThresholds, loads *engineloads.Report, memo *memlint.Memo) projectLoadedMsg {
	msg := projectLoadedMsg{slug: slug, memDir: src.name, absDir: src.abs, dir: md, problems: probs}
	in := memcheck.Assemble(checkRequest(src, root, md, probs, project, now, th, loads, memo))
	// memscope's own leftovers, wherever it writes (the Health pane
	// lists them, as lint does), looked for on every start and reload.
	msg.leftovers = in.Leftovers
	byFile := map[string]*engineloads.Memory{}
	if loads != nil {
		for i := range loads.Memories {
			byFile[loads.Memories[i].File] = &loads.Memories[i]
		}
	}
	msg.lint = memlint.Run(in.Lint)
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

// checkRequest is the memory folder a project load read, for the
// engine's memcheck: the same assembly `memscope lint` and `memscope
// prune` make.
func checkRequest(src memSource, root fs.FS, md *model.MemoryDir, probs []model.Problem, project string, now time.Time, th memindex.StalenessThresholds, loads *engineloads.Report, memo *memlint.Memo) memcheck.Request {
	r := memcheck.Request{Memory: md, Problems: probs, MemoryDir: src.abs, Root: root, ProjectDir: project, HomeDir: src.homeDir, Unstamped: src.unstamped, Now: now, Staleness: th, Loads: loads, Memo: memo, Walk: src.walk}
	if sub, err := fs.Sub(src.fsys, src.name); err == nil {
		r.MemoryFS = sub
	}
	return r
}

func joinAbs(homeDir string, parts ...string) string {
	return homeDir + "/" + strings.Join(parts, "/")
}

// storeLabel names the store p shows when the project has more than one,
// for the Memories and Index panes: "" when there is only auto memory.
func storeLabel(p projectLoadedMsg) string {
	if len(p.stores) < 2 || p.storeIdx >= len(p.stores) {
		return ""
	}
	s := p.stores[p.storeIdx]
	label := "project memory"
	switch {
	case p.storeIdx > 0 && s.Kind != model.StoreAgent:
		// The auto memory folder moved out of the home, team memory.
		label = s.Label
	case s.Kind == model.StoreAgent:
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
	m.p.memories, _ = m.p.memories.Update(memories.RowsMsg{Rows: p.rows})
	m.p.memories, _ = m.p.memories.Update(memories.StoreMsg{Label: storeLabel(p)})
	m.p.health, _ = m.p.health.Update(health.StoreMsg{Label: storeLabel(p)})
	m.p.prompt, _ = m.p.prompt.Update(prompt.LoadsMsg{Loads: p.loads})
	m.p.health, _ = m.p.health.Update(health.DataMsg{Lint: &p.lint, Plan: p.plan})
	m.p.index, _ = m.p.index.Update(index.DataMsg{Data: m.indexData(p, nil)})
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
