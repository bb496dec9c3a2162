package inventory

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
)

// Report is the inventory of a Claude home: what `memscope stat`
// prints. Every count is over what could be read; what could not is in
// Malformed with its file, line and reason.
type Report struct {
	Home   string `json:"home"`
	Source string `json:"source"`
	Demo   bool   `json:"demo"`

	Projects int `json:"projects"`
	// MemoryDirs counts projects/<slug>/memory folders.
	MemoryDirs int `json:"memoryDirs"`
	// MemoryFiles counts topic files (not MEMORY.md), valid or not;
	// InvalidMemoryFiles those whose frontmatter does not parse.
	MemoryFiles        int `json:"memoryFiles"`
	InvalidMemoryFiles int `json:"invalidMemoryFiles"`
	TeamMemoryFiles    int `json:"teamMemoryFiles"`
	// IndexLines counts the lines of every MEMORY.md; IndexEntries the
	// lines that are index entries.
	IndexFiles   int `json:"indexFiles"`
	IndexLines   int `json:"indexLines"`
	IndexEntries int `json:"indexEntries"`

	HistoryEntries int    `json:"historyEntries"`
	Pastes         Pastes `json:"pastes"`

	// Transcripts counts main session transcripts; subagent and seed-layout
	// transcripts are counted apart.
	Transcripts         int `json:"transcripts"`
	SubagentTranscripts int `json:"subagentTranscripts"`
	// SubagentMetaFiles counts the subagents' agent-<id>.meta.json files
	// (2.1.331 writes one per subagent); those that do not read are in
	// Malformed.
	SubagentMetaFiles      int            `json:"subagentMetaFiles"`
	SeedTranscripts        int            `json:"seedTranscripts"`
	ToolResultFiles        int            `json:"toolResultFiles"`
	TranscriptBytes        int64          `json:"transcriptBytes"`
	Records                int            `json:"records"`
	RecordTypes            map[string]int `json:"recordTypes"`
	CompactBoundaries      int            `json:"compactBoundaries"`
	MicrocompactBoundaries int            `json:"microcompactBoundaries"`
	Usage                  model.Usage    `json:"usage"`

	// AgentMemory lists every agent memory folder on disk: user scope,
	// and project and local scope of each project whose folder is known,
	// each with its MEMORY.md against the caps.
	AgentMemory []AgentMemory `json:"agentMemory"`

	// MemoryStores lists every memory store on disk, as
	// model.HomeMemoryStores finds them (search and secrets read the
	// same list): auto memory where the home keeps it and where the
	// settings or the environment moved it, team memory, agent memory.
	MemoryStores []MemoryStore `json:"memoryStores"`

	// Secondary lists team memory and the stores in the older layouts of
	// the seed documents (daily logs, sessionMemory.md).
	Secondary []Secondary `json:"secondary"`

	Malformed []model.Problem `json:"malformed"`
}

// Pastes counts pastes: hashes history refers to and what they
// resolved to, and the files of the paste folders.
type Pastes struct {
	Referenced   int `json:"referenced"`
	Resolved     int `json:"resolved"`
	Missing      int `json:"missing"`
	HashMismatch int `json:"hashMismatch"`
	Unreadable   int `json:"unreadable"`
	Inline       int `json:"inline"`
	Files        int `json:"files"`
	Orphans      int `json:"orphans"`
}

// Secondary is one secondary store and how many files it holds.
type Secondary struct {
	Kind  string `json:"kind"`
	Label string `json:"label"`
	Path  string `json:"path"`
	Files int    `json:"files"`
}

// AgentMemory is one agent's memory folder: its files and its MEMORY.md
// against the same caps as project memory.
type AgentMemory struct {
	Agent string                 `json:"agent"`
	Scope model.AgentMemoryScope `json:"scope"`
	Dir   string                 `json:"dir"`
	// Project is the project folder of a project or local scope store.
	Project string `json:"project,omitempty"`
	// Definition is the agent file declaring it; "" when none does.
	Definition string `json:"definition,omitempty"`
	// Files counts topic files; InvalidFiles those whose frontmatter does
	// not parse.
	Files        int `json:"files"`
	InvalidFiles int `json:"invalidFiles"`
	// Index says whether it has a MEMORY.md; Cap is it against the caps.
	Index bool              `json:"index"`
	Cap   memindex.IndexCap `json:"cap"`
}

// MemoryStore is one memory store on disk and its topic files.
type MemoryStore struct {
	Kind    model.StoreKind `json:"kind"`
	Dir     string          `json:"dir"`
	Project string          `json:"project,omitempty"`
	Agent   string          `json:"agent,omitempty"`
	Files   int             `json:"files"`
}

// Options say where the home is and how to read it.
type Options struct {
	Home *model.Home
	// Root is an fs.FS rooted at "/" for the secondary stores that live by
	// absolute path; nil skips them.
	Root fs.FS
	// Workers bounds the transcripts read at once (default: the CPUs).
	Workers int
	// Cache keeps what was read across runs (see diskcache): files whose
	// stamp is unchanged are not read again, history.jsonl is read from
	// where the last run stopped. nil reads everything.
	Cache *diskcache.Store
	// Getenv reads the environment (CLAUDE_CODE_REMOTE_MEMORY_DIR moves
	// agent memory); nil reads nothing.
	Getenv func(string) string
	// UserHome is the user's home folder ("~/" in autoMemoryDirectory).
	UserHome string
	// History is history.jsonl as a reader already holds it (the app's
	// History feed: model.HistoryRead with its Tail), counted instead of
	// reading the file again; only what follows it is read. nil: Stat
	// reads the file (from the cache's counts when it has them).
	History *model.HistoryRead
	// Pastes are verdicts on paste files another reader hashed as it read
	// them (the secrets scan's, model.PasteVerdictOf), taken like the
	// cache's: a file with one is not read again.
	Pastes []model.PasteVerdict
}

// Stat takes the inventory of a home. Transcripts, the bulk of the bytes,
// are scanned on all CPUs (one streaming pass per file) while the smaller
// stores are read. With a cache, only what changed since the last run
// is read, and the answer is the same.
func Stat(o Options) Report {
	h := o.Home
	r := Report{Home: h.Dir, Source: string(h.Source), Demo: h.Source == model.HomeFromDemo, RecordTypes: map[string]int{}}
	var probs []model.Problem
	var cache, next *statCache
	if o.Cache != nil {
		cache = loadCache(o.Cache, h.Dir)
		next = &statCache{Transcripts: map[string]cachedTranscript{}, Memory: map[string]cachedMemory{}}
	} else {
		cache, next = &statCache{}, &statCache{}
	}

	sf, sfProbs := model.FindSessionFiles(h.FS)
	summaries := make(chan []model.TranscriptSummary, 1)
	var kept int
	go func() {
		var sums []model.TranscriptSummary
		sums, kept = summarizeCached(h.FS, sf.Transcripts, o.Workers, cache.Transcripts, next.Transcripts)
		summaries <- sums
	}()

	hc, ok := historyCounts{}, false
	switch {
	case o.History != nil:
		hc, ok = heldHistoryCounts(h.FS, o.History)
		// What the cache counted stays for the next run that reads the
		// file (checked against the file then, as always).
		next.History = cache.History
	case o.Cache != nil:
		hc, next.History, ok = readHistoryCached(h.FS, cache.History)
	}
	if !ok {
		hc = readHistory(h.FS)
	}
	r.HistoryEntries = hc.entries
	probs = append(probs, hc.problems...)
	pastes := make(chan *model.PasteInventory, 1)
	var pastesSame bool
	// verdicts are kept in next.Pastes only when the cache is written.
	var verdicts *model.PasteVerdicts
	go func() {
		v := model.NewPasteVerdicts()
		verdicts = v
		v.Restore(cache.Pastes)
		v.Restore(o.Pastes)
		var inv *model.PasteInventory
		if o.Cache == nil {
			inv = model.InventoryPasteRefs(h.FS, hc.refs, v)
		} else {
			// paste-cache's files are taken from the cache while the
			// folder is as it was: no paste is looked at on a warm start.
			var folder *model.PasteFolder
			inv, folder = model.InventoryPasteFolder(h.FS, hc.refs, v, cache.PasteFolder.folder(), time.Now())
			next.PasteFolder = keep(folder)
			// Nothing hashed, so what is kept is what was loaded, less
			// any dropped; the folder kept as it was loaded.
			pastesSame = v.Hashed() == 0 && v.Kept() == len(cache.Pastes) && sameFolder(cache.PasteFolder.folder(), folder)
		}
		pastes <- inv
	}()

	projects, _, p := model.ListProjectsFrom(h.FS, sf, sfProbs)
	probs = append(probs, p...)
	r.Projects = len(projects)
	memKept := 0
	// counted are the memory files of each project's folder under the
	// home, by absolute folder: the stores' list counts them again
	// (agentMemory), from these.
	counted := map[string]int{}
	for _, pr := range projects {
		if !pr.HasMemory {
			continue
		}
		// Counted as read, not kept: a folder may hold a million files.
		m, hit := scanMemoryCached(h.FS, pr.Dir+"/memory", cache.Memory, next.Memory)
		if hit {
			memKept++
		}
		counted[path.Join(h.Dir, pr.Dir, "memory")] = m.Files
		probs = append(probs, m.Problems...)
		r.MemoryFiles += m.Files
		r.InvalidMemoryFiles += m.Invalid
		if !m.Exists {
			continue
		}
		r.MemoryDirs++
		r.IndexFiles += m.IndexFiles
		r.IndexLines += m.IndexLines
		r.IndexEntries += m.IndexEntries
		r.TeamMemoryFiles += m.Team
	}

	inv := <-pastes
	probs = append(probs, inv.Problems...)
	s := inv.Summary
	r.Pastes = Pastes{Referenced: s.Referenced, Resolved: s.Resolved, Missing: s.Missing, HashMismatch: s.HashMismatch,
		Unreadable: s.Unreadable, Inline: s.Inline, Files: s.Files, Orphans: s.Orphans}

	r.ToolResultFiles = len(sf.ToolResults)
	r.SubagentMetaFiles = len(sf.SubagentMeta)
	for _, m := range sf.SubagentMeta {
		if _, err := model.ReadSubagentMeta(h.FS, m); err != nil {
			probs = append(probs, model.Problem{File: m, Kind: model.ProblemUnreadable, Reason: err.Error()})
		}
	}
	for _, t := range sf.Transcripts {
		switch t.Kind {
		case model.TranscriptMain:
			r.Transcripts++
		case model.TranscriptSubagent:
			r.SubagentTranscripts++
		default:
			r.SeedTranscripts++
		}
	}
	for _, sum := range <-summaries {
		r.TranscriptBytes += sum.Bytes
		r.Records += sum.Records
		for t, n := range sum.Types {
			r.RecordTypes[t] += n
		}
		r.CompactBoundaries += sum.CompactBoundaries
		r.MicrocompactBoundaries += sum.MicrocompactBoundaries
		r.Usage = r.Usage.Add(sum.Usage)
		probs = append(probs, sum.Problems...)
	}

	if o.Root != nil {
		var p []model.Problem
		r.AgentMemory, r.MemoryStores, p = agentMemory(o, projects, counted)
		probs = append(probs, p...)
		sec, p := model.ReadSecondaryMemory(model.SecondaryOptions{Root: o.Root, HomeDir: h.Dir})
		probs = append(probs, p...)
		for _, s := range sec {
			r.Secondary = append(r.Secondary, Secondary{Kind: string(s.Kind), Label: s.Label, Path: s.Path, Files: len(s.Files)})
		}
	}
	r.Malformed = sessions.SortProblems(probs)
	// Given the held read, the history entry is the one loaded (kept for
	// a run that reads the file): nothing of it to write back.
	same := pastesSame && kept == len(sf.Transcripts) && kept == len(cache.Transcripts) &&
		memKept == len(next.Memory) && memKept == len(cache.Memory) && (o.History != nil || sameHistory(cache.History, next.History))
	if o.Cache != nil && !same {
		// A cache that cannot be written costs the next run its speed,
		// never its answer.
		next.Pastes = savedVerdicts(verdicts)
		_ = diskcache.Save(o.Cache, cacheKind, diskcache.Name(cacheKind, h.Dir), *next)
	}
	return r
}

// heldHistoryCounts counts history.jsonl from held, the file as a reader
// holds it, and what follows it (appended since, and the unterminated
// last line counted as a whole read counts it: HistoryTail.Pending, the
// cleanup forecast's rule for the same held file): readHistory's answer
// without reading again what held holds. ok is false when what follows
// cannot be read: the caller reads the file whole.
func heldHistoryCounts(fsys fs.FS, held *model.HistoryRead) (hc historyCounts, ok bool) {
	t := model.HistoryTail{State: held.Tail.State, Counts: true}
	pend, probs, err := t.Pending(fsys, model.HistoryPath)
	if err != nil {
		return hc, false
	}
	hc.refs = model.PasteRefs{Counts: map[model.PasteHash]int{}}
	hc.refs.Add(held.Entries)
	hc.refs.Add(pend)
	hc.entries = len(held.Entries) + len(pend)
	if held.Sums != nil {
		// The reader's digest of the entries (model.HistorySums).
		held.Sums.Refs(&hc.refs)
		hc.entries += held.Sums.Entries
	}
	hc.problems = append(append(hc.problems, held.Problems...), probs...)
	return hc, true
}

// readHistory reads history.jsonl whole: its entries, problems and paste
// references. No history.jsonl is normal (only -p runs, or a fresh home).
func readHistory(fsys fs.FS) historyCounts {
	hist, err := model.ReadHistory(fsys, model.HistoryPath)
	var hc historyCounts
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		hc.problems = append(hc.problems, model.Problem{File: model.HistoryPath, Kind: model.ProblemUnreadable, Reason: err.Error()})
	}
	if hist != nil {
		hc.entries = len(hist.Entries)
		hc.problems = append(hc.problems, hist.Problems...)
	}
	hc.refs = model.PasteRefsOf(hist)
	return hc
}

// agentMemory lists every memory store of the home on disk
// (model.HomeMemoryStores, the one list) and, for each agent's, its
// files and MEMORY.md against the caps. counted are the memory files
// already counted in the home's project folders, by absolute folder
// (CountMemory's answer, kept by Stat's cache): a store in one of them
// is not walked again.
func agentMemory(o Options, projects []model.Project, counted map[string]int) ([]AgentMemory, []MemoryStore, []model.Problem) {
	list, probs := model.HomeMemoryStores(model.HomeStoresOptions{Root: o.Root, HomeDir: o.Home.Dir, UserHome: o.UserHome, Getenv: o.Getenv,
		Projects: projects, User: true})
	var out []AgentMemory
	stores := []MemoryStore{}
	for _, s := range list {
		if !s.Exists {
			continue
		}
		if s.Kind != model.StoreAgent {
			n, ok := counted[s.Dir]
			if !ok {
				n = CountMemory(o.Root, model.RootName(s.Dir)).Files
			}
			stores = append(stores, MemoryStore{Kind: s.Kind, Dir: s.Dir, Project: s.Project, Files: n})
			continue
		}
		a := AgentMemory{Agent: s.Agent, Scope: s.Scope, Dir: s.Dir, Definition: s.Definition, Project: s.Project}
		md, p := model.ScanMemoryDir(o.Root, model.RootName(s.Dir), func(f *model.MemoryFile) {
			a.Files++
			if f.Invalid {
				a.InvalidFiles++
			}
		})
		for i := range p {
			p[i].File = model.RootPath(p[i].File)
		}
		probs = append(probs, p...)
		var raw []byte
		if md.Index != nil {
			a.Index, raw = true, md.Index.Bytes()
		}
		a.Cap = memindex.CapIndex(raw)
		out = append(out, a)
		stores = append(stores, MemoryStore{Kind: s.Kind, Dir: s.Dir, Project: s.Project, Agent: s.Agent, Files: a.Files})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Agent != out[j].Agent {
			return out[i].Agent < out[j].Agent
		}
		return out[i].Dir < out[j].Dir
	})
	return out, stores, probs
}

// summarizeAll summarizes transcripts on all CPUs with the sessions
// report's scanner, which gives model.SummarizeTranscript's answers
// (a differential fuzz test holds it to that) several times faster.
// Results are in input order. With stamp set, each file is stamped from
// the open that reads it (sessions.ScanAllStamping).
func summarizeAll(fsys fs.FS, files []model.TranscriptFile, workers int, stamp func(i int, st model.FileStamp)) []model.TranscriptSummary {
	scans := sessions.ScanAllStamping(fsys, files, workers, false, stamp)
	out := make([]model.TranscriptSummary, len(scans))
	for i := range scans {
		out[i] = scans[i].Sum
	}
	return out
}

// savedVerdicts are the verdicts to keep (PasteVerdicts.Saved: all of a
// home's, sorted by path), made only when the cache is written (the
// tests count them).
var savedVerdicts = (*model.PasteVerdicts).Saved

// sameFolder says the kept paste folders a and b are the same: a trusted
// folder is kept with its files and time of the full pass unchanged, a
// listed one with the time of this run.
func sameFolder(a, b *model.PasteFolder) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ID == b.ID && a.ModTime == b.ModTime && a.Full.Equal(b.Full) && len(a.Files) == len(b.Files)
}
