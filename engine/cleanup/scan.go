package cleanup

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/memscope/memscope/model"
)

// sweptFolders are the top-level folders whose files the sweep deletes one
// by one, by each file's mtime.
var sweptFolders = []struct {
	dir  string
	kind Kind
}{
	{model.PasteCacheDir, KindPaste},
	{"debug", KindDebug},
	{"shell-snapshots", KindShellSnapshot},
	{"plans", KindPlan},
	{"todos", KindTodo},
	{model.ConfigBackupsDir, KindBackup},
}

// The folders 2.1.331 added to the sweep.
const (
	imageCacheDir    = "image-cache"
	skillArchivesDir = "mcp-skill-archives"
	stateDir         = "state"
)

// memoryFolder is the name of a project's auto-memory folder, which sits
// beside the session folders and is never swept.
const memoryFolder = "memory"

// scanRetention lists every item of a swept kind in the home (without
// eligibility), and the stores that are never swept.
func scanRetention(fsys fs.FS) ([]Item, []NeverSwept, []model.Problem) {
	var items []Item
	var never []NeverSwept
	var probs []model.Problem

	if st, err := fs.Stat(fsys, model.HistoryPath); err == nil {
		never = append(never, NeverSwept{Path: model.HistoryPath, Kind: NeverSweptHistory, Files: 1, Size: st.Size()})
	} else if !errors.Is(err, fs.ErrNotExist) {
		probs = append(probs, model.Problem{File: model.HistoryPath, Kind: model.ProblemUnreadable, Reason: err.Error()})
	}

	if st, err := fs.Stat(fsys, memscopeHomeDir); err == nil && st.IsDir() {
		files, size := walkFiles(fsys, memscopeHomeDir, &probs, nil)
		never = append(never, NeverSwept{Path: memscopeHomeDir, Kind: NeverSweptMemscope, Files: files, Size: size})
	}

	for _, p := range readDirFollow(fsys, "projects", &probs) {
		if !p.info.IsDir() {
			continue
		}
		slug := p.name
		for _, e := range readDirFollow(fsys, p.path, &probs) {
			switch {
			case e.info.IsDir() && e.name == memoryFolder:
				files, size := walkFiles(fsys, e.path, &probs, nil)
				never = append(never, NeverSwept{Path: e.path, Kind: NeverSweptMemory, Files: files, Size: size})
			case e.info.IsDir():
				walkFiles(fsys, e.path, &probs, func(p string, info fs.FileInfo) {
					items = append(items, Item{Path: p, Kind: KindSessionFile, Files: 1, Size: info.Size(),
						ModTime: info.ModTime(), Session: model.SessionID(e.name), Project: slug})
				})
			case e.info.Mode().IsRegular() && strings.HasSuffix(e.name, ".jsonl"):
				items = append(items, Item{Path: e.path, Kind: KindTranscript, Files: 1, Size: e.info.Size(),
					ModTime: e.info.ModTime(), Session: model.SessionID(strings.TrimSuffix(e.name, ".jsonl")), Project: slug})
			}
		}
	}

	for _, e := range readDirFollow(fsys, model.FileHistoryDir, &probs) {
		if !e.info.IsDir() {
			probs = append(probs, model.Problem{File: e.path, Kind: model.ProblemMalformed, Reason: "not a session folder (not forecast)"})
			continue
		}
		files, size := walkFiles(fsys, e.path, &probs, nil)
		items = append(items, Item{Path: e.path, Kind: KindFileHistory, Dir: true, Files: files, Size: size,
			ModTime: e.info.ModTime(), Session: model.SessionID(e.name)})
	}

	// 2.1.331: other sessions' image caches and the skill archives go at
	// every sweep; growth-test state files by their mtime.
	for _, e := range readDirFollow(fsys, imageCacheDir, &probs) {
		if !e.info.IsDir() {
			continue
		}
		files, size := walkFiles(fsys, e.path, &probs, nil)
		items = append(items, Item{Path: e.path, Kind: KindImageCache, Dir: true, Files: files, Size: size,
			ModTime: e.info.ModTime(), Session: model.SessionID(e.name)})
	}
	walkFiles(fsys, skillArchivesDir, &probs, func(p string, info fs.FileInfo) {
		items = append(items, Item{Path: p, Kind: KindSkillArchive, Files: 1, Size: info.Size(), ModTime: info.ModTime()})
	})
	for _, e := range readDirFollow(fsys, stateDir, &probs) {
		if e.info.Mode().IsRegular() && isGrowthTest(e.name) {
			items = append(items, Item{Path: e.path, Kind: KindGrowthTest, Files: 1, Size: e.info.Size(), ModTime: e.info.ModTime()})
		}
	}

	for _, sf := range sweptFolders {
		walkFiles(fsys, sf.dir, &probs, func(p string, info fs.FileInfo) {
			it := Item{Path: p, Kind: sf.kind, Files: 1, Size: info.Size(), ModTime: info.ModTime()}
			items = append(items, it)
		})
	}
	return items, never, probs
}

// followed is a folder entry with symlinks followed.
type followed struct {
	name, path string
	info       fs.FileInfo
}

// readDirFollow lists dir, following symlinked entries. A missing dir is
// empty; an unreadable one, or a symlink that cannot be followed, is a
// problem.
func readDirFollow(fsys fs.FS, dir string, probs *[]model.Problem) []followed {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			*probs = append(*probs, model.Problem{File: dir, Kind: model.ProblemUnreadable, Reason: fmt.Sprintf("read folder: %v", err)})
		}
		return nil
	}
	// Folders by their own names first, then links: a link to a folder
	// of the listing (projects/alias -> projects/real) is reported, not
	// forecast or archived twice.
	walked := model.NewWalked()
	infos := make([]fs.FileInfo, len(ents))
	for pass := range 2 {
		for i, e := range ents {
			if (e.Type()&fs.ModeSymlink != 0) != (pass == 1) {
				continue
			}
			p := path.Join(dir, e.Name())
			info, err := entryInfo(fsys, p, e)
			if err != nil {
				*probs = append(*probs, entryProblem(p, err))
				continue
			}
			if first, ok := walked.Visit(p, info); !ok {
				target, _ := fs.ReadLink(fsys, p)
				*probs = append(*probs, model.Problem{File: p, Kind: model.ProblemMalformed, Reason: model.SameFolderReason(target, first)})
				continue
			}
			infos[i] = info
		}
	}
	out := make([]followed, 0, len(ents))
	for i, e := range ents {
		if infos[i] != nil {
			out = append(out, followed{name: e.Name(), path: path.Join(dir, e.Name()), info: infos[i]})
		}
	}
	return out
}

// entryInfo is e's info, a symbolic link followed only while it stays
// inside the home and makes no loop (model.StatInside).
func entryInfo(fsys fs.FS, p string, e fs.DirEntry) (fs.FileInfo, error) {
	if e.Type()&fs.ModeSymlink != 0 {
		return model.StatInside(fsys, p)
	}
	return e.Info()
}

// entryProblem is the problem of an entry entryInfo could not give: a
// link not followed, or a file that cannot be read.
func entryProblem(p string, err error) model.Problem {
	if model.IsLinkNotFollowed(err) {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return model.Problem{File: p, Kind: model.ProblemMalformed, Reason: err.Error()}
	}
	return model.Problem{File: p, Kind: model.ProblemUnreadable, Reason: err.Error()}
}

// walkFiles visits every regular file under dir (symlinks to files
// followed; symlinked folders are reported, not entered, so a link cannot
// make the walk loop) and returns their number and total size. fn may be
// nil.
func walkFiles(fsys fs.FS, dir string, probs *[]model.Problem, fn func(p string, info fs.FileInfo)) (int, int64) {
	var files int
	var size int64
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			*probs = append(*probs, model.Problem{File: p, Kind: model.ProblemUnreadable, Reason: err.Error()})
			return nil
		}
		if d.IsDir() {
			return nil
		}
		info, err := entryInfo(fsys, p, d)
		switch {
		case err != nil:
			*probs = append(*probs, entryProblem(p, err))
		case info.IsDir():
			*probs = append(*probs, model.Problem{File: p, Kind: model.ProblemMalformed, Reason: "symlinked folder (not followed)"})
		case !info.Mode().IsRegular():
			*probs = append(*probs, model.Problem{File: p, Kind: model.ProblemMalformed, Reason: model.NotRegularReason(info.Mode()) + " (not forecast)"})
		default:
			files++
			size += info.Size()
			if fn != nil {
				fn(p, info)
			}
		}
		return nil
	})
	if err != nil {
		*probs = append(*probs, model.Problem{File: dir, Kind: model.ProblemUnreadable, Reason: err.Error()})
	}
	return files, size
}

// memscopeHomeDir is memscope's folder in a Claude home.
const memscopeHomeDir = ".memscope"

// isGrowthTest says a file of state/ is a growth-test state file, which
// the sweep deletes by its mtime.
func isGrowthTest(name string) bool {
	return strings.HasPrefix(name, "growth-test-") && strings.HasSuffix(name, ".json")
}
