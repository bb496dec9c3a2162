package model

import (
	"io/fs"
	"path"
	"slices"
)

// storeMemo holds one HomeMemoryStores call's answers to the checks
// every project repeats: the git-root walk's answer from each folder
// (FindGitRoot; W's 24 projects each stat'ed /home/dev/work/.git,
// /home/dev/.git, /home/.git and /.git), each settings file read
// ($H/settings.json and the managed file, the same for every project)
// and whether each store folder exists. One call is one moment, as
// each project's answers were: the memo lives for the call and goes
// with it, so a later call (a reload) looks again. nil asks every time.
type storeMemo struct {
	git      map[string]GitRoot
	settings map[string]settingsRead
	dirs     map[string]bool
	// agents are the agent definitions read from each folder (with the
	// scope they were read as), lists each agent-memory parent's listing:
	// $H/agents and $H/agent-memory are the same for every project.
	agents map[agentFolderKey]agentFolderRead
	lists  map[string]listRead
}

// agentFolderKey is one readAgentFolder question.
type agentFolderKey struct {
	dir    string
	source AgentMemoryScope
}

// agentFolderRead is readAgentFolder's answer.
type agentFolderRead struct {
	defs  []AgentDefinition
	probs []Problem
}

// listRead is fs.ReadDir's answer for one folder.
type listRead struct {
	ents []fs.DirEntry
	err  error
}

// settingsRead is ReadSettings' answer for one file.
type settingsRead struct {
	s     Settings
	found bool
	probs []Problem
}

func newStoreMemo() *storeMemo {
	return &storeMemo{git: map[string]GitRoot{}, settings: map[string]settingsRead{}, dirs: map[string]bool{},
		agents: map[agentFolderKey]agentFolderRead{}, lists: map[string]listRead{}}
}

// findGitRoot is FindGitRoot, the answer from each folder walked kept
// in m: a folder's answer is the walk's from it, whichever folder below
// it the walk began at, so a sibling project's walk stops at the first
// folder already asked.
func (m *storeMemo) findGitRoot(root fs.FS, dir string) GitRoot {
	if m == nil {
		return FindGitRoot(root, dir)
	}
	root = orEmpty(root)
	var walked []string
	var r GitRoot
	for d := path.Clean("/" + dir); ; d = path.Dir(d) {
		if got, ok := m.git[d]; ok {
			r = got
			break
		}
		walked = append(walked, d)
		if st, err := fs.Stat(root, RootName(path.Join(d, ".git"))); err == nil {
			if st.IsDir() {
				r = GitRoot{Root: d, Checkout: d, Kind: GitRootRepo}
			} else {
				r = followGitFile(root, d)
			}
			break
		}
		if d == "/" {
			r = GitRoot{Kind: GitRootNone}
			break
		}
	}
	for _, d := range walked {
		m.git[d] = r
	}
	return r
}

// readSettings is ReadSettings of the absolute path abs, read once in m;
// each caller gets its own copy of the problems.
func (m *storeMemo) readSettings(root fs.FS, abs string) (Settings, bool, []Problem) {
	if m == nil {
		return ReadSettings(root, RootName(abs))
	}
	r, ok := m.settings[abs]
	if !ok {
		r.s, r.found, r.probs = ReadSettings(root, RootName(abs))
		m.settings[abs] = r
	}
	return r.s, r.found, slices.Clone(r.probs)
}

// isDir says whether the absolute path dir is a folder, asked once in m.
func (m *storeMemo) isDir(root fs.FS, dir string) bool {
	if m != nil {
		if ok, asked := m.dirs[dir]; asked {
			return ok
		}
	}
	st, err := fs.Stat(orEmpty(root), RootName(dir))
	ok := err == nil && st.IsDir()
	if m != nil {
		m.dirs[dir] = ok
	}
	return ok
}

// readAgentFolder is readAgentFolder of dir read as source, once in m;
// each caller gets its own copies.
func (m *storeMemo) readAgentFolder(root fs.FS, dir string, source AgentMemoryScope) ([]AgentDefinition, []Problem) {
	if m == nil {
		return readAgentFolder(root, dir, source)
	}
	k := agentFolderKey{dir, source}
	r, ok := m.agents[k]
	if !ok {
		r.defs, r.probs = readAgentFolder(root, dir, source)
		m.agents[k] = r
	}
	return slices.Clone(r.defs), slices.Clone(r.probs)
}

// readDir is fs.ReadDir of the absolute path dir, listed once in m; the
// entries are shared (callers only read them).
func (m *storeMemo) readDir(root fs.FS, dir string) ([]fs.DirEntry, error) {
	if m == nil {
		return fs.ReadDir(orEmpty(root), RootName(dir))
	}
	r, ok := m.lists[dir]
	if !ok {
		r.ents, r.err = fs.ReadDir(orEmpty(root), RootName(dir))
		m.lists[dir] = r
	}
	return r.ents, r.err
}
