package model

import (
	"io/fs"
	"path"
	"strings"
)

// RootName turns an absolute slash path ("/home/me/app") into the name of
// that file in an fs.FS rooted at "/" ("home/me/app"); "/" becomes ".".
// Production code opens DirFS("/") and tests an fstest.MapFS, so all
// project-side lookups share this one convention.
func RootName(abs string) string {
	c := path.Clean("/" + abs)
	if c == "/" {
		return "."
	}
	return c[1:]
}

// RootPath turns a name in an fs.FS rooted at "/" back into the absolute
// path people read ("home/me/app" → "/home/me/app"); a path already
// absolute is left as it is.
func RootPath(name string) string {
	if strings.HasPrefix(name, "/") {
		return name
	}
	return path.Clean("/" + name)
}

// GitRootKind says how a git root was found.
type GitRootKind string

// The ways a startup directory relates to git.
const (
	// GitRootNone: no .git was found from the directory up to "/".
	GitRootNone GitRootKind = "none"
	// GitRootRepo: a .git folder marks the root.
	GitRootRepo GitRootKind = "repo"
	// GitRootWorktree: a .git file points into the main repository's
	// .git/worktrees/; Root is the main repository so worktrees share memory.
	GitRootWorktree GitRootKind = "worktree"
	// GitRootGitFile: a .git file whose target is not a verifiable worktree
	// (a submodule, a bare repository, a broken link): the folder holding
	// the .git file is the root.
	GitRootGitFile GitRootKind = "gitfile"
)

// GitRoot is the result of FindGitRoot.
type GitRoot struct {
	// Root is the canonical root: the main repository for a worktree.
	Root string `json:"root,omitempty"`
	// Checkout is the folder holding .git (the worktree itself).
	Checkout string      `json:"checkout,omitempty"`
	Kind     GitRootKind `json:"kind"`
	// Reason says, for a .git file, why it was or was not followed.
	Reason string `json:"reason,omitempty"`
}

// FindGitRoot walks from dir (absolute) up to "/" looking for .git in root
// (an fs.FS rooted at "/"). A worktree's .git file ("gitdir: X") is
// followed to X/commondir and the main repository's root is returned, but
// only when X lies in <common>/worktrees/ and X/gitdir (when present)
// points back at this checkout: a checked-out repository must not be able
// to borrow another project's memory by writing a .git file.
func FindGitRoot(root fs.FS, dir string) GitRoot {
	root = orEmpty(root)
	for d := path.Clean("/" + dir); ; d = path.Dir(d) {
		dotGit := path.Join(d, ".git")
		st, err := fs.Stat(root, RootName(dotGit))
		if err == nil {
			if st.IsDir() {
				return GitRoot{Root: d, Checkout: d, Kind: GitRootRepo}
			}
			return followGitFile(root, d)
		}
		if d == "/" {
			return GitRoot{Kind: GitRootNone}
		}
	}
}

func followGitFile(root fs.FS, checkout string) GitRoot {
	plain := func(reason string) GitRoot {
		return GitRoot{Root: checkout, Checkout: checkout, Kind: GitRootGitFile, Reason: reason}
	}
	data, err := ReadFileBounded(root, RootName(path.Join(checkout, ".git")), MaxSmallBytes)
	if err != nil {
		return plain("cannot read .git file: " + err.Error())
	}
	line := strings.TrimSpace(firstTextLine(data))
	target, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return plain(`.git file has no "gitdir:" line`)
	}
	gitdir := absJoin(checkout, strings.TrimSpace(target))
	cd, err := ReadFileBounded(root, RootName(path.Join(gitdir, "commondir")), MaxSmallBytes)
	if err != nil {
		return plain("no commondir in " + gitdir + " (submodule or plain gitdir link)")
	}
	common := absJoin(gitdir, strings.TrimSpace(firstTextLine(cd)))
	if path.Dir(gitdir) != path.Join(common, "worktrees") {
		return plain(gitdir + " is not inside " + path.Join(common, "worktrees"))
	}
	if back, err := ReadFileBounded(root, RootName(path.Join(gitdir, "gitdir")), MaxSmallBytes); err == nil {
		want := path.Join(checkout, ".git")
		if got := absJoin(gitdir, strings.TrimSpace(firstTextLine(back))); got != want {
			return plain("worktree back-link points at " + got + ", not " + want)
		}
	}
	if path.Base(common) != ".git" {
		return plain("common dir " + common + " is a bare repository")
	}
	return GitRoot{Root: path.Dir(common), Checkout: checkout, Kind: GitRootWorktree}
}

// absJoin resolves p against base unless p is already absolute.
func absJoin(base, p string) string {
	if strings.HasPrefix(p, "/") {
		return path.Clean(p)
	}
	return path.Join(base, p)
}

func firstTextLine(b []byte) string {
	s := strings.TrimPrefix(string(b), "\uFEFF")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSuffix(s, "\r")
}
