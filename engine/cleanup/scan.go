package cleanup

import (
	"errors"
	"io/fs"
	"slices"
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

	items, never = scanProjects(fsys, &probs, items, never, false)

	for _, e := range model.ReadDirFollow(fsys, model.FileHistoryDir, &probs) {
		if !e.Info.IsDir() {
			probs = append(probs, model.Problem{File: e.Path, Kind: model.ProblemMalformed, Reason: "not a session folder (not forecast)"})
			continue
		}
		files, size := walkFiles(fsys, e.Path, &probs, nil)
		items = append(items, Item{Path: e.Path, Kind: KindFileHistory, Dir: true, Files: files, Size: size,
			ModTime: e.Info.ModTime(), Session: model.SessionID(e.Name)})
	}

	// 2.1.331: other sessions' image caches and the skill archives go at
	// every sweep; growth-test state files by their mtime.
	for _, e := range model.ReadDirFollow(fsys, imageCacheDir, &probs) {
		if !e.Info.IsDir() {
			continue
		}
		files, size := walkFiles(fsys, e.Path, &probs, nil)
		items = append(items, Item{Path: e.Path, Kind: KindImageCache, Dir: true, Files: files, Size: size,
			ModTime: e.Info.ModTime(), Session: model.SessionID(e.Name)})
	}
	walkFiles(fsys, skillArchivesDir, &probs, func(p string, info fs.FileInfo) {
		items = append(items, Item{Path: p, Kind: KindSkillArchive, Files: 1, Size: info.Size(), ModTime: info.ModTime()})
	})
	for _, e := range model.ReadDirFollow(fsys, stateDir, &probs) {
		if !e.Info.Mode().IsRegular() {
			continue
		}
		kind := Kind("")
		switch {
		case isGrowthTest(e.Name):
			kind = KindGrowthTest
		case e.Name == "repeat-command-days.json":
			kind = KindRepeatDays
		case e.Name == "repeat-command-mark.json":
			kind = KindRepeatMark
		}
		if kind != "" {
			items = append(items, Item{Path: e.Path, Kind: kind, Files: 1, Size: e.Info.Size(), ModTime: e.Info.ModTime()})
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

// scanProjects lists projects/: each session's transcript, and unless
// transcriptsOnly, the files of each session folder (walked) and each
// project's memory folder (never swept).
func scanProjects(fsys fs.FS, probs *[]model.Problem, items []Item, never []NeverSwept, transcriptsOnly bool) ([]Item, []NeverSwept) {
	// Every project is listed first, so the items are grown once by the
	// transcripts all of them hold: grown by append, a warm start's
	// sessions forecast (some 4 000 on W) allocated twice what it kept.
	type listed struct {
		slug string
		ents []model.Followed
	}
	var projects []listed
	transcripts := 0
	for _, p := range model.ReadDirFollow(fsys, "projects", probs) {
		if !p.Info.IsDir() {
			continue
		}
		ents := model.ReadDirFollow(fsys, p.Path, probs)
		for _, e := range ents {
			if isTranscript(e) {
				transcripts++
			}
		}
		projects = append(projects, listed{p.Name, ents})
	}
	items = slices.Grow(items, transcripts)
	for _, p := range projects {
		slug := p.slug
		for _, e := range p.ents {
			switch {
			case isTranscript(e):
				items = append(items, Item{Path: e.Path, Kind: KindTranscript, Files: 1, Size: e.Info.Size(),
					ModTime: e.Info.ModTime(), Session: model.SessionID(strings.TrimSuffix(e.Name, ".jsonl")), Project: slug})
			case transcriptsOnly:
			case e.Info.IsDir() && e.Name == memoryFolder:
				files, size := walkFiles(fsys, e.Path, probs, nil)
				never = append(never, NeverSwept{Path: e.Path, Kind: NeverSweptMemory, Files: files, Size: size})
			case e.Info.IsDir():
				walkFiles(fsys, e.Path, probs, func(p string, info fs.FileInfo) {
					items = append(items, Item{Path: p, Kind: KindSessionFile, Files: 1, Size: info.Size(),
						ModTime: info.ModTime(), Session: model.SessionID(e.Name), Project: slug})
				})
			}
		}
	}
	return items, never
}

// isTranscript says the entry of a project folder is a transcript
// (scanProjects' item of KindTranscript).
func isTranscript(e model.Followed) bool {
	return e.Info.Mode().IsRegular() && strings.HasSuffix(e.Name, ".jsonl")
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
		info, err := model.EntryInfo(fsys, p, d)
		switch {
		case err != nil:
			*probs = append(*probs, model.EntryProblem(p, err))
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
