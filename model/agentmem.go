package model

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// AgentMemoryScope is where an agent keeps its memory: the `memory:`
// value of its definition's frontmatter.
type AgentMemoryScope string

// The scopes (FORMATS.md, "Agent memory").
const (
	// AgentScopeUser is <memory base>/agent-memory/<agentType>/ ($H, or
	// CLAUDE_CODE_REMOTE_MEMORY_DIR which replaces it for memory).
	AgentScopeUser AgentMemoryScope = "user"
	// AgentScopeProject is <startup dir>/.claude/agent-memory/<agentType>/,
	// checked in with the project.
	AgentScopeProject AgentMemoryScope = "project"
	// AgentScopeLocal is <startup dir>/.claude/agent-memory-local/<agentType>/
	// (with CLAUDE_CODE_REMOTE_MEMORY_DIR: <remote>/projects/<slug(git root
	// or startup dir)>/agent-memory-local/<agentType>/), not checked in.
	AgentScopeLocal AgentMemoryScope = "local"
)

// AgentScopes are the scopes in the order memscope lists them.
var AgentScopes = []AgentMemoryScope{AgentScopeUser, AgentScopeProject, AgentScopeLocal}

// ParseAgentMemoryScope reads a `memory:` value; ok is false for anything
// but user, project and local.
func ParseAgentMemoryScope(s string) (AgentMemoryScope, bool) {
	for _, sc := range AgentScopes {
		if s == string(sc) {
			return sc, true
		}
	}
	return "", false
}

// AgentFolderName is the folder an agent type's memory lives in: the
// client replaces ":" (plugin agents, "plugin:agent") with "-".
func AgentFolderName(agentType string) string {
	return strings.ReplaceAll(agentType, ":", "-")
}

// AgentDefinition is one agent file: $H/agents/**/*.md (user) or
// .claude/agents/**/*.md of the startup folder and its parents up to the
// git root (project).
type AgentDefinition struct {
	// Type is the agent type: the frontmatter's name.
	Type string `json:"type"`
	// Path is the file (absolute).
	Path string `json:"path"`
	// Source is where the definition lives: user or project.
	Source AgentMemoryScope `json:"source"`
	// Memory is the scope of its memory; "" when it keeps none.
	Memory AgentMemoryScope `json:"memory,omitempty"`
}

// AgentDefinitionOptions say where agent definitions are looked for. Root
// is an fs.FS rooted at "/"; the paths are absolute; "" skips that side.
type AgentDefinitionOptions struct {
	Root    fs.FS
	HomeDir string
	// StartDir is the startup folder; StopDir the highest folder whose
	// .claude/agents is read (the git root); "" reads StartDir's only.
	StartDir string
	StopDir  string
	// memo keeps the folders' answers for one HomeMemoryStores call
	// (nil: read each).
	memo *storeMemo
}

// maxAgentFiles bounds how many agent files one folder gives (a real
// project has a handful).
const maxAgentFiles = 1000

// ReadAgentDefinitions reads the agent files that apply to a session
// started in o.StartDir: the project's first (the folder nearest the
// startup folder first), then the user's. A file without a name, with
// invalid frontmatter or with a `memory:` value the client rejects is
// reported; an agent type defined twice keeps its first definition, as
// the client lets the project's win.
func ReadAgentDefinitions(o AgentDefinitionOptions) ([]AgentDefinition, []Problem) {
	root := orEmpty(o.Root)
	var out []AgentDefinition
	var probs []Problem
	seen := map[string]bool{}
	read := func(dir string, source AgentMemoryScope) {
		defs, p := o.memo.readAgentFolder(root, dir, source)
		probs = append(probs, p...)
		for _, d := range defs {
			if !seen[d.Type] {
				seen[d.Type] = true
				out = append(out, d)
			}
		}
	}
	if o.StartDir != "" {
		for _, dir := range foldersUpTo(o.StartDir, o.StopDir) {
			read(path.Join(dir, ".claude", "agents"), AgentScopeProject)
		}
	}
	if o.HomeDir != "" {
		read(path.Join(o.HomeDir, "agents"), AgentScopeUser)
	}
	return out, probs
}

// foldersUpTo lists start and its parents up to stop (included), nearest
// first; only start when stop is "" or not above it.
func foldersUpTo(start, stop string) []string {
	start, out := path.Clean(start), []string{path.Clean(start)}
	if stop == "" {
		return out
	}
	stop = path.Clean(stop)
	if start != stop && !strings.HasPrefix(start, strings.TrimSuffix(stop, "/")+"/") {
		return out
	}
	for d := start; d != stop && d != "/"; {
		d = path.Dir(d)
		out = append(out, d)
	}
	return out
}

// readAgentFolder reads the agent files under dir (sub-folders organise
// them; the name, not the file, is the type), sorted by path.
func readAgentFolder(root fs.FS, dir string, source AgentMemoryScope) ([]AgentDefinition, []Problem) {
	base := RootName(dir)
	if st, err := fs.Stat(root, base); err != nil || !st.IsDir() {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, []Problem{{File: dir, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read agent definitions: %v", err)}}
		}
		return nil, nil
	}
	var names []string
	var probs []Problem
	_ = fs.WalkDir(root, base, func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			probs = append(probs, Problem{File: RootPath(name), Kind: ProblemUnreadable, Reason: fmt.Sprintf("read agent definitions: %v", err)})
			return nil
		case d.IsDir() && name != base && strings.HasPrefix(d.Name(), "."):
			return fs.SkipDir
		case d.IsDir() || !strings.HasSuffix(d.Name(), ".md"):
			return nil
		case len(names) >= maxAgentFiles:
			return fs.SkipAll
		}
		names = append(names, name)
		return nil
	})
	sort.Strings(names)
	var out []AgentDefinition
	for _, name := range names {
		abs := RootPath(name)
		data, err := ReadFileBounded(root, name, MaxDocumentBytes)
		if err != nil {
			probs = append(probs, Problem{File: abs, Kind: ProblemUnreadable, Reason: err.Error()})
			continue
		}
		def, prob := ParseAgentDefinition(abs, data)
		if prob != nil {
			probs = append(probs, *prob)
		}
		if def.Type != "" {
			def.Source = source
			out = append(out, def)
		}
	}
	return out, probs
}

// ParseAgentDefinition reads an agent file's frontmatter: name (the agent
// type) and memory. The definition has no Type when the file names none;
// an invalid `memory:` value is reported and read as no memory (the
// client's schema rejects it).
func ParseAgentDefinition(file string, data []byte) (AgentDefinition, *Problem) {
	def := AgentDefinition{Path: file}
	fm, prob := ParseFrontmatter(file, data)
	if prob != nil {
		return def, prob
	}
	if _, v := mapValue(fm.Root, "name"); v != nil && v.Kind == yaml.ScalarNode {
		def.Type = strings.TrimSpace(v.Value)
	}
	if def.Type == "" {
		return def, &Problem{File: file, Line: max(fm.FirstLine, 1), Kind: ProblemInvalidFrontmatter, Reason: "agent definition has no name (its agent type)"}
	}
	k, v := mapValue(fm.Root, "memory")
	if v == nil || (v.Kind == yaml.ScalarNode && v.Tag == "!!null") {
		return def, nil
	}
	sc, ok := ParseAgentMemoryScope(strings.TrimSpace(v.Value))
	if v.Kind != yaml.ScalarNode || !ok {
		return def, &Problem{File: file, Line: fm.FirstLine + k.Line - 1, Kind: ProblemInvalidFrontmatter,
			Reason: fmt.Sprintf("agent %s: memory %q is not one of user, project, local (the client ignores the definition's memory)", def.Type, v.Value)}
	}
	def.Memory = sc
	return def, nil
}

// StoreKind says which kind of memory folder a MemoryStore is.
type StoreKind string

// The kinds of memory store.
const (
	// StoreAuto is the project's auto memory (ResolveMemoryLocation).
	StoreAuto StoreKind = "auto"
	// StoreAgent is an agent's memory.
	StoreAgent StoreKind = "agent"
	// StoreTeam is an auto memory folder's team/ (shared team memory).
	StoreTeam StoreKind = "team"
)

// MemoryStore is one memory folder that belongs to a project: its auto
// memory, or an agent's memory in one scope. Every store is a MEMORY.md
// index plus topic files, capped and loaded the same way.
type MemoryStore struct {
	Kind StoreKind `json:"kind"`
	// Agent is the agent type; Scope where its memory lives.
	Agent string           `json:"agent,omitempty"`
	Scope AgentMemoryScope `json:"scope,omitempty"`
	// Dir is the folder (absolute).
	Dir string `json:"dir"`
	// Label says what the store is, for people.
	Label string `json:"label"`
	// Definition is the agent file declaring this memory; "" when the
	// folder is on disk but no definition that applies declares it (a
	// removed agent, or one whose scope changed).
	Definition string `json:"definition,omitempty"`
	// Exists says whether the folder is there (a declared agent that has
	// not run yet has none).
	Exists bool `json:"exists"`
	// Stamped says whether the client stamps what it writes here
	// (node_type, originSessionId, modified): auto memory yes, agent
	// memory no (the agent writes its files with the Write tool).
	Stamped bool `json:"stamped"`
}

// ID names the store for --agent and for people: "memory" for auto
// memory, "<agent>@<scope>" for an agent's.
func (s MemoryStore) ID() string {
	switch s.Kind {
	case StoreAuto:
		return "memory"
	case StoreTeam:
		return "team"
	}
	return s.Agent + "@" + string(s.Scope)
}

// Matches reports whether sel (an agent type, or "<agent>@<scope>")
// names this agent store.
func (s MemoryStore) Matches(sel string) bool {
	if s.Kind != StoreAgent {
		return sel == "memory" && s.Kind == StoreAuto
	}
	name, scope, scoped := strings.Cut(sel, "@")
	if scoped && scope != string(s.Scope) {
		return false
	}
	return name == s.Agent || name == AgentFolderName(s.Agent)
}

// AgentStoreOptions say where a project's agent memory lives. Root is an
// fs.FS rooted at "/"; paths are absolute.
type AgentStoreOptions struct {
	Root fs.FS
	// HomeDir is $H (user agent definitions); Base the memory base ($H,
	// or CLAUDE_CODE_REMOTE_MEMORY_DIR when set; "" means HomeDir).
	HomeDir string
	Base    string
	// Remote is set when CLAUDE_CODE_REMOTE_MEMORY_DIR moved memory:
	// local agent memory then lives under Base/projects/<slug>/.
	Remote bool
	// StartDir is the project's startup folder ("" lists user scope
	// only); GitRoot its canonical git root (a worktree's main
	// repository) and Checkout the folder holding its .git, "" when not
	// in git.
	StartDir string
	GitRoot  string
	Checkout string
	// Definitions are the agent files that apply (ReadAgentDefinitions);
	// nil reads them.
	Definitions []AgentDefinition
	// memo keeps the folders' answers for one HomeMemoryStores call
	// (nil: read each).
	memo *storeMemo
}

// AgentMemoryDir is the folder the client keeps agentType's memory in,
// for scope (FORMATS.md, "Agent memory"); "" when scope needs a startup
// folder and o has none.
func AgentMemoryDir(o AgentStoreOptions, agentType string, scope AgentMemoryScope) string {
	parent := AgentScopeParent(o, scope)
	if parent == "" {
		return ""
	}
	return path.Join(parent, AgentFolderName(agentType))
}

// AgentScopeParent is the folder holding every agent's folder of scope
// ("" when o does not say where it is): the one place the three scopes'
// paths are written (stores here, provenance's folders).
func AgentScopeParent(o AgentStoreOptions, scope AgentMemoryScope) string {
	base := o.Base
	if base == "" {
		base = o.HomeDir
	}
	switch scope {
	case AgentScopeUser:
		if base == "" {
			return ""
		}
		return path.Join(base, "agent-memory")
	case AgentScopeProject:
		if o.StartDir == "" {
			return ""
		}
		return path.Join(o.StartDir, ".claude", "agent-memory")
	case AgentScopeLocal:
		switch {
		case o.StartDir == "":
			return ""
		case o.Remote:
			key := o.GitRoot
			if key == "" {
				key = o.StartDir
			}
			return path.Join(base, "projects", Slug(key), "agent-memory-local")
		}
		return path.Join(o.StartDir, ".claude", "agent-memory-local")
	}
	return ""
}

// AgentScopeLabel says in words what a scope is.
func AgentScopeLabel(s AgentMemoryScope) string {
	switch s {
	case AgentScopeUser:
		return "user scope, every project"
	case AgentScopeProject:
		return "project scope, checked in"
	case AgentScopeLocal:
		return "project scope, local (not checked in)"
	}
	return string(s)
}

// FindAgentStores lists the agent memory stores of a project: one per
// definition with `memory:` (whether its folder exists yet or not), then
// every agent folder on disk no definition declares. Sorted by agent, then
// scope (user, project, local).
func FindAgentStores(o AgentStoreOptions) ([]MemoryStore, []Problem) {
	root := orEmpty(o.Root)
	var probs []Problem
	defs := o.Definitions
	if defs == nil {
		stop := o.Checkout
		defs, probs = ReadAgentDefinitions(AgentDefinitionOptions{Root: root, HomeDir: o.HomeDir, StartDir: o.StartDir, StopDir: stop, memo: o.memo})
	}
	var out []MemoryStore
	seen := map[string]bool{}
	add := func(s MemoryStore) {
		if s.Dir == "" || seen[s.Dir] {
			return
		}
		seen[s.Dir] = true
		s.Exists = o.memo.isDir(root, s.Dir)
		s.Label = "agent " + s.Agent + " (" + AgentScopeLabel(s.Scope) + ")"
		if s.Definition == "" {
			s.Label += "; no agent definition declares it"
		}
		out = append(out, s)
	}
	for _, d := range defs {
		if d.Memory == "" {
			continue
		}
		add(MemoryStore{Kind: StoreAgent, Agent: d.Type, Scope: d.Memory, Dir: AgentMemoryDir(o, d.Type, d.Memory), Definition: d.Path})
	}
	for _, sc := range AgentScopes {
		parent := AgentScopeParent(o, sc)
		if parent == "" {
			continue
		}
		ents, err := o.memo.readDir(root, parent)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			probs = append(probs, Problem{File: parent, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read agent memory: %v", err)})
		}
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if o.memo.isDir(root, path.Join(parent, e.Name())) {
				add(MemoryStore{Kind: StoreAgent, Agent: e.Name(), Scope: sc, Dir: path.Join(parent, e.Name())})
			}
		}
	}
	rank := map[AgentMemoryScope]int{AgentScopeUser: 0, AgentScopeProject: 1, AgentScopeLocal: 2}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Agent != out[j].Agent {
			return out[i].Agent < out[j].Agent
		}
		return rank[out[i].Scope] < rank[out[j].Scope]
	})
	return out, probs
}

// ListMemoryStores lists every memory store of the project started in
// o.StartDir: its auto memory first (ResolveMemoryLocation, the one rule
// for where it is), then its agents' (FindAgentStores). The location is
// the auto memory's, with why it is there.
func ListMemoryStores(o MemoryOptions) ([]MemoryStore, MemoryLocation, []Problem) {
	loc := ResolveMemoryLocation(o)
	stores := []MemoryStore{{Kind: StoreAuto, Dir: loc.Dir, Label: "project memory (auto memory)", Exists: o.memo.isDir(o.Root, loc.Dir), Stamped: true}}
	agents, probs := FindAgentStores(AgentStoreOptionsFor(o, loc))
	return append(stores, agents...), loc, probs
}

// AgentStoreOptionsFor are the agent-memory options of a session started
// as o says, where the auto memory resolved to loc.
func AgentStoreOptionsFor(o MemoryOptions, loc MemoryLocation) AgentStoreOptions {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	a := AgentStoreOptions{Root: o.Root, HomeDir: o.HomeDir, Base: o.HomeDir, StartDir: o.StartDir, GitRoot: loc.Git.Root, Checkout: loc.Git.Checkout, memo: o.memo}
	if v := getenv(EnvRemoteMemoryDir); v != "" {
		a.Base, a.Remote = path.Clean(v), true
	}
	return a
}
