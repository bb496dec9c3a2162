package model

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// A walk of the home (the inventory, the retention forecast, an archive)
// must stay inside it: a symbolic link in projects/ to /etc or to / would
// otherwise have it read, count or copy the whole machine, and a link to
// "." or ".." would have it go round. StatInside is the one place that
// decides whether a link is followed.

// LinkError says a walk of the home did not follow a symbolic link. It is
// the Err of an fs.PathError naming the link.
type LinkError struct {
	// Target is the link's target as written.
	Target string
	// Outside is set when the target is outside the home; else following
	// it would loop (too many links, or a link to a folder that holds
	// it).
	Outside bool
}

func (e *LinkError) Error() string {
	if e.Outside {
		return fmt.Sprintf("symbolic link to %s, outside the home (not followed)", e.Target)
	}
	return fmt.Sprintf("symbolic link to %s makes a loop (not followed)", e.Target)
}

// IsLinkProblem reports whether p is a link a reader did not follow
// (EntryProblem of a *LinkError, or a reader's error naming one).
func IsLinkProblem(p Problem) bool {
	return strings.HasSuffix(p.Reason, "(not followed)")
}

// IsLinkNotFollowed reports whether err says a walk did not follow a link.
func IsLinkNotFollowed(err error) bool {
	var le *LinkError
	return errors.As(err, &le)
}

// maxLinks bounds the links followed to resolve one name, as the kernel's
// own limit (40) does for a path.
const maxLinks = 40

// rootDirer is a file system that knows its folder on disk (DirFS), so a
// link's absolute target can be placed inside or outside it.
type rootDirer interface {
	rootDirs() []string
}

func (d dirFS) rootDirs() []string {
	dirs := []string{filepath.Clean(d.dir)}
	// The home may itself sit behind a link: an absolute target through
	// its real path is inside too.
	if real, err := filepath.EvalSymlinks(d.dir); err == nil && real != dirs[0] {
		dirs = append(dirs, real)
	}
	return dirs
}

// ResolveInside returns name of fsys with every symbolic link on its way
// resolved, as a name of fsys, or an fs.PathError whose Err is a
// *LinkError when a link leads outside fsys (an absolute target is inside
// only when fsys is a DirFS and the target under its folder) or the links
// do not end. Names past the last existing one are kept as they are.
func ResolveInside(fsys fs.FS, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: "resolve", Path: name, Err: fs.ErrInvalid}
	}
	// The roots are found only for a link with an absolute target:
	// finding the home's real path costs an Lstat per folder above it.
	var roots []string
	rootsFound := false
	todo := strings.Split(name, "/")
	cur := "."
	links := 0
	for len(todo) > 0 {
		part := todo[0]
		todo = todo[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			if cur == "." {
				return "", &fs.PathError{Op: "resolve", Path: name, Err: &LinkError{Target: "..", Outside: true}}
			}
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, part)
		info, err := fs.Lstat(fsys, next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				// Nothing to resolve past here.
				return path.Join(append([]string{next}, todo...)...), nil
			}
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		target, err := fs.ReadLink(fsys, next)
		if err != nil {
			return "", err
		}
		if links++; links > maxLinks {
			return "", &fs.PathError{Op: "resolve", Path: next, Err: &LinkError{Target: target}}
		}
		rest := target
		if path.IsAbs(filepath.ToSlash(target)) {
			if r, ok := fsys.(rootDirer); ok && !rootsFound {
				roots, rootsFound = r.rootDirs(), true
			}
			rel, ok := relUnder(roots, target)
			if !ok {
				return "", &fs.PathError{Op: "resolve", Path: next, Err: &LinkError{Target: target, Outside: true}}
			}
			cur, rest = ".", rel
		}
		// A relative target is read from the link's folder (cur); one
		// that climbs above the home is caught by the ".." case.
		todo = append(strings.Split(filepath.ToSlash(rest), "/"), todo...)
		if err := climbsOut(cur, rest); err != nil {
			return "", &fs.PathError{Op: "resolve", Path: next, Err: &LinkError{Target: target, Outside: true}}
		}
	}
	return cur, nil
}

// climbsOut fails when the relative target rest, read from folder cur,
// climbs above the home's root.
func climbsOut(cur, rest string) error {
	depth := 0
	if cur != "." {
		depth = strings.Count(cur, "/") + 1
	}
	for _, p := range strings.Split(filepath.ToSlash(rest), "/") {
		switch p {
		case "", ".":
		case "..":
			if depth--; depth < 0 {
				return errors.New("climbs out")
			}
		default:
			depth++
		}
	}
	return nil
}

// relUnder is target relative to the first of roots it is inside.
func relUnder(roots []string, target string) (string, bool) {
	for _, r := range roots {
		rel, err := filepath.Rel(r, filepath.Clean(target))
		if err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}

// StatInside is fs.Stat for a walk of the home fsys: it follows symbolic
// links only while they stay inside the home, and refuses a link to a
// folder that holds the link (following it, a walk would go round), both
// with an fs.PathError whose Err is a *LinkError.
func StatInside(fsys fs.FS, name string) (fs.FileInfo, error) {
	resolved, err := ResolveInside(fsys, name)
	if err != nil {
		return nil, err
	}
	info, err := fs.Stat(fsys, resolved)
	if err != nil {
		return nil, err
	}
	if info.IsDir() && resolved != name {
		parent, err := ResolveInside(fsys, path.Dir(name))
		if err == nil && (resolved == "." || parent == resolved || strings.HasPrefix(parent+"/", resolved+"/")) {
			target, _ := fs.ReadLink(fsys, name)
			return nil, &fs.PathError{Op: "stat", Path: name, Err: &LinkError{Target: target}}
		}
	}
	return info, nil
}

// Walked is the folders a walk of the home has entered, by device and
// inode, so a symbolic link inside the home to a folder the walk reaches
// by its own name too (projects/alias -> projects/real) is not walked a
// second time: each real folder is walked once, and the link reported.
type Walked struct {
	seen map[FileID]string
}

// NewWalked returns an empty Walked.
func NewWalked() *Walked { return &Walked{seen: map[FileID]string{}} }

// Visit records the folder name (info as the walk got it, links
// followed) and reports true; when the same folder was visited under
// another name it returns that name and false. A folder whose inode is
// unknown (an fs.FS without one) is always new.
func (w *Walked) Visit(name string, info fs.FileInfo) (string, bool) {
	id := FileIDOf(info)
	if !id.Known || !info.IsDir() {
		return "", true
	}
	if first, ok := w.seen[id]; ok && first != name {
		return first, false
	}
	w.seen[id] = name
	return "", true
}

// SameFolderReason is the problem's reason for a link to a folder the
// walk already went through as first.
func SameFolderReason(target, first string) string {
	return fmt.Sprintf("symbolic link to %s, the same folder as %s, walked once there (not followed)", target, first)
}

// Followed is a folder entry with a symbolic link followed: Info is the
// target's.
type Followed struct {
	Name, Path string
	Info       fs.FileInfo
}

// ReadDirFollow lists dir for a walk of the home, following symlinked
// entries while they stay inside it (StatInside). A missing dir is empty
// (most homes lack some folders); an unreadable one, or an entry that
// cannot be followed, is a problem (EntryProblem). Folders by their own
// names come first, then links: a link to a folder of the listing
// (projects/alias -> projects/real) is reported, not listed again.
func ReadDirFollow(fsys fs.FS, dir string, probs *[]Problem) []Followed {
	ents, err := fs.ReadDir(fsys, dir)
	return followListed(fsys, dir, ents, err, probs)
}

// followListed is ReadDirFollow of the listing ents, err of dir.
func followListed(fsys fs.FS, dir string, ents []fs.DirEntry, err error, probs *[]Problem) []Followed {
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			*probs = append(*probs, Problem{File: dir, Kind: ProblemUnreadable, Reason: fmt.Sprintf("read folder: %v", err)})
		}
		return nil
	}
	walked := NewWalked()
	infos := make([]fs.FileInfo, len(ents))
	paths := make([]string, len(ents))
	for pass := range 2 {
		for i, e := range ents {
			if (e.Type()&fs.ModeSymlink != 0) != (pass == 1) {
				continue
			}
			p := path.Join(dir, e.Name())
			paths[i] = p
			info, err := EntryInfo(fsys, p, e)
			if err != nil {
				*probs = append(*probs, EntryProblem(p, err))
				continue
			}
			if first, ok := walked.Visit(p, info); !ok {
				target, _ := fs.ReadLink(fsys, p)
				*probs = append(*probs, Problem{File: p, Kind: ProblemMalformed, Reason: SameFolderReason(target, first)})
				continue
			}
			infos[i] = info
		}
	}
	out := make([]Followed, 0, len(ents))
	for i, e := range ents {
		if infos[i] != nil {
			out = append(out, Followed{Name: e.Name(), Path: paths[i], Info: infos[i]})
		}
	}
	return out
}

// EntryInfo is the info of e, the entry p of a walk of the home: a
// symbolic link followed only while it stays inside the home and makes
// no loop (StatInside).
func EntryInfo(fsys fs.FS, p string, e fs.DirEntry) (fs.FileInfo, error) {
	if e.Type()&fs.ModeSymlink != 0 {
		return StatInside(fsys, p)
	}
	return e.Info()
}

// EntryProblem is the problem of an entry EntryInfo could not give: a
// link not followed (malformed, named by its LinkError), or a file that
// cannot be read.
func EntryProblem(p string, err error) Problem {
	if IsLinkNotFollowed(err) {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return Problem{File: p, Kind: ProblemMalformed, Reason: err.Error()}
	}
	return Problem{File: p, Kind: ProblemUnreadable, Reason: err.Error()}
}
