package provenance

import (
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/model"
)

// Kind says which memory a folder holds.
type Kind string

// The memory folders provenance follows.
const (
	// KindProject is a project's auto memory (<home>/projects/<slug>/memory,
	// or where autoMemoryDirectory points), team/ included.
	KindProject Kind = "project"
	// KindAgentUser is <home>/agent-memory/<agentType>/ (scope user).
	KindAgentUser Kind = "agent-user"
	// KindAgentProject is <project>/.claude/agent-memory/<agentType>/.
	KindAgentProject Kind = "agent-project"
	// KindAgentLocal is <project>/.claude/agent-memory-local/<agentType>/.
	KindAgentLocal Kind = "agent-local"
)

// IsAgent reports whether k is agent memory: the folder holds one
// sub-folder per agent type.
func (k Kind) IsAgent() bool { return k != KindProject }

// agentKinds pairs each agent memory kind with its scope.
var agentKinds = []struct {
	kind  Kind
	scope model.AgentMemoryScope
}{{KindAgentUser, model.AgentScopeUser}, {KindAgentProject, model.AgentScopeProject}, {KindAgentLocal, model.AgentScopeLocal}}

// Scope is the agent memory scope of k; "" for project memory.
func (k Kind) Scope() model.AgentMemoryScope {
	for _, a := range agentKinds {
		if a.kind == k {
			return a.scope
		}
	}
	return ""
}

// Folder is a memory folder whose writes are looked for.
type Folder struct {
	Kind Kind `json:"kind"`
	// Dir is the folder on this machine (absolute). For agent memory it
	// is the parent of the per-agent folders (…/agent-memory).
	Dir string `json:"dir"`
	// Suffix, when set, is how a transcript written with the home
	// elsewhere names the folder ("/projects/<slug>/memory/"): a home
	// copied from another machine or opened from an archive keeps paths
	// of where it was.
	Suffix string `json:"-"`
}

// Rel returns p (an absolute path as a tool named it) relative to the
// folder, and whether it is a memory file of it (live.IsMemoryPath: the
// index, a topic file, team memory; for agent memory the same inside an
// agent's folder). Paths under .memscope/ or .trash/ are not memory.
func (f Folder) Rel(p string) (string, bool) {
	if p == "" || !strings.HasPrefix(p, "/") {
		return "", false
	}
	p = path.Clean(p)
	rel, ok := strings.CutPrefix(p, f.Dir+"/")
	if !ok && f.Suffix != "" {
		if i := strings.LastIndex(p, f.Suffix); i >= 0 {
			rel, ok = p[i+len(f.Suffix):], true
		}
	}
	if !ok || rel == "" {
		return "", false
	}
	if f.Kind.IsAgent() {
		agent, inner, found := strings.Cut(rel, "/")
		if !found || agent == "" || strings.HasPrefix(agent, ".") || !live.IsMemoryPath(inner) {
			return "", false
		}
		return rel, true
	}
	return rel, live.IsMemoryPath(rel)
}

// Agent is the agent type of rel, a path Rel returned for agent memory;
// "" for project memory.
func (f Folder) Agent(rel string) string {
	if !f.Kind.IsAgent() {
		return ""
	}
	a, _, _ := strings.Cut(rel, "/")
	return a
}

// markers are the byte strings a line must hold to name a file of f.
func (f Folder) markers() []string {
	m := []string{f.Dir + "/"}
	if f.Suffix != "" {
		m = append(m, f.Suffix)
	}
	return m
}

// ProjectFolders are the memory folders of one project: its auto memory
// memDir (absolute; under homeDir/projects/<slug>/ it is also matched by
// that suffix), the user's agent memory in homeDir, and the project and
// local agent memory under tree (the project's root: the git root, else
// its folder; "" for none).
func ProjectFolders(homeDir, memDir, tree string) []Folder {
	var out []Folder
	if memDir != "" {
		f := Folder{Kind: KindProject, Dir: path.Clean(memDir)}
		if rel, ok := strings.CutPrefix(f.Dir, path.Clean(homeDir)+"/projects/"); ok && strings.HasSuffix(rel, "/memory") && strings.Count(rel, "/") == 1 {
			f.Suffix = "/projects/" + rel + "/"
		}
		out = append(out, f)
	}
	o := model.AgentStoreOptions{HomeDir: homeDir, StartDir: tree}
	for _, s := range agentKinds {
		if dir := model.AgentScopeParent(o, s.scope); dir != "" {
			out = append(out, Folder{Kind: s.kind, Dir: dir})
		}
	}
	return out
}

// MemoryFile is one memory file on disk, as Origins needs it.
type MemoryFile struct {
	// Folder is the index in the folders given to ListFiles; Rel the path
	// inside it (for agent memory, <agentType>/…).
	Folder int    `json:"-"`
	Kind   Kind   `json:"kind"`
	Agent  string `json:"agent,omitempty"`
	Rel    string `json:"path"`
	Abs    string `json:"abs"`
	// File is the parsed file (frontmatter stamps, bytes, mtime).
	File *model.MemoryFile `json:"-"`
	// Index says the file is a MEMORY.md (read as a plain document).
	Index bool `json:"index,omitempty"`
}

// ListFiles reads the memory files of folders through root (an fs.FS
// rooted at "/", model.RootName): the index and topic files of each
// folder and of its team/ (project memory) or of each agent's folder
// (agent memory), sorted by folder then path.
func ListFiles(root fs.FS, folders []Folder) ([]MemoryFile, []model.Problem) {
	var out []MemoryFile
	var probs []model.Problem
	add := func(i int, dir, prefix string) {
		md, p := model.ReadMemoryDir(root, model.RootName(dir))
		for _, pr := range p {
			// Named through root: put back the leading "/".
			pr.File = "/" + strings.TrimPrefix(pr.File, "/")
			probs = append(probs, pr)
		}
		if md.Index != nil {
			f, _ := model.ParseMemoryFile(model.MemoryIndexName, md.Index.Bytes())
			f.ModTime, f.Size = md.IndexModTime, md.IndexSize
			out = append(out, MemoryFile{Folder: i, Rel: prefix + model.MemoryIndexName, File: f, Index: true})
		}
		for _, f := range md.Files {
			out = append(out, MemoryFile{Folder: i, Rel: prefix + f.Path, File: f})
		}
	}
	for i, f := range folders {
		if !f.Kind.IsAgent() {
			add(i, f.Dir, "")
			add(i, path.Join(f.Dir, "team"), "team/")
			continue
		}
		ents, err := fs.ReadDir(root, model.RootName(f.Dir))
		if err != nil {
			continue // no agent memory of this scope
		}
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if st, err := fs.Stat(root, model.RootName(path.Join(f.Dir, e.Name()))); err == nil && st.IsDir() {
				add(i, path.Join(f.Dir, e.Name()), e.Name()+"/")
			}
		}
	}
	for j := range out {
		f := folders[out[j].Folder]
		out[j].Kind, out[j].Agent, out[j].Abs = f.Kind, f.Agent(out[j].Rel), path.Join(f.Dir, out[j].Rel)
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Folder != out[b].Folder {
			return out[a].Folder < out[b].Folder
		}
		return out[a].Rel < out[b].Rel
	})
	return out, probs
}
