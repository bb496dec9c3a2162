package inventory

import (
	"errors"
	"io/fs"
	"sort"
	"strings"

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

// Options say where the home is and how to read it.
type Options struct {
	Home *model.Home
	// Root is an fs.FS rooted at "/" for the secondary stores that live by
	// absolute path; nil skips them.
	Root fs.FS
	// Workers bounds the transcripts read at once (default: the CPUs).
	Workers int
	// Getenv reads the environment (CLAUDE_CODE_REMOTE_MEMORY_DIR moves
	// agent memory); nil reads nothing.
	Getenv func(string) string
}

// Stat takes the inventory of a home. Transcripts, the bulk of the bytes,
// are scanned on all CPUs (one streaming pass per file) while the smaller
// stores are read.
func Stat(o Options) Report {
	h := o.Home
	r := Report{Home: h.Dir, Source: string(h.Source), Demo: h.Source == model.HomeFromDemo, RecordTypes: map[string]int{}}
	var probs []model.Problem

	// ListProjects reports what FindSessionFiles finds wrong.
	sf, _ := model.FindSessionFiles(h.FS)
	summaries := make(chan []model.TranscriptSummary, 1)
	go func() { summaries <- summarizeAll(h.FS, sf.Transcripts, o.Workers) }()

	projects, p := model.ListProjects(h.FS)
	probs = append(probs, p...)
	r.Projects = len(projects)
	for _, pr := range projects {
		if !pr.HasMemory {
			continue
		}
		// Counted as read, not kept: a folder may hold a million files.
		md, p := model.ScanMemoryDir(h.FS, pr.Dir+"/memory", func(f *model.MemoryFile) {
			r.MemoryFiles++
			if f.Invalid {
				r.InvalidMemoryFiles++
			}
		})
		probs = append(probs, p...)
		if !md.Exists {
			continue
		}
		r.MemoryDirs++
		if md.Index != nil {
			r.IndexFiles++
			r.IndexLines += len(md.Index.Lines)
			r.IndexEntries += len(md.Index.Entries())
		}
		_, p = model.ScanMemoryDir(h.FS, pr.Dir+"/memory/team", func(*model.MemoryFile) { r.TeamMemoryFiles++ })
		probs = append(probs, p...)
	}

	hist, err := model.ReadHistory(h.FS, model.HistoryPath)
	// No history.jsonl is normal (only -p runs, or a fresh home).
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		probs = append(probs, model.Problem{File: model.HistoryPath, Kind: model.ProblemUnreadable, Reason: err.Error()})
	}
	if hist != nil {
		r.HistoryEntries = len(hist.Entries)
		probs = append(probs, hist.Problems...)
	}
	inv := model.InventoryPastes(h.FS, hist)
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
		r.AgentMemory, p = agentMemory(o, projects)
		probs = append(probs, p...)
		sec, p := model.ReadSecondaryMemory(model.SecondaryOptions{Root: o.Root, HomeDir: h.Dir})
		probs = append(probs, p...)
		for _, s := range sec {
			r.Secondary = append(r.Secondary, Secondary{Kind: string(s.Kind), Label: s.Label, Path: s.Path, Files: len(s.Files)})
		}
	}
	r.Malformed = sessions.SortProblems(probs)
	return r
}

// agentMemory finds every agent memory folder of the home: user scope
// once, project and local scope for each project with a known folder
// (model.FindAgentStores, the one rule for where they are).
func agentMemory(o Options, projects []model.Project) ([]AgentMemory, []model.Problem) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var out []AgentMemory
	var probs []model.Problem
	seen := map[string]bool{}
	look := func(project string) {
		mo := model.MemoryOptions{Root: o.Root, HomeDir: o.Home.Dir, StartDir: project, Getenv: getenv}
		loc := model.MemoryLocation{}
		if project != "" {
			loc.Git = model.FindGitRoot(o.Root, project)
		}
		stores, p := model.FindAgentStores(model.AgentStoreOptionsFor(mo, loc))
		probs = append(probs, p...)
		for _, s := range stores {
			if !s.Exists || seen[s.Dir] {
				continue
			}
			seen[s.Dir] = true
			a := AgentMemory{Agent: s.Agent, Scope: s.Scope, Dir: s.Dir, Definition: s.Definition}
			if s.Scope != model.AgentScopeUser {
				a.Project = project
			}
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
		}
	}
	look("")
	for _, pr := range projects {
		if strings.HasPrefix(pr.Path, "/") {
			look(pr.Path)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Agent != out[j].Agent {
			return out[i].Agent < out[j].Agent
		}
		return out[i].Dir < out[j].Dir
	})
	return out, probs
}

// summarizeAll summarizes transcripts on all CPUs with the sessions
// report's scanner, which gives model.SummarizeTranscript's answers
// (a differential fuzz test holds it to that) several times faster.
// Results are in input order.
func summarizeAll(fsys fs.FS, files []model.TranscriptFile, workers int) []model.TranscriptSummary {
	scans := sessions.ScanAll(fsys, files, workers, false)
	out := make([]model.TranscriptSummary, len(scans))
	for i := range scans {
		out[i] = scans[i].Sum
	}
	return out
}
