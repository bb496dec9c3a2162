package model

import (
	"io/fs"
	"path"
	"sort"
)

// HomeStoresOptions say which memory stores HomeMemoryStores lists.
// Root is an fs.FS rooted at "/" with the home mounted at HomeDir
// (MountFS); nil reads nothing outside the home, which is then not
// listed.
type HomeStoresOptions struct {
	Root     fs.FS
	HomeDir  string
	UserHome string
	// Getenv reads the environment (CLAUDE_CODE_REMOTE_MEMORY_DIR and the
	// memory folder's overrides); nil reads nothing.
	Getenv func(string) string
	// Projects are the projects whose stores are listed.
	Projects []Project
	// User lists the user-scope agent stores, which every project shares
	// (once, with Project ""): a whole-home listing wants them.
	User bool
}

// HomeStore is one memory store of a home and the project it belongs to.
type HomeStore struct {
	MemoryStore
	// Project is its project's folder (absolute; the slug when the
	// folder is unknown); "" for a user-scope agent store.
	Project string `json:"project,omitempty"`
	// Slug is its project's projects/ folder name ("" for user scope).
	Slug string `json:"slug,omitempty"`
}

// HomeMemoryStores is the one list of a home's memory stores that stat,
// search, secrets, provenance, review and the panes read: for each
// project, the auto memory folder under the home and the one the
// client's rules resolve to when it is elsewhere (autoMemoryDirectory,
// CLAUDE_CODE_REMOTE_MEMORY_DIR, ListMemoryStores), the team/ folder of
// each, its agents' project and local stores; with o.User, the
// user-scope agent stores. Each folder once (the first project that
// names it), in project order; stores whose folder is missing are
// listed with Exists false (a declared agent that has not run).
func HomeMemoryStores(o HomeStoresOptions) ([]HomeStore, []Problem) {
	defer HoldWalk(o.Root)()
	root := orEmpty(o.Root)
	var out []HomeStore
	var probs []Problem
	seen := map[string]bool{}
	memo := newStoreMemo()
	exists := func(dir string) bool { return memo.isDir(root, dir) }
	add := func(s MemoryStore, project, slug string) {
		if s.Dir == "" || seen[s.Dir] {
			return
		}
		seen[s.Dir] = true
		out = append(out, HomeStore{MemoryStore: s, Project: project, Slug: slug})
		if s.Kind == StoreAuto {
			team := path.Join(s.Dir, "team")
			if !seen[team] {
				seen[team] = true
				out = append(out, HomeStore{MemoryStore: MemoryStore{Kind: StoreTeam, Dir: team, Label: secondaryLabels[SecondaryTeam], Exists: exists(team), Stamped: true},
					Project: project, Slug: slug})
			}
		}
	}
	for _, pr := range o.Projects {
		project := pr.Path
		if project == "" {
			project = pr.Slug
		}
		if o.HomeDir != "" && pr.Dir != "" {
			dir := path.Join(o.HomeDir, pr.Dir, "memory")
			add(MemoryStore{Kind: StoreAuto, Dir: dir, Label: "project memory (auto memory)", Exists: exists(dir), Stamped: true}, project, pr.Slug)
		}
		if pr.Path == "" {
			continue
		}
		settings, p := loadSettings(o.Root, o.HomeDir, pr.Path, ManagedDir, memo)
		probs = append(probs, p...)
		stores, loc, p := ListMemoryStores(MemoryOptions{Root: o.Root, HomeDir: o.HomeDir, UserHome: o.UserHome, StartDir: pr.Path, Getenv: o.Getenv, Settings: settings, memo: memo})
		probs = append(probs, p...)
		for _, s := range stores {
			switch {
			case s.Kind == StoreAuto && s.Dir != path.Join(o.HomeDir, pr.Dir, "memory"):
				s.Label = "project memory (auto memory, " + loc.Reason + ")"
			case s.Scope == AgentScopeUser:
				continue // listed once, below
			}
			add(s, project, pr.Slug)
		}
	}
	if o.User {
		users, p := FindAgentStores(AgentStoreOptionsFor(MemoryOptions{Root: o.Root, HomeDir: o.HomeDir, Getenv: o.Getenv, memo: memo}, MemoryLocation{}))
		probs = append(probs, p...)
		sort.SliceStable(users, func(i, j int) bool { return users[i].Agent < users[j].Agent })
		for _, s := range users {
			add(s, "", "")
		}
	}
	return out, probs
}
