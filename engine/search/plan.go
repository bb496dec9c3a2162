package search

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/model"
)

// planner lists the units of each store, in the order the hits come
// back: store by store (transcripts, history, pastes, memory, CLAUDE.md,
// file history), newest file first within a store.
type planner struct {
	o    *Options
	root fs.FS
	refs *pasteRefs
	// projects are the home's projects (whole-home search) or the one
	// searched; their folders say where CLAUDE.md and agent memory are.
	projects []model.Project
	// sessions are the sessions searched (their transcripts listed);
	// mains their main transcripts, by session id.
	sessions map[string]bool
	mains    map[string]model.TranscriptFile
	probs    []model.Problem
	// sessionFilesFound is the walk of the session folders, once.
	sessionFilesFound *model.SessionFiles
}

// storeUnits lists the units of store st.
func (p *planner) storeUnits(st Store) []*unit {
	var us []*unit
	switch st {
	case StoreTranscripts:
		us = p.transcripts()
	case StoreHistory:
		us = p.history()
	case StorePastes:
		us = p.pastes()
	case StoreMemory:
		us = p.memory()
	case StoreClaudeMd:
		us = p.claudeMd()
	case StoreFileHistory:
		us = p.fileHistory()
	}
	return p.newestFirst(us)
}

// newestFirst keeps the units Since wants, newest first.
func (p *planner) newestFirst(us []*unit) []*unit {
	kept := us[:0]
	for _, u := range us {
		if p.o.Since.IsZero() || !u.mod.Before(p.o.Since) {
			kept = append(kept, u)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return newerUnit(kept[i], kept[j]) })
	return kept
}

// newerUnit orders units newest first, and files of one mtime by path:
// a clone or a copy gives many files one mtime (a coarse clock tick), and
// the order must not then hang on the order a listing found them in.
func newerUnit(a, b *unit) bool {
	if !a.mod.Equal(b.mod) {
		return a.mod.After(b.mod)
	}
	return a.file < b.file
}

// listProjects finds the projects searched and their transcripts.
func (p *planner) listProjects() []model.TranscriptFile {
	o := p.o
	if o.Project != nil {
		sf, probs := model.FindProjectSessionFiles(o.Home, o.Project.Slug)
		p.sessionFilesFound = &sf
		ts := sf.Transcripts
		p.probs = append(p.probs, probs...)
		p.projects = []model.Project{{Slug: o.Project.Slug, Dir: "projects/" + o.Project.Slug, Path: o.Project.Dir}}
		return ts
	}
	sf, sfProbs := model.FindSessionFiles(o.Home)
	p.sessionFilesFound = &sf
	ps, bySlug, probs := model.ListProjectsFrom(o.Home, sf, sfProbs)
	p.probs = append(p.probs, probs...)
	p.projects = ps
	var ts []model.TranscriptFile
	for _, pr := range ps {
		ts = append(ts, bySlug[pr.Slug]...)
	}
	return ts
}

// projectPath is the folder of project slug, else the slug.
func (p *planner) projectPath(slug string) string {
	for _, pr := range p.projects {
		if pr.Slug == slug && pr.Path != "" {
			return pr.Path
		}
	}
	return slug
}

// noteSessions records the sessions of the transcripts ts.
func (p *planner) noteSessions(ts []model.TranscriptFile) {
	p.sessions, p.mains = map[string]bool{}, map[string]model.TranscriptFile{}
	for _, t := range ts {
		p.sessions[t.SessionID] = true
		if t.AgentID == "" {
			p.mains[t.SessionID] = t
		}
	}
}

func (p *planner) transcripts() []*unit {
	ts := p.listProjects()
	p.noteSessions(ts)
	var us []*unit
	for _, t := range ts {
		us = append(us, &unit{kind: unitTranscript, store: StoreTranscripts, fsys: p.o.Home, name: t.Path, file: t.Path,
			mod: t.ModTime, size: t.Size, project: p.projectPath(t.ProjectSlug), session: t.SessionID, agent: t.AgentID})
	}
	return us
}

// sessionFiles lists what the client keeps beside sessions: large tool
// results saved to files, and the seed layout's
// sessions/<id>/transcript.jsonl (none when one project is searched).
// They are queued after the transcripts, so the first hits of the newest
// transcripts do not wait for them.
func (p *planner) sessionFiles() []*unit {
	var us []*unit
	sf := p.found()
	for _, t := range sf.Transcripts {
		if t.Kind == model.TranscriptSeed {
			us = append(us, &unit{kind: unitTranscript, store: StoreTranscripts, fsys: p.o.Home, name: t.Path, file: t.Path,
				mod: t.ModTime, size: t.Size, session: t.SessionID})
		}
	}
	for _, t := range sf.Replaced {
		us = append(us, &unit{kind: unitTranscript, store: StoreTranscripts, fsys: p.o.Home, name: t.Path, file: t.Path,
			mod: t.ModTime, size: t.Size, project: p.projectPath(t.ProjectSlug), session: t.SessionID,
			label: "earlier history, kept before a local cleanup rewrote the transcript"})
	}
	for _, r := range sf.ToolResults {
		us = append(us, p.toolResult(r))
	}
	return us
}

// found is what the walk of the session folders found (the searched
// project's, or the home's): the one listProjects made, else a walk now
// (its problems were reported by listProjects, or are the transcripts'
// to report).
func (p *planner) found() model.SessionFiles {
	if p.sessionFilesFound == nil {
		var sf model.SessionFiles
		if p.o.Project != nil {
			sf, _ = model.FindProjectSessionFiles(p.o.Home, p.o.Project.Slug)
		} else {
			sf, _ = model.FindSessionFiles(p.o.Home)
		}
		p.sessionFilesFound = &sf
	}
	return *p.sessionFilesFound
}

func (p *planner) toolResult(r model.ToolResultFile) *unit {
	return &unit{kind: unitText, store: StoreTranscripts, fsys: p.o.Home, name: r.Path, file: r.Path, mod: r.ModTime, size: r.Size,
		project: p.projectPath(r.ProjectSlug), session: r.SessionID, label: "tool result saved to a file"}
}

func (p *planner) history() []*unit {
	st, err := fs.Stat(p.o.Home, model.HistoryPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		p.probs = append(p.probs, openProblem(model.HistoryPath, err))
		return nil
	}
	return []*unit{{kind: unitHistory, store: StoreHistory, fsys: p.o.Home, name: model.HistoryPath, file: model.HistoryPath, mod: st.ModTime(), size: st.Size()}}
}

// pastes are the paste cache's files: all of them, or only those the
// searched prompts refer to (a project's, or when pastes are searched as
// part of history).
func (p *planner) pastes() []*unit {
	files, probs := model.NewPasteCache(p.o.Home).List()
	p.probs = append(p.probs, probs...)
	onlyReferenced := p.o.Project != nil || !p.o.has(StorePastes)
	var us []*unit
	for _, f := range files {
		if onlyReferenced && len(p.refs.of(f.Hash)) == 0 {
			continue
		}
		us = append(us, &unit{kind: unitText, store: StorePastes, fsys: p.o.Home, name: f.Path, file: f.Path, mod: f.ModTime, size: f.Size,
			paste: f.Hash, label: string(f.Hash), listed: true})
	}
	return us
}

// memory lists the memory files: the project's auto memory (or every
// project's), team memory, agent memory, and the seed layouts.
func (p *planner) memory() []*unit {
	o := p.o
	var us []*unit
	// addDir adds a memory folder of the home (rooted false) or of the
	// machine (p.root; file systems are not compared: a map one panics).
	addDir := func(rooted bool, dir, shown, label, project string) {
		fsys := p.o.Home
		if rooted {
			fsys = p.root
		}
		md, probs := model.ListMemoryDir(fsys, dir)
		if rooted {
			for i := range probs {
				probs[i].File = p.shown(model.RootPath(probs[i].File))
			}
		}
		p.notRead(probs)
		if !md.Exists {
			return
		}
		if md.IndexListed {
			us = append(us, &unit{kind: unitText, store: StoreMemory, fsys: fsys, name: path.Join(dir, model.MemoryIndexName), file: path.Join(shown, model.MemoryIndexName),
				mod: md.IndexModTime, size: md.IndexSize, label: label, project: project, memory: true})
		}
		for _, f := range md.Files {
			us = append(us, &unit{kind: unitText, store: StoreMemory, fsys: fsys, name: path.Join(dir, f.Path), file: path.Join(shown, f.Path),
				mod: f.ModTime, size: f.Size, label: label, project: project, memory: true, listed: true})
		}
	}
	addSecondary := func(so model.SecondaryOptions, project string) {
		srcs, probs := model.ReadSecondaryMemory(so)
		for i := range probs {
			probs[i].File = p.shown(probs[i].File)
		}
		p.notRead(probs)
		for _, s := range srcs {
			label := labelOf(s)
			switch {
			case s.Kind == model.SecondarySessionMemory || s.Kind == model.SecondaryRepoIndex:
				name := model.RootName(s.Path)
				if st, err := fs.Stat(p.root, name); err == nil {
					us = append(us, &unit{kind: unitText, store: StoreMemory, fsys: p.root, name: name, file: p.shown(s.Path), mod: st.ModTime(),
						size: st.Size(), label: label, project: project, memory: true})
				}
			case s.Kind == model.SecondaryDailyLog:
				for _, f := range s.Files {
					abs := path.Join(s.Path, f.Path)
					us = append(us, &unit{kind: unitText, store: StoreMemory, fsys: p.root, name: model.RootName(abs), file: p.shown(abs),
						mod: f.ModTime, size: f.Size, label: label, project: project, memory: true})
				}
			default:
				addDir(true, model.RootName(s.Path), p.shown(s.Path), label, project)
			}
		}
	}
	// The memory stores: model.HomeMemoryStores, the one list (auto
	// memory where the home keeps it and where the settings or the
	// environment moved it, team memory, agent memory in every scope).
	projects := p.projects
	if o.Project != nil {
		projects = []model.Project{{Slug: o.Project.Slug, Dir: "projects/" + o.Project.Slug, Path: o.Project.Dir}}
	}
	stores, probs := model.HomeMemoryStores(model.HomeStoresOptions{Root: p.root, HomeDir: o.HomeDir, UserHome: o.UserHome, Getenv: o.Getenv,
		Projects: projects, User: true})
	for i := range probs {
		probs[i].File = p.shown(probs[i].File)
	}
	p.notRead(probs)
	for _, st := range stores {
		if !st.Exists {
			continue
		}
		project := st.Project
		if st.Slug != "" {
			project = p.projectPath(st.Slug)
			if o.Project != nil {
				project = o.Project.Dir
			}
		}
		label := "auto memory"
		switch st.Kind {
		case model.StoreAgent:
			label = "agent memory " + st.Agent
		case model.StoreTeam:
			label = labelOf(model.SecondarySource{Kind: model.SecondaryTeam})
		}
		if rel, ok := strings.CutPrefix(st.Dir, strings.TrimSuffix(o.HomeDir, "/")+"/"); ok && st.Kind != model.StoreAgent {
			addDir(false, rel, rel, label, project)
			continue
		}
		addDir(true, model.RootName(st.Dir), p.shown(st.Dir), label, project)
	}
	// The other layouts: a repository's MEMORY.md, the daily logs and
	// sessionMemory.md of the seed documents.
	if o.Project != nil {
		addSecondary(model.SecondaryOptions{Root: p.root, HomeDir: o.HomeDir, RepoDir: o.Project.Dir}, o.Project.Dir)
		return us
	}
	for _, pr := range projects {
		if pr.Path != "" {
			addSecondary(model.SecondaryOptions{Root: p.root, RepoDir: pr.Path}, pr.Path)
		}
	}
	addSecondary(model.SecondaryOptions{Root: p.root, HomeDir: o.HomeDir}, "")
	return us
}

// notRead keeps the problems that say a file was not read: a memory
// file whose frontmatter does not parse is still searched, as text.
func (p *planner) notRead(probs []model.Problem) {
	for _, pr := range probs {
		if pr.Kind == model.ProblemUnreadable {
			p.probs = append(p.probs, pr)
		}
	}
}

// labelOf names a secondary memory store for a hit.
func labelOf(s model.SecondarySource) string {
	return strings.ReplaceAll(string(s.Kind), "-", " ")
}

// claudeMd lists the CLAUDE.md files and rules the project loads (or
// every project of the home does), conditional rules included.
func (p *planner) claudeMd() []*unit {
	o := p.o
	dirs := []string{""}
	if o.Project != nil {
		dirs = []string{o.Project.Dir}
	} else {
		for _, pr := range p.projects {
			if pr.Path != "" {
				dirs = append(dirs, pr.Path)
			}
		}
	}
	seen := map[string]bool{}
	var us []*unit
	add := func(abs string, kind preview.LayerKind, project string) {
		if seen[abs] {
			return
		}
		seen[abs] = true
		name := model.RootName(abs)
		st, err := fs.Stat(p.root, name)
		if err != nil {
			return
		}
		us = append(us, &unit{kind: unitText, store: StoreClaudeMd, fsys: p.root, name: name, file: p.shown(abs), mod: st.ModTime(), size: st.Size(),
			label: string(kind), project: project})
	}
	for _, d := range dirs {
		if d == "" && o.Project == nil {
			// The user's own files, read by every project.
			d = o.HomeDir
		}
		res := preview.AssembleClaudeMd(preview.ClaudeMdOptions{Root: p.root, HomeDir: o.HomeDir, UserHome: o.UserHome, Project: d})
		project := d
		if d == o.HomeDir {
			project = ""
		}
		for _, l := range res.Layers {
			owner := project
			if l.Kind == preview.KindManaged || l.Kind == preview.KindUser {
				owner = ""
			}
			add(l.Path, l.Kind, owner)
		}
		for _, r := range res.ConditionalRules {
			add(r.Path, r.Kind, project)
		}
	}
	return us
}

func (p *planner) fileHistory() []*unit {
	sessions, probs := model.ListFileHistory(p.o.Home)
	p.probs = append(p.probs, probs...)
	var us []*unit
	for _, s := range sessions {
		if p.o.Project != nil && !p.sessions[string(s.SessionID)] {
			continue
		}
		main, known := p.mains[string(s.SessionID)]
		for _, b := range s.Backups {
			if !b.Mode.IsRegular() {
				continue // reported by the listing
			}
			u := &unit{kind: unitText, store: StoreFileHistory, fsys: p.o.Home, name: b.Path, file: b.Path, mod: b.ModTime, size: b.Size,
				session: string(s.SessionID), label: "backup v" + itoa(b.Version) + " of " + b.PathHash, backup: b.Name, listed: true}
			if known {
				u.transcript, u.project = main.Path, p.projectPath(main.ProjectSlug)
			}
			us = append(us, u)
		}
	}
	return us
}

// shown is how a hit names the file at abs: inside the home relative to
// it, else absolute.
func (p *planner) shown(abs string) string {
	home := strings.TrimSuffix(p.o.HomeDir, "/")
	if rel, ok := strings.CutPrefix(abs, home+"/"); ok && home != "" {
		return rel
	}
	return abs
}

// pasteRefs are the history lines that refer to each paste, read from
// history.jsonl once, when first asked for.
type pasteRefs struct {
	o    *Options
	once sync.Once
	by   map[model.PasteHash][]PromptRef
}

func (r *pasteRefs) of(h model.PasteHash) []PromptRef {
	r.once.Do(r.read)
	return r.by[h]
}

// A prompt refers to a paste kept in the paste cache by its contentHash:
// only the lines that hold the word are decoded (a tenth of them on W).
var contentHashFinder = newFinder([]byte(`"contentHash"`), false)

func (r *pasteRefs) read() {
	r.by = map[model.PasteHash][]PromptRef{}
	w := &worker{}
	var res result
	u := &unit{fsys: r.o.Home, name: model.HistoryPath, file: model.HistoryPath}
	w.scanLines(context.Background(), u, &res, lineScan{finds: []anchor{contentHashFinder}}, func(b []byte, n int) {
		e, err := model.ParseHistoryLine(b, n)
		if err != nil || !r.o.wantsProject(&e) {
			return
		}
		for _, pc := range e.SortedPastes() {
			if pc.Hash == "" || pc.Inline {
				continue
			}
			refs := r.by[pc.Hash]
			if !slices.ContainsFunc(refs, func(x PromptRef) bool { return x.Line == e.Line && x.PasteID == int(pc.ID) }) {
				r.by[pc.Hash] = append(refs, PromptRef{Line: e.Line, Project: e.Project, Time: e.Timestamp, PasteID: int(pc.ID)})
			}
		}
	})
}
