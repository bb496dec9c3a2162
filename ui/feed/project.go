package feed

import (
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/leftover"
	memlint "github.com/memscope/memscope/engine/lint"
	engineloads "github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/engine/memcheck"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/memrows"
	enginepreview "github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/engine/provenance"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/memories"
)

// Project feeds the open project's panes (Index, Memories, Health, the
// Prompt pane's loads): one memory store of the project read (its auto
// memory, or the store asked for with SetStore), linted, its prune
// planned once the Health pane was shown (ShowPlan), with what the
// project's transcripts say was loaded. One load
// runs at a time (Flight), the newest request waiting. It keeps lint's
// per-file work on the folder (a memo), the leftover search's walk of
// the home (until a file event says it may differ) and the loads' cache
// of each transcript, so a reload reads only what changed.
type Project struct {
	env    ProjectEnv
	home   *Home
	flight Flight[string]
	// want is the store asked for: a folder, "" for the project's auto
	// memory under the home.
	want string
	// lint remembers per-file lint work on the open store; lintOf is the
	// project and the store it is of (slug, NUL, folder).
	lint   *memlint.Memo
	lintOf string
	walk   *leftover.WalkCache
	loads  *engineloads.Cache
	cur    ProjectLoaded
	// asked is the transcripts' loads a load was last requested for
	// (LoadsDone), while that load runs or waits (loadsasked.go).
	asked *LoadsRead
	// early is a loads read held for the running load (loadsasked.go).
	early earlyRead
	// review keeps each transcript's provenance first pass, so the
	// review inbox after a memory change reads only what changed;
	// reviewGen numbers the inbox's loads; unreviewed counts the open
	// project's memories to review (-1 until read after a switch).
	review     *provenance.FirstCache
	reviewGen  int
	unreviewed int
	// planShown says the Health pane was on screen: from then on a load
	// plans the prune too (before, most starts never show it); planning
	// is the folder read a plan is being made for (ShowPlan).
	planShown bool
	planning  *model.MemoryDir
	// countsShown says the Projects pane was on screen: from then on the
	// home's review counts (CountsCmd), which only it shows, are counted;
	// counts are the last counted (Counted).
	countsShown bool
	counts      map[string]int
	// held is the listing the readers share while there is one (ListFrom).
	held func(*model.Home) *model.Home
}

// ProjectEnv is what a project load reads through and writes with.
type ProjectEnv struct {
	Home *model.Home
	// Machine is the machine's file system from "/" (nil: nothing but
	// the home, as tests want).
	Machine fs.FS
	Writes  model.WriteFS
	Getenv  func(string) string
	Now     func() time.Time
	// Staleness are the thresholds of the memories' ages.
	Staleness memindex.StalenessThresholds
	// Watch says file events tell what changed: without them the
	// leftover search walks the home on every load.
	Watch bool
	// Cache keeps the review's first passes across runs (nil: none);
	// GateLog is the gate's record ("" for none).
	Cache   *diskcache.Store
	GateLog string
}

// NewProject returns the feed of the project open in home's list.
func NewProject(env ProjectEnv, home *Home) *Project {
	dir := ""
	if env.Home != nil {
		dir = env.Home.Dir
	}
	return &Project{env: env, home: home, walk: leftover.NewWalkCacheOn(env.Cache), loads: engineloads.NewCacheOn(env.Cache, dir), review: provenance.NewFirstCacheOn(env.Cache, dir)}
}

// ProjectLoaded is a memory store of a project read, before rendering.
type ProjectLoaded struct {
	Slug   string
	MemDir string // fs path of the memory folder
	// AbsDir is the memory folder on disk; Stores are the project's
	// memory stores (its auto memory first, then each agent's) and
	// StoreIdx the one read; Want is the store that was asked for (a
	// folder, "" for auto memory), to tell a stale load.
	AbsDir   string
	Stores   []model.MemoryStore
	StoreIdx int
	Want     string
	Dir      *model.MemoryDir
	IndexRaw []byte
	Cap      memindex.IndexCap
	Rows     []memories.Row
	Problems []model.Problem
	// Store edits the memory folder; nil when the home is not on disk.
	Store *memstore.Store
	Lint  memlint.Report
	// Plan is the prune plan of the folder, nil until the Health pane
	// was first shown (Project.ShowPlan).
	Plan *memstore.Plan
	// Writable is nil when the store may write the memory folder.
	Writable error
	// Loads is what the project's sessions loaded; nil when not read.
	Loads *engineloads.Report
	// Project is the project's folder ("" when the transcripts do not
	// say); Preview the next session's prompt for it, which the loads
	// were read against (nil without a folder).
	Project string
	Preview *enginepreview.Preview
	// Leftovers are what interrupted memscope writes left, in every
	// memory folder of the home and beside the files its restores wrote
	// (the Health pane lists them; C removes them).
	Leftovers leftover.Report
	// at is the load's clock and unstamped says the client does not
	// stamp the store (agent memory): the plan's options.
	at        time.Time
	unstamped bool
}

// LoadsRead is what a project's transcripts say was loaded.
type LoadsRead struct {
	slug   string
	report *engineloads.Report
}

// Cur is the project load last taken (Loaded).
func (p *Project) Cur() *ProjectLoaded { return &p.cur }

// Loading reports whether a load runs.
func (p *Project) Loading() bool { return p.flight.Running() }

// Store is the store asked for: a folder, "" for the auto memory.
func (p *Project) Store() string { return p.want }

// SetStore asks for the store at dir ("" the auto memory) from the next
// load on.
func (p *Project) SetStore(dir string) { p.want = dir }

// Walk is the leftover search's walk of the home, which hears of every
// LoadsCache keeps the open project's transcripts' load events (the
// Overview's lint reads them through it too: once for both).
func (p *Project) LoadsCache() *engineloads.Cache { return p.loads }

// ReviewCache is the review inbox's first-pass cache, which the Overview's
// review line shares so the app reads each transcript for it once.
func (p *Project) ReviewCache() *provenance.FirstCache { return p.review }

// file event (ReloadAll forgets it).
func (p *Project) Walk() *leftover.WalkCache { return p.walk }

// Request loads project slug's store, or queues it behind the running
// load (the newest request wins); nil for no project.
func (p *Project) Request(slug string) tea.Cmd {
	if slug == "" || !p.flight.Start(slug, Newest) {
		return nil
	}
	return p.load(slug)
}

// Loaded ends a load and starts the one waiting. ok says the load is of
// the open project and the store asked for: then it is kept (Cur) and
// the panes are to show it; otherwise the user moved on.
func (p *Project) Loaded(msg ProjectLoaded, open string) (ok bool, next tea.Cmd) {
	if r, waiting := p.flight.Done(); waiting {
		next = p.load(r)
	} else {
		p.asked = nil
	}
	next = tea.Batch(next, p.earlyLoads())
	if msg.Slug != open || msg.Want != p.want {
		return false, next
	}
	p.cur = msg
	return true, tea.Batch(next, p.planCmd())
}

// PlanMade is the prune plan of a load's folder (ShowPlan).
type PlanMade struct {
	dir  *model.MemoryDir
	plan memstore.Plan
}

// ShowPlan says the Health pane is on screen: the prune plan, which only
// it shows (and applies), is made from then on: now for the load in hand
// when it has none, and by every load after.
func (p *Project) ShowPlan() tea.Cmd {
	p.planShown = true
	return p.planCmd()
}

// planCmd makes the plan of the load in hand when the Health pane was
// shown and the load has none, unless one is being made for it.
func (p *Project) planCmd() tea.Cmd {
	c := &p.cur
	if !p.planShown || c.Plan != nil || c.Dir == nil || p.planning == c.Dir {
		return nil
	}
	p.planning = c.Dir
	md, loads, unstamped, at, th := c.Dir, c.Loads, c.unstamped, c.at, p.env.Staleness
	var memo *memlint.Memo
	if p.lintOf == c.Slug+"\x00"+c.Want {
		memo = p.lint
	}
	return func() tea.Msg { return PlanMade{dir: md, plan: *planOf(md, loads, memo, unstamped, at, th)} }
}

// PlanMade takes a plan: ok says it is of the load in hand (the Health
// pane is then handed Cur().Plan).
func (p *Project) PlanMade(msg PlanMade) (ok bool) {
	if p.planning == msg.dir {
		p.planning = nil
	}
	if msg.dir != p.cur.Dir || p.cur.Plan != nil {
		return false
	}
	p.cur.Plan = &msg.plan
	return true
}

// planOf is the prune plan of a memory folder read, as `memscope prune`
// plans it (memcheck.Prune completes the options with the loads, lint's
// near-duplicate index and whether the folder is stamped).
func planOf(md *model.MemoryDir, loads *engineloads.Report, memo *memlint.Memo, unstamped bool, now time.Time, th memindex.StalenessThresholds) *memstore.Plan {
	po := memcheck.Prune(memstore.PruneOptions{Now: now, Staleness: th}, memcheck.Request{Loads: loads, Memo: memo, Unstamped: unstamped})
	plan := memstore.PlanPrune(md, po)
	return &plan
}

// root is the tree project-side lookups walk (Mount).
func (e ProjectEnv) root() fs.FS { return Mount(e.Machine, e.Home) }

// Mount is the machine's tree with the home mounted at its folder (so a
// home given as its own fs.FS, like the demo's, is found where its path
// says).
func Mount(machine fs.FS, home *model.Home) fs.FS { return model.MountFS(machine, home.Dir, home.FS) }

// load reads a project's memory store and runs the engine over it: the
// index cap, each file's age and staleness, lint and (once Health was
// shown) the prune plan.
func (p *Project) load(slug string) tea.Cmd {
	p.early.loading = slug
	e := p.env
	fsys, now, homeDir, project, writes, root := e.Home.FS, e.Now(), e.Home.Dir, p.home.Path(slug), e.Writes, e.root()
	th, machine, want, getenv, cache, withPlan := e.Staleness, e.Machine, p.want, e.Getenv, p.loads, p.planShown
	userHome := getenv("HOME")
	if key := slug + "\x00" + want; p.lint == nil || p.lintOf != key {
		// One folder's memo: a project or store switch starts another.
		// It keeps its work in the app's cache, under the same key.
		p.lint, p.lintOf = memlint.NewMemoOn(e.Cache, homeDir, key), key
	}
	memo := p.lint
	loadsHome, listed := p.heldOr(), p.heldHome()
	// Only file events say what changed in the home: without live reload
	// the leftover search walks it on every load.
	var walk *leftover.WalkCache
	if e.Watch {
		walk = p.walk
	}
	return func() tea.Msg {
		memDir := "projects/" + slug + "/memory"
		src := memSource{fsys: fsys, home: fsys, name: memDir, abs: JoinAbs(homeDir, memDir), onDisk: HomeOnDisk(machine, homeDir), homeDir: homeDir, walk: walk, listed: listed}
		stores, idx := projectStores(root, homeDir, userHome, slug, project, want, getenv)
		if idx > 0 {
			s := stores[idx]
			src = memSource{fsys: root, home: fsys, name: model.RootName(s.Dir), abs: s.Dir, onDisk: HomeOnDisk(machine, s.Dir), unstamped: !s.Stamped, homeDir: homeDir, walk: walk, listed: listed}
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
		// them does not hold up the memory panes. LoadsCmd reads them
		// after this load, and the project loads again if they changed.
		// Loads are the project's: read against its auto memory even when
		// an agent's store is shown (LoadsCmd reads the same, so the two
		// agree and the load does not start again).
		loadsMD := md
		if idx > 0 {
			loadsMD, _ = model.ReadMemoryDir(fsys, memDir)
		}
		// The next session's prompt, as the Prompt pane shows it (the
		// pane and the Overview take it): built as `memscope prompt`
		// builds it, reading the memory folder where it resolves.
		var preview *enginepreview.Preview
		if strings.HasPrefix(project, "/") {
			p := enginepreview.Build(PreviewOptions(root, e.Home, project, getenv, now))
			preview = &p
		}
		prev := projectLoads(loadsHome, root, loadsMD, slug, project, getenv, now, cache, true, preview)
		msg := loadProject(src, root, md, probs, slug, project, now, th, prev, memo)
		msg.Stores, msg.StoreIdx, msg.Want = stores, idx, want
		msg.Loads, msg.Project, msg.Preview = prev, project, preview
		msg.Store, msg.at, msg.unstamped = store, now, src.unstamped
		if store != nil {
			msg.Writable = store.Writable()
		}
		// The store's plan is the plan of the folder it read (md), once
		// the Health pane was shown.
		if withPlan {
			msg.Plan = planOf(md, prev, memo, src.unstamped, now, th)
		}
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
	// listed is the home's held listing of the moment (Project.heldHome;
	// nil: none), whose folders that walk takes when unchanged.
	listed fs.FS
}

// projectStores lists the open project's memory stores
// (ProjectMemoryStores: its auto memory under the home first) and the
// index of want (a folder; "" or gone: 0).
func projectStores(root fs.FS, homeDir, userHome, slug, project, want string, getenv func(string) string) ([]model.MemoryStore, int) {
	stores, _ := ProjectMemoryStores(root, homeDir, userHome, slug, project, getenv)
	for i, s := range stores {
		if want != "" && s.Dir == want {
			return stores, i
		}
	}
	return stores, 0
}

// HomeOnDisk reports whether the home folder dir is a folder of the
// machine, as root shows it: then its memory folders are read by a store
// on disk, which edits write through. A home that is only an fs.FS (a
// test's MapFS under a made-up folder) is not, whatever that folder
// holds on this machine.
func HomeOnDisk(root fs.FS, dir string) bool {
	if root == nil {
		return false
	}
	st, err := fs.Stat(root, model.RootName(filepath.ToSlash(dir)))
	return err == nil && st.IsDir()
}

// loadProject runs the engine over a memory folder already read: lint,
// the index cap, each file's age and staleness. The project's folder, for
// drift, is read through root. memo (may be nil) keeps lint's per-file
// work from the folder's last load.
func loadProject(src memSource, root fs.FS, md *model.MemoryDir, probs []model.Problem, slug, project string, now time.Time, th memindex.StalenessThresholds, loads *engineloads.Report, memo *memlint.Memo) ProjectLoaded {
	msg := ProjectLoaded{Slug: slug, MemDir: src.name, AbsDir: src.abs, Dir: md, Problems: probs}
	in := memcheck.Assemble(checkRequest(src, root, md, probs, project, now, th, loads, memo))
	// memscope's own leftovers, wherever it writes (the Health pane
	// lists them, as lint does), looked for on every start and reload.
	msg.Leftovers = in.Leftovers
	byFile := map[string]*engineloads.Memory{}
	if loads != nil {
		for i := range loads.Memories {
			byFile[loads.Memories[i].File] = &loads.Memories[i]
		}
	}
	msg.Lint = memlint.Run(in.Lint)
	if md.Index != nil {
		msg.IndexRaw = md.Index.Bytes()
	}
	msg.Cap = memindex.CapIndex(msg.IndexRaw)
	// The rows are the engine's (memrows, as `memscope export --memory`
	// prints them), with lint's findings as flags.
	for _, r := range memrows.Build(memrows.Input{Memory: md, Now: now, Lint: &msg.Lint, Staleness: th}) {
		msg.Rows = append(msg.Rows, memories.Row{Row: r, AbsPath: src.abs + "/" + r.File.Path, Loads: byFile[r.File.Path]})
	}
	return msg
}

// checkRequest is the memory folder a project load read, for the
// engine's memcheck: the same assembly `memscope lint` and `memscope
// prune` make.
func checkRequest(src memSource, root fs.FS, md *model.MemoryDir, probs []model.Problem, project string, now time.Time, th memindex.StalenessThresholds, loads *engineloads.Report, memo *memlint.Memo) memcheck.Request {
	r := memcheck.Request{Memory: md, Problems: probs, MemoryDir: src.abs, Root: root, ProjectDir: project, HomeDir: src.homeDir, Unstamped: src.unstamped, Now: now, Staleness: th, Loads: loads, Memo: memo, Walk: src.walk, Listed: src.listed}
	if sub, err := fs.Sub(src.fsys, src.name); err == nil {
		r.MemoryFS = sub
	}
	return r
}

// JoinAbs joins slash-separated parts under the home folder homeDir.
func JoinAbs(homeDir string, parts ...string) string {
	return homeDir + "/" + strings.Join(parts, "/")
}

// LoadsDone loads the project again when the transcripts say something
// the open project's panes, lint and prune plan do not have yet (that
// load finds the new events in the cache, and its own loads read then
// finds nothing new). When they say what the project's loads say, a load
// that took them from the cache before they were read is complete now
// (ProjectLoaded.LoadsComplete): what it computed is what it would
// compute again.
func (p *Project) LoadsDone(msg LoadsRead, open string) tea.Cmd {
	if msg.slug != open || p.before(msg) {
		return nil
	}
	if p.cur.Slug == msg.slug && sameLoads(p.cur.Loads, msg.report) {
		if !p.cur.LoadsComplete() {
			p.cur.Loads = msg.report
		}
		return nil
	}
	if p.askedFor(msg) {
		return nil
	}
	return p.Request(msg.slug)
}
