package secrets

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/model"
)

// Store names where a secret was found.
type Store string

// The stores a home scan reads.
const (
	StoreTranscript  Store = "transcript"
	StoreSubagent    Store = "subagent-transcript"
	StoreToolResult  Store = "tool-result"
	StoreHistory     Store = "history"
	StorePaste       Store = "paste"
	StoreFileHistory Store = "file-history"
	StoreMemory      Store = "memory"
	StoreMemoryTrash Store = "memory-trash"
	StoreClaudeMd    Store = "claude-md"
	StoreSettings    Store = "settings"
	StoreOther       Store = "other"
	// StoreUndoCopy is memscope's own journals (memory changes, file
	// restores), which keep whole files as they were before a change.
	StoreUndoCopy Store = "undo-copy"
	// StoreLeftover is a hidden copy a killed or failed memscope write
	// left beside a file (Options.Leftovers): it may hold a file as it
	// was before a scrub.
	StoreLeftover Store = "leftover"
)

// IsTranscript reports a store of session transcripts (main or
// subagent): they have turns, and a running session appends to them.
func (s Store) IsTranscript() bool { return s == StoreTranscript || s == StoreSubagent }

// Stores lists every store in the order reports show them.
func Stores() []Store {
	return []Store{StoreTranscript, StoreSubagent, StoreToolResult, StoreHistory, StorePaste, StoreFileHistory,
		StoreMemory, StoreMemoryTrash, StoreClaudeMd, StoreSettings, StoreOther, StoreUndoCopy, StoreLeftover}
}

// format says how a file is read: one JSON value per line, one JSON
// value, or text.
type fileFormat int

const (
	formatText fileFormat = iota
	formatJSONL
	formatJSON
	// formatJournal is an undo journal: the files its entries keep are
	// decoded and scanned.
	formatJournal
)

// formatOf is how a file of store st is read, by the scan and by the
// scrub's plan alike (the same bytes must give the same findings).
func formatOf(st Store, name string) fileFormat {
	switch st {
	case StoreTranscript, StoreSubagent, StoreHistory:
		return formatJSONL
	case StoreSettings:
		return formatJSON
	case StoreUndoCopy:
		return formatJournal
	case StoreLeftover:
		// Read as the file it is a copy of.
		if orig := model.OriginalOf(path.Base(name)); orig != "" {
			return formatOf(storeLike(orig), orig)
		}
	case StoreOther:
		if strings.HasSuffix(name, ".json") {
			return formatJSON
		}
	}
	return formatText
}

// unit is one file to scan.
type unit struct {
	store Store
	// name is the file in fsys; file is how reports name it: relative to
	// the home, or absolute outside it (outside is then set).
	fsys    fs.FS
	name    string
	file    string
	outside bool
	// inHome says fsys is the home's (the file is named in it).
	inHome bool
	format fileFormat
	// size is the file's size when listed; ent, when set, is the
	// listing's entry instead: the size is then the open's that reads
	// the file (sized), so no such file is lstat'ed, and a unit a cache
	// answers for is not looked at.
	size    int64
	ent     fs.DirEntry
	modTime time.Time
	session model.SessionID
	agent   string
	project string
}

// skippedNames are files a scan never reads: the client's own credential
// store, where its token belongs (memscope's scrub copies are never
// listed: no store walks .memscope/scrub).
var skippedNames = map[string]bool{".credentials.json": true}

// listUnits lists the files of every store of the home (and, with root,
// the project files and ~/.claude.json outside it). project, when set,
// keeps only that project's files and the home-wide stores filtered to
// it later (history lines, pastes).
func listUnits(o Options) ([]unit, []model.Problem) {
	h := o.Home
	// As many units as the last run counted (Options.units): one slice,
	// not some 15 copies of a growing one (a unit is some 200 bytes; W
	// has 15 000).
	us := make([]unit, 0, o.units)
	add := func(u unit) {
		if u.fsys == nil {
			u.fsys, u.inHome = h.FS, true
		}
		if u.file == "" {
			u.file = u.name
		}
		u.format = formatOf(u.store, u.name)
		us = append(us, u)
	}
	// One walk of projects/: the projects are made from the session
	// files found (ListProjects would walk it again).
	sf, p := model.FindSessionFiles(h.FS)
	projects, _, probs := model.ListProjectsFrom(h.FS, sf, p)
	pathOf := map[string]string{}
	for _, pr := range projects {
		pathOf[pr.Slug] = pr.Path
	}
	wantSlug := func(slug string) bool {
		return o.Project == "" || pathOf[slug] == o.Project || slug == model.Slug(o.Project)
	}
	sessions := map[model.SessionID]bool{}
	for _, t := range sf.Transcripts {
		if t.ProjectSlug == "" && o.Project != "" || t.ProjectSlug != "" && !wantSlug(t.ProjectSlug) {
			continue
		}
		st := StoreTranscript
		if t.Kind == model.TranscriptSubagent {
			st = StoreSubagent
		}
		sessions[model.SessionID(t.SessionID)] = true
		add(unit{store: st, name: t.Path, size: t.Size, modTime: t.ModTime,
			session: model.SessionID(t.SessionID), agent: t.AgentID, project: projectName(pathOf, t.ProjectSlug)})
	}
	for _, t := range sf.ToolResults {
		if !wantSlug(t.ProjectSlug) {
			continue
		}
		add(unit{store: StoreToolResult, name: t.Path, size: t.Size, modTime: t.ModTime,
			session: model.SessionID(t.SessionID), project: projectName(pathOf, t.ProjectSlug)})
	}
	add(unit{store: StoreHistory, name: model.HistoryPath})
	walkTrusting(h.FS, model.PasteCacheDir, 1, &probs, o.trusted, func(name string, e fs.DirEntry) {
		add(unit{store: StorePaste, name: name, ent: e})
	})
	walk(h.FS, model.PasteStoreDir, 1, &probs, func(name string, e fs.DirEntry) {
		add(unit{store: StorePaste, name: name, ent: e})
	})
	walk(h.FS, filehist.RestoreJournalDir, 2, &probs, func(name string, e fs.DirEntry) {
		sid := model.SessionID(path.Base(path.Dir(name)))
		if path.Base(name) != path.Base(filehist.RestoreJournal(sid)) || o.Project != "" && !sessions[sid] {
			return
		}
		add(unit{store: StoreUndoCopy, name: name, ent: e, session: sid})
	})
	walkTrusting(h.FS, "file-history", 2, &probs, o.trusted, func(name string, e fs.DirEntry) {
		id, _, _ := strings.Cut(strings.TrimPrefix(name, "file-history/"), "/")
		sid := model.SessionID(id)
		if o.Project != "" && !sessions[sid] {
			return
		}
		add(unit{store: StoreFileHistory, name: name, ent: e, session: sid})
	})
	for _, pr := range projects {
		if !wantSlug(pr.Slug) {
			continue
		}
		walk(h.FS, pr.Dir+"/memory", 4, &probs, func(name string, e fs.DirEntry) {
			rel := strings.TrimPrefix(name, pr.Dir+"/memory/")
			st := StoreMemory
			switch {
			case rel == journal.Path:
				add(unit{store: StoreUndoCopy, name: name, ent: e, project: projectName(pathOf, pr.Slug)})
				return
			case strings.HasPrefix(rel, ".trash/"):
				st = StoreMemoryTrash
			case strings.HasPrefix(rel, "."):
				return // memscope's journal and locks, the client's dot files
			case !strings.HasSuffix(name, ".md"):
				return
			}
			add(unit{store: st, name: name, ent: e, project: projectName(pathOf, pr.Slug)})
		})
	}
	// The other memory stores (model.HomeMemoryStores, the one list):
	// agent memory, and auto and team memory the settings or the
	// environment keep outside the home's projects/<slug>/memory,
	// walked above.
	var wanted []model.Project
	for _, pr := range projects {
		if wantSlug(pr.Slug) {
			wanted = append(wanted, pr)
		}
	}
	stores, p := model.HomeMemoryStores(model.HomeStoresOptions{Root: memoryRoot(o), HomeDir: h.Dir, UserHome: o.UserHome, Getenv: o.Getenv,
		Projects: wanted, User: o.Project == ""})
	probs = append(probs, p...)
	homeDir := strings.TrimSuffix(h.Dir, "/") + "/"
	var outside []unit // listed after the project files outside the home
	walkedHome := func(rel string) bool {
		parts := strings.SplitN(rel, "/", 4)
		return len(parts) >= 3 && parts[0] == "projects" && parts[2] == "memory"
	}
	for _, st := range stores {
		if !st.Exists {
			continue
		}
		project := st.Project
		if st.Slug != "" {
			project = projectName(pathOf, st.Slug)
		}
		if rel, ok := strings.CutPrefix(st.Dir, homeDir); ok {
			if walkedHome(rel) {
				continue
			}
			walk(h.FS, rel, 4, &probs, func(name string, e fs.DirEntry) {
				if strings.HasSuffix(name, ".md") {
					add(unit{store: StoreMemory, name: name, ent: e, project: project})
				}
			})
			continue
		}
		if o.Root == nil {
			continue
		}
		walk(o.Root, model.RootName(st.Dir), 4, &probs, func(name string, e fs.DirEntry) {
			if strings.HasSuffix(name, ".md") {
				outside = append(outside, unit{store: StoreMemory, fsys: o.Root, name: name, file: "/" + name, outside: true, format: formatOf(StoreMemory, name),
					ent: e, project: project})
			}
		})
	}
	if o.Project == "" {
		walk(h.FS, "memory", 4, &probs, func(name string, e fs.DirEntry) {
			if strings.HasSuffix(name, ".md") {
				add(unit{store: StoreMemory, name: name, ent: e})
			}
		})
		for _, name := range []string{"sessionMemory.md"} {
			if info, ok := regular(h.FS, name, &probs); ok {
				add(unit{store: StoreMemory, name: name, size: info.Size(), modTime: info.ModTime()})
			}
		}
		if info, ok := regular(h.FS, "CLAUDE.md", &probs); ok {
			add(unit{store: StoreClaudeMd, name: "CLAUDE.md", size: info.Size(), modTime: info.ModTime()})
		}
		walk(h.FS, "rules", 6, &probs, func(name string, e fs.DirEntry) {
			if strings.HasSuffix(name, ".md") {
				add(unit{store: StoreClaudeMd, name: name, ent: e})
			}
		})
		for _, name := range []string{"settings.json", "settings.local.json", ".claude.json"} {
			if info, ok := regular(h.FS, name, &probs); ok {
				add(unit{store: StoreSettings, name: name, size: info.Size(), modTime: info.ModTime()})
			}
		}
		walk(h.FS, "backups", 1, &probs, func(name string, e fs.DirEntry) {
			add(unit{store: StoreSettings, name: name, ent: e})
		})
		for _, dir := range []string{"shell-snapshots", "plans", "todos", "debug"} {
			walk(h.FS, dir, 2, &probs, func(name string, e fs.DirEntry) {
				add(unit{store: StoreOther, name: name, ent: e})
			})
		}
	}
	if o.Root != nil {
		us = append(us, outsideUnits(o, projects, wantSlug, &probs)...)
	}
	us = append(us, outside...)
	kept := us[:0]
	for _, u := range us {
		// memscope's own hidden copies are read once, as leftovers.
		if _, own := model.ParseOwnCopy(path.Base(u.name)); own || skippedNames[path.Base(u.name)] {
			continue
		}
		kept = append(kept, u)
	}
	for _, abs := range o.Leftovers {
		rel, err := filepath.Rel(h.Dir, abs)
		if err != nil || !filepath.IsLocal(rel) {
			continue
		}
		rel = filepath.ToSlash(rel)
		if info, ok := regular(h.FS, rel, &probs); ok {
			u := unit{store: StoreLeftover, fsys: h.FS, name: rel, file: rel, size: info.Size(), modTime: info.ModTime()}
			u.format = formatOf(StoreLeftover, rel)
			kept = append(kept, u)
		}
	}
	return kept, probs
}

// storeLike is the store whose format a file named name has, for a
// leftover copy of it.
func storeLike(name string) Store {
	switch {
	case strings.HasSuffix(name, ".jsonl"):
		return StoreTranscript
	case name == "settings.json" || name == "settings.local.json":
		return StoreSettings
	}
	return StoreOther
}

// outsideUnits are the files outside the home that the client reads: each
// project's CLAUDE.md files, rules and settings, and ~/.claude.json.
// They are scanned and reported, never scrubbed (they belong to the
// user's repositories).
func outsideUnits(o Options, projects []model.Project, wantSlug func(string) bool, probs *[]model.Problem) []unit {
	var us []unit
	seen := map[string]bool{}
	add := func(st Store, abs string) {
		name := model.RootName(abs)
		if seen[name] || strings.HasPrefix(abs+"/", o.Home.Dir+"/") {
			return
		}
		seen[name] = true
		if info, ok := regular(o.Root, name, probs); ok {
			us = append(us, unit{store: st, fsys: o.Root, name: name, file: abs, outside: true, format: formatOf(st, abs),
				size: info.Size(), modTime: info.ModTime()})
		}
	}
	for _, pr := range projects {
		if pr.Path == "" || !wantSlug(pr.Slug) {
			continue
		}
		for _, n := range []string{"CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"} {
			add(StoreClaudeMd, path.Join(pr.Path, n))
		}
		walk(o.Root, model.RootName(path.Join(pr.Path, ".claude", "rules")), 6, probs, func(name string, _ fs.DirEntry) {
			if strings.HasSuffix(name, ".md") {
				add(StoreClaudeMd, "/"+name)
			}
		})
		for _, n := range []string{".claude/settings.json", ".claude/settings.local.json"} {
			add(StoreSettings, path.Join(pr.Path, n))
		}
	}
	if o.Project == "" {
		for _, p := range model.ClaudeJSONPaths("", o.UserHome) {
			add(StoreSettings, p)
		}
	}
	return us
}

// memoryRoot is the file system the memory stores are found through:
// the machine's, or the home alone mounted where it is.
func memoryRoot(o Options) fs.FS {
	if o.Root != nil {
		return o.Root
	}
	return model.MountFS(nil, o.Home.Dir, o.Home.FS)
}

func projectName(pathOf map[string]string, slug string) string {
	if p := pathOf[slug]; p != "" {
		return p
	}
	return slug
}

// regular stats name and reports whether it is a regular file.
func regular(fsys fs.FS, name string, probs *[]model.Problem) (fs.FileInfo, bool) {
	info, err := fs.Stat(fsys, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false
	case err != nil:
		*probs = append(*probs, model.Problem{File: name, Kind: model.ProblemUnreadable, Reason: err.Error()})
		return nil, false
	}
	return info, info.Mode().IsRegular()
}

// walk calls fn with every regular file under dir, at most depth levels
// down, in name order. Symbolic links are not followed (a walk stays in
// the home), special files are skipped, and unreadable folders reported.
func walk(fsys fs.FS, dir string, depth int, probs *[]model.Problem, fn func(name string, e fs.DirEntry)) {
	walkTrusting(fsys, dir, depth, probs, nil, fn)
}

// walkTrusting is walk, the files of a last folder (depth 1) that
// trusted answers for taken from it instead of listed
// (trustedFolders.list: a write-once folder as the cache stamped it).
func walkTrusting(fsys fs.FS, dir string, depth int, probs *[]model.Problem, trusted *trustedFolders, fn func(name string, e fs.DirEntry)) {
	if depth == 1 {
		if names, ok := trusted.list(dir); ok {
			for _, name := range names {
				fn(name, trustedEnt)
			}
			return
		}
	}
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrInvalid) {
			*probs = append(*probs, model.Problem{File: dir, Kind: model.ProblemUnreadable, Reason: fmt.Sprintf("read folder: %v", err)})
		}
		return
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for _, e := range ents {
		name := dir + "/" + e.Name()
		switch {
		case e.IsDir():
			if depth > 1 {
				walkTrusting(fsys, name, depth-1, probs, trusted, fn)
			}
		case e.Type().IsRegular():
			// Not lstat'ed: a unit's size is the open's that scans it
			// (unit.sized), so a start whose cache answers for the
			// paste cache and file-history asks nothing of their files.
			fn(name, e)
		}
	}
}
