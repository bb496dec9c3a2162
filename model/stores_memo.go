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
}

// settingsRead is ReadSettings' answer for one file.
type settingsRead struct {
	s     Settings
	found bool
	probs []Problem
}

func newStoreMemo() *storeMemo {
	return &storeMemo{git: map[string]GitRoot{}, settings: map[string]settingsRead{}, dirs: map[string]bool{}}
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
