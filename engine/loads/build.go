package loads

import (
	"cmp"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/model"
)

// DefaultDays is the window lint and prune judge loads over.
const DefaultDays = 30

// maxJoins bounds the mid-session joins kept per file.
const maxJoins = 5

// Kind says what a loaded file is.
type Kind string

// The kinds.
const (
	KindClaudeMd    Kind = "claude-md"
	KindRule        Kind = "rule"
	KindImport      Kind = "import"
	KindMemoryIndex Kind = "memory-index"
)

// Options say whose loads to read and what to compare them with.
type Options struct {
	// Home is the Claude home; HomeDir its absolute folder.
	Home    fs.FS
	HomeDir string
	// Slug is the project's folder under projects/ (its transcripts);
	// "" when it has none.
	Slug string
	// Root is the machine from "/" (with the home mounted), to say which
	// loaded files are still on disk; nil skips that.
	Root fs.FS
	// Memory is the project's memory folder as it is now, MemoryDir its
	// absolute path; nil when there is none.
	Memory    *model.MemoryDir
	MemoryDir string
	// Preview is what the next session would load; its rules and imports
	// are checked against the loads. Nil skips the check.
	Preview *preview.Preview
	Now     time.Time
	// Days is the window rules and imports are judged over
	// (DefaultDays when 0).
	Days int
	// Cache keeps transcripts' events between builds; nil reads all.
	Cache *Cache
	// CachedOnly reads no transcript: each one's events are what the
	// cache holds, even for a transcript that changed since (none for one
	// never read). A quick build for a caller that reads again later.
	CachedOnly bool
}

// File is one instruction file or MEMORY.md, and the sessions that loaded it.
type File struct {
	// Path is where the file is on this machine; RecordedAs the paths the
	// transcripts wrote when they differ (a home recorded elsewhere).
	Path       string   `json:"path"`
	RecordedAs []string `json:"recordedAs,omitempty"`
	Kind       Kind     `json:"kind"`
	Label      string   `json:"label"`
	// Sessions loaded it, SessionsInWindow of them in the last Days days;
	// Loads counts every process start and mid-session join, MidSession
	// the joins.
	Sessions         int       `json:"sessions"`
	SessionsInWindow int       `json:"sessionsInWindow"`
	Loads            int       `json:"loads"`
	MidSession       int       `json:"midSession"`
	First            time.Time `json:"first"`
	Last             time.Time `json:"last"`
	LastSession      string    `json:"lastSession"`
	// Globs are a path-scoped rule's paths:, as the client sent them.
	Globs []string `json:"globs,omitempty"`
	// Joins are the latest mid-session joins, newest first.
	Joins  []Join `json:"joins,omitempty"`
	OnDisk bool   `json:"onDisk"`
}

// Join is a file joining a session mid-way (a nested_memory attachment):
// the record to open in Replay.
type Join struct {
	Session    string    `json:"session"`
	Transcript string    `json:"transcript"`
	Line       int       `json:"line"`
	UUID       string    `json:"uuid"`
	Time       time.Time `json:"time"`
}

// Memory is one topic file of the memory folder, and the sessions whose
// loaded MEMORY.md listed it (the model saw its index line).
type Memory struct {
	File string `json:"file"`
	// IndexLine is its first line in MEMORY.md now (0: not listed);
	// PastCut says that line is past the cut, so sessions now miss it.
	IndexLine int  `json:"indexLine,omitempty"`
	PastCut   bool `json:"pastCut,omitempty"`
	Sessions  int  `json:"sessions"`
	// Last is the last load that listed it (zero: none recorded).
	Last time.Time `json:"last,omitzero"`
	// UnseenSince is set for a memory past the cut: the model has not seen
	// its index line since then (Last, or, when no recorded session ever
	// listed it, the first recorded load of MEMORY.md).
	UnseenSince time.Time `json:"unseenSince,omitzero"`
}

// Expected is a rule or import the next session would load (or try to),
// with what the transcripts say of it: lint's facts.
type Expected struct {
	Path string `json:"path"`
	Kind Kind   `json:"kind"`
	// Conditional is a rule with paths: (Globs), loaded only when a
	// matching file is read.
	Conditional bool     `json:"conditional,omitempty"`
	Globs       []string `json:"globs,omitempty"`
	// ImportedFrom, Line and Raw place an import ("@raw" on that line).
	ImportedFrom string `json:"importedFrom,omitempty"`
	Line         int    `json:"line,omitempty"`
	Raw          string `json:"raw,omitempty"`
	// Status is the preview's: loaded, conditional, missing, …
	Status preview.LayerStatus `json:"status"`
	// SessionsInWindow loaded it in the window; Eligible sessions in the
	// window started after the file was last written (a rule), or loaded
	// the importing file (an import).
	SessionsInWindow int       `json:"sessionsInWindow"`
	Eligible         int       `json:"eligible"`
	Last             time.Time `json:"last,omitzero"`
	ModTime          time.Time `json:"mtime,omitzero"`
}

// Report is what the project's transcripts say was loaded.
type Report struct {
	Slug      string `json:"slug"`
	MemoryDir string `json:"memoryDir,omitempty"`
	Days      int    `json:"days"`
	// Transcripts were read; Sessions recorded loads (Recorded
	// SessionsInWindow of them in the window); Unrecorded sessions'
	// transcripts record none (older clients): nothing is known of them.
	Transcripts      int       `json:"transcripts"`
	Sessions         int       `json:"sessions"`
	SessionsInWindow int       `json:"sessionsInWindow"`
	Unrecorded       int       `json:"unrecorded"`
	First            time.Time `json:"first,omitzero"`
	Last             time.Time `json:"last,omitzero"`
	Files            []File    `json:"files"`
	Memories         []Memory  `json:"memories"`
	// Expected are the rules and imports of the next session's prompt.
	Expected []Expected      `json:"expected"`
	Problems []model.Problem `json:"problems"`
	// Partial says a CachedOnly build took a transcript's events from
	// nothing or from an older read (not in the cache, or changed since):
	// a build that reads them may say more. Not printed.
	Partial bool `json:"-"`
}

// aggregate is one file's loads while they are counted.
type aggregate struct {
	File
	sessions, inWindow map[string]bool
	recorded           map[string]bool
}

// Build reads the project's transcripts (through the cache) and counts
// every load.
func Build(o Options) Report {
	if o.Days <= 0 {
		o.Days = DefaultDays
	}
	if o.Cache == nil {
		o.Cache = NewCache()
	}
	since := o.Now.Add(-time.Duration(o.Days) * 24 * time.Hour)
	r := Report{Slug: o.Slug, MemoryDir: o.MemoryDir, Days: o.Days, Files: []File{}, Memories: []Memory{}, Expected: []Expected{}, Problems: []model.Problem{}}
	var tfs []model.TranscriptFile
	if o.Slug != "" {
		var probs []model.Problem
		tfs, probs = model.FindProjectTranscripts(o.Home, o.Slug)
		r.Problems = append(r.Problems, probs...)
	}
	var events []Event
	all := map[string]bool{}
	for _, tf := range tfs {
		all[tf.SessionID] = true
		evs, probs, fresh, err := o.Cache.events(o.Home, tf, o.CachedOnly)
		r.Partial = r.Partial || !fresh
		if err != nil {
			r.Problems = append(r.Problems, model.Problem{File: tf.Path, Kind: model.ProblemUnreadable, Reason: err.Error()})
			continue
		}
		r.Transcripts++
		r.Problems = append(r.Problems, probs...)
		events = append(events, evs...)
	}
	slices.SortStableFunc(events, func(a, b Event) int { return a.Time.Compare(b.Time) })
	mapper := newPathMapper(events, o.HomeDir)
	imports := importParents(o.Preview)

	files := map[string]*aggregate{}
	recorded, inWindow := map[string]bool{}, map[string]bool{}
	start := map[string]time.Time{} // session → its first load
	for _, ev := range events {
		recorded[ev.Session] = true
		if !ev.Time.Before(since) {
			inWindow[ev.Session] = true
		}
		if s, ok := start[ev.Session]; !ok || ev.Time.Before(s) {
			start[ev.Session] = ev.Time
		}
		if r.First.IsZero() || ev.Time.Before(r.First) {
			r.First = ev.Time
		}
		if ev.Time.After(r.Last) {
			r.Last = ev.Time
		}
		for _, ef := range ev.Files {
			p := mapper.apply(ef.Path)
			a := files[p]
			if a == nil {
				a = &aggregate{File: File{Path: p, Kind: kindOf(p, ef.Label, imports), Label: ef.Label, First: ev.Time},
					sessions: map[string]bool{}, inWindow: map[string]bool{}, recorded: map[string]bool{}}
				files[p] = a
			}
			if ef.Path != p && !a.recorded[ef.Path] {
				a.recorded[ef.Path] = true
				a.RecordedAs = append(a.RecordedAs, ef.Path)
			}
			a.Loads++
			a.sessions[ev.Session] = true
			if !ev.Time.Before(since) {
				a.inWindow[ev.Session] = true
			}
			a.Last, a.LastSession = ev.Time, ev.Session
			if ef.Label != "" {
				a.Label = ef.Label
			}
			if len(ef.Globs) > 0 {
				a.Globs = ef.Globs
			}
			if ev.MidSession {
				a.MidSession++
				a.Joins = append([]Join{{Session: ev.Session, Transcript: ev.Transcript, Line: ev.Line, UUID: ev.UUID, Time: ev.Time}}, a.Joins...)
				if len(a.Joins) > maxJoins {
					a.Joins = a.Joins[:maxJoins]
				}
			}
		}
	}
	r.Sessions, r.SessionsInWindow = len(recorded), len(inWindow)
	for s := range all {
		if !recorded[s] {
			r.Unrecorded++
		}
	}
	for _, a := range files {
		a.Sessions, a.SessionsInWindow = len(a.sessions), len(a.inWindow)
		a.OnDisk = onDisk(o.Root, a.Path)
		r.Files = append(r.Files, a.File)
	}
	slices.SortFunc(r.Files, func(a, b File) int {
		return cmp.Or(cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)), cmp.Compare(a.Path, b.Path))
	})
	r.Memories = memories(o, events, r.First)
	r.Expected = expected(o, files, imports, inWindow, start)
	if !o.CachedOnly {
		// A cache kept on disk (NewCacheOn) keeps what this build read
		// for the next run; one that cannot be written is only slower.
		_ = o.Cache.Save()
	}
	return r
}

// onDisk reports whether the absolute path p is a file on root.
func onDisk(root fs.FS, p string) bool {
	if root == nil {
		return false
	}
	st, err := fs.Stat(root, model.RootName(p))
	return err == nil && !st.IsDir()
}

// kindRank orders the report: CLAUDE.md files and their imports, rules,
// then MEMORY.md.
func kindRank(k Kind) int {
	switch k {
	case KindClaudeMd, KindImport:
		return 0
	case KindRule:
		return 1
	}
	return 2
}

// kindOf classifies a loaded file: MEMORY.md by its label, imports by the
// preview, rules by their folder, CLAUDE.md files by name; any other file
// in the list was imported.
func kindOf(p, label string, imports map[string]string) Kind {
	switch {
	case label == model.AttachmentAutoMem || label == model.AttachmentTeamMem:
		return KindMemoryIndex
	case imports[p] != "":
		return KindImport
	case strings.Contains(p, "/rules/"):
		return KindRule
	}
	switch path.Base(p) {
	case "CLAUDE.md", "CLAUDE.local.md":
		return KindClaudeMd
	}
	return KindImport
}

// importParents maps each import of the preview to the file importing it.
func importParents(p *preview.Preview) map[string]string {
	out := map[string]string{}
	if p == nil {
		return out
	}
	for _, l := range p.Layers {
		if l.ImportedFrom != "" {
			out[l.Path] = l.ImportedFrom
		}
	}
	return out
}

// memories counts, per topic file, the sessions whose loaded MEMORY.md
// listed it. first is the first recorded load of anything.
func memories(o Options, events []Event, first time.Time) []Memory {
	out := []Memory{}
	if o.Memory == nil {
		return out
	}
	res := memindex.NewResolver(o.Memory)
	type seen struct {
		sessions map[string]bool
		last     time.Time
	}
	listed := map[string]*seen{}
	var firstIndex time.Time
	for _, ev := range events {
		for _, ef := range ev.Files {
			// Team memory's index links files of its own folder.
			if ef.index == nil || ef.Label != model.AttachmentAutoMem {
				continue
			}
			if firstIndex.IsZero() {
				firstIndex = ev.Time
			}
			for _, e := range ef.index.entries {
				rel, ok := res.File(e)
				if !ok {
					continue
				}
				s := listed[rel]
				if s == nil {
					s = &seen{sessions: map[string]bool{}}
					listed[rel] = s
				}
				s.sessions[ev.Session] = true
				if ev.Time.After(s.last) {
					s.last = ev.Time
				}
			}
		}
	}
	if firstIndex.IsZero() {
		firstIndex = first
	}
	var cp memindex.IndexCap
	line := map[string]int{}
	if o.Memory.Index != nil {
		cp = memindex.CapIndex(o.Memory.Index.Bytes())
		for _, l := range o.Memory.Index.Lines {
			if rel, ok := res.File(l.Entry); ok {
				if _, dup := line[rel]; !dup {
					line[rel] = l.Number
				}
			}
		}
	}
	for _, f := range o.Memory.Files {
		m := Memory{File: f.Path, IndexLine: line[f.Path]}
		if s := listed[f.Path]; s != nil {
			m.Sessions, m.Last = len(s.sessions), s.last
		}
		if m.IndexLine > 0 && !cp.Loads(m.IndexLine) {
			m.PastCut = true
			m.UnseenSince = m.Last
			if m.UnseenSince.IsZero() {
				m.UnseenSince = firstIndex
			}
		}
		out = append(out, m)
	}
	return out
}

// expected lists the preview's rules and imports with their loads in the
// window: a rule is judged over the sessions that started after it was
// last written, an import over those that loaded its importing file.
func expected(o Options, files map[string]*aggregate, imports map[string]string, inWindow map[string]bool, start map[string]time.Time) []Expected {
	out := []Expected{}
	if o.Preview == nil {
		return out
	}
	globs := map[string][]string{}
	for _, c := range o.Preview.ConditionalRules {
		globs[c.Path] = c.Paths
	}
	missing := map[string]preview.MissingImport{}
	for _, mi := range o.Preview.MissingImports {
		missing[mi.Path] = mi
	}
	seen := map[string]bool{}
	for _, l := range o.Preview.Layers {
		if seen[l.Path] || l.Status == preview.StatusSkipped || l.Status == preview.StatusNotInSession {
			continue
		}
		var e Expected
		switch {
		case l.ImportedFrom != "":
			e = Expected{Path: l.Path, Kind: KindImport, ImportedFrom: l.ImportedFrom, Status: l.Status}
			if mi, ok := missing[l.Path]; ok {
				e.Line, e.Raw = mi.Line, mi.Raw
			}
			if p := files[l.ImportedFrom]; p != nil {
				e.Eligible = len(p.inWindow)
			}
		case l.Kind != preview.KindAutoMemory && l.Kind != preview.KindRecalled && strings.Contains(l.Path, "/rules/"):
			e = Expected{Path: l.Path, Kind: KindRule, Status: l.Status, ModTime: l.Mtime, Globs: globs[l.Path]}
			e.Conditional = l.Status == preview.StatusConditional
			for s := range inWindow {
				if start[s].After(l.Mtime) {
					e.Eligible++
				}
			}
		default:
			continue
		}
		seen[l.Path] = true
		if a := files[l.Path]; a != nil {
			e.SessionsInWindow, e.Last = len(a.inWindow), a.Last
		}
		out = append(out, e)
	}
	return out
}
