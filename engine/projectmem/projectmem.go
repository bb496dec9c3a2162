package projectmem

import (
	"github.com/memscope/memscope/engine/memcheck"
	"io/fs"
	"time"

	"github.com/memscope/memscope/engine/leftover"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/engine/provenance"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// Env is the outside world a project's memory is read in.
type Env struct {
	// Root is the machine from "/" with the home (and a materialized
	// demo's project folders) mounted at their paths.
	Root fs.FS
	Home *model.Home
	// UserHome is the user's home folder ("" when unknown).
	UserHome string
	Getenv   func(string) string
	Now      time.Time
	// Writes is the writer a store opened here writes through (nil: the
	// real OS); a read never writes.
	Writes model.WriteFS
	// Loads keeps each transcript's load events between reads (an app's
	// project feed's, shared with its Overview, so the open project's
	// transcripts are read for them once); nil: each Loads reads them.
	Loads *loads.Cache
}

// PreviewOptions are the preview.Build options of project (absolute) as
// every command that reads what enters a session's prompt starts them:
// the file system root, the user's home, the environment, the clock, and
// the .claude.json files the client reads (the home's own only when it
// was named: --home, $CLAUDE_CONFIG_DIR, the demo).
func (e Env) PreviewOptions(project string) preview.Options {
	configDir := ""
	if e.Home.Source != model.HomeFromDefault {
		configDir = e.Home.Dir
	}
	return preview.Options{
		Root:            e.Root,
		HomeDir:         e.Home.Dir,
		UserHome:        e.UserHome,
		Project:         project,
		Getenv:          e.Getenv,
		ClaudeJSONPaths: model.ClaudeJSONPaths(configDir, e.UserHome),
		Now:             e.Now,
	}
}

// Preview builds the next session's prompt for project (absolute), as
// `memscope prompt` shows it; set, when given, sets the options a caller
// adds (queries, --at, --add-dir, …).
func (e Env) Preview(project string, set func(*preview.Options)) preview.Preview {
	o := e.PreviewOptions(project)
	if set != nil {
		set(&o)
	}
	return preview.Build(o)
}

// Target is a project's memory folder opened for reading (and, through
// its store, writing), and the project tree drift is checked against.
type Target struct {
	Env
	// Project is the project's folder (absolute); Tree its root for
	// drift: the git root, else the folder.
	Project string
	Tree    string
	// Loc is where the memory folder is and why.
	Loc model.MemoryLocation
	// Kind is the store: auto memory, or an agent's.
	Kind  model.MemoryStore
	Store *memstore.Store
}

// Open resolves the memory folder of project (absolute) the way the
// client does (settings, overrides, git root and worktrees) and opens a
// store on it: the project's auto memory.
func (e Env) Open(project string) *Target {
	settings, _ := model.LoadSettings(e.Root, e.Home.Dir, project, model.ManagedDir)
	loc := model.ResolveMemoryLocation(model.MemoryOptions{
		Root: e.Root, HomeDir: e.Home.Dir, UserHome: e.UserHome, StartDir: project, Getenv: e.Getenv, Settings: settings,
	})
	store, _ := memstore.Open(loc.Dir, memstore.DirFSIn(e.Home.Dir, loc.Dir, e.Writes))
	auto := model.MemoryStore{Kind: model.StoreAuto, Dir: loc.Dir, Label: "project memory (auto memory)", Stamped: true}
	t := &Target{Env: e, Project: project, Tree: project, Loc: loc, Kind: auto, Store: store}
	if loc.Git.Root != "" {
		t.Tree = loc.Git.Root
	}
	return t
}

// AgentStores are the project's agent memory stores, found the client's
// way (model.FindAgentStores).
func (t *Target) AgentStores() []model.MemoryStore {
	mo := model.MemoryOptions{Root: t.Root, HomeDir: t.Home.Dir, StartDir: t.Project, Getenv: t.Getenv}
	stores, _ := model.FindAgentStores(model.AgentStoreOptionsFor(mo, t.Loc))
	return stores
}

// Loads reads what the transcripts of the project (its startup folder's
// projects/ folder) say was loaded, against the next session's rules and
// imports, over the last days days (loads.DefaultDays when 0).
func (t *Target) Loads(days int) loads.Report {
	slug, ok := model.FindProjectDir(t.Home.FS, t.Project)
	if !ok {
		slug = ""
	}
	p := t.Preview(t.Project, nil)
	r := loads.Build(loads.Options{HomeDir: t.Home.Dir, Home: t.Home.FS, Slug: slug, Root: t.Root, Memory: t.Store.Memory(),
		MemoryDir: t.Loc.Dir, Preview: &p, Now: t.Now, Days: days, Cache: t.Env.Loads})
	if !ok {
		r.Slug = model.Slug(t.Project)
	}
	return r
}

// LintInput is the lint input for the target's memory as the store read
// it, with the leftovers of interrupted memscope writes: in every memory
// folder of the home, and beside the files its restores wrote; and what
// the transcripts say was loaded over loads.DefaultDays.
func (t *Target) LintInput(th memindex.StalenessThresholds) (lint.Input, leftover.Report) {
	l := t.Loads(loads.DefaultDays)
	in := memcheck.Assemble(memcheck.Request{
		Memory:   t.Store.Memory(),
		Problems: t.Store.Problems(),
		// The memory folder is read where the store reads and writes it.
		MemoryFS:   model.MemoryFS(t.Home.Dir, t.Loc.Dir),
		MemoryDir:  t.Loc.Dir,
		Root:       t.Root,
		ProjectDir: t.Tree,
		HomeDir:    t.Home.Dir,
		// The client does not stamp agent memory.
		Unstamped: !t.Kind.Stamped,
		Now:       t.Now,
		Staleness: th,
		Loads:     &l,
	})
	return in.Lint, in.Leftovers
}

// Provenance is where every memory file of the project came from
// (origin, review): the whole home's transcripts scanned for calls on its
// memory folders, and memscope's journals. cache (nil: none) lets a
// caller that looks again after its writes read no transcript twice.
func (t *Target) Provenance(cache *provenance.FirstCache) provenance.Project {
	return provenance.ForProject(provenance.ProjectOptions{
		Root: t.Root, Home: t.Home.FS, HomeDir: t.Home.Dir, MemoryDir: t.provenanceDir(), Tree: t.Tree, Cache: cache,
	})
}

// provenanceDir is the auto memory folder Provenance looks for ("" when
// memory is off and the folder does not exist).
func (t *Target) provenanceDir() string {
	if t.Loc.Enabled || t.Store.Memory().Exists {
		return t.Loc.Dir
	}
	return ""
}

// ProvenanceFolders are the folders Provenance looks for calls on.
func (t *Target) ProvenanceFolders() []provenance.Folder {
	return provenance.ProjectFolders(t.Home.Dir, t.provenanceDir(), t.Tree)
}

// ReviewFS is the memory folder as the review state is read and written:
// through the target's writer (the atomic writer, with its fault seam),
// like every memory write.
func (t *Target) ReviewFS() memstore.FS {
	return memstore.DirFSIn(t.Home.Dir, t.Loc.Dir, t.Writes)
}
