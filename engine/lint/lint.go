package lint

import (
	"cmp"
	"io/fs"
	"slices"
	"time"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/model"
)

// Severity says how much a lint finding matters. `memscope lint`
// exits 1 when there is an error.
type Severity string

// The severities.
const (
	// SevError: the client loses or misreads memory, or memory holds a
	// secret or an injection.
	SevError Severity = "error"
	// SevWarning: memory works but is getting worse (orphans, staleness,
	// duplicates, drift, mismatched names).
	SevWarning Severity = "warning"
	// SevInfo: worth a look.
	SevInfo Severity = "info"
)

// Kind names a lint check.
type Kind string

// The lint checks.
const (
	IndexOverCap       Kind = "index-over-cap"
	IndexLineTooLong   Kind = "index-line-too-long"
	DanglingLink       Kind = "dangling-index-link"
	Orphan             Kind = "orphan"
	NameMismatch       Kind = "name-mismatch"
	MissingFrontmatter Kind = "missing-frontmatter"
	InvalidFrontmatter Kind = "invalid-frontmatter"
	UnknownType        Kind = "unknown-type"
	TooLong            Kind = "file-too-long"
	BrokenLink         Kind = "broken-link"
	Duplicate          Kind = "near-duplicate"
	Stale              Kind = "stale"
	Drift              Kind = "drift"
	Security           Kind = "security"
	Unreadable         Kind = "unreadable"
	// CorrectionBelowCut: a memory linked only past MEMORY.md's cut is newer
	// than a near-duplicate that still loads, so the model sees the older
	// text and never the correction.
	CorrectionBelowCut Kind = "correction-below-cut"
)

// Finding is one thing lint found.
type Finding struct {
	Kind     Kind     `json:"kind"`
	Severity Severity `json:"severity"`
	// Path is relative to the memory folder ("" for the folder itself).
	Path string `json:"path"`
	// Line is 1-based; 0 is the whole file.
	Line    int    `json:"line"`
	Message string `json:"message"`
	// Related names what else is involved: the other memory of a duplicate
	// pair, the entries cut off by the cap, the missing reference of drift.
	Related []string `json:"related,omitempty"`
	// Rule and Category are the scan rule and its category (secret,
	// injection, …) of a security finding.
	Rule     scan.RuleID   `json:"rule,omitempty"`
	Category scan.Category `json:"category,omitempty"`
}

// Input is what Lint looks at.
type Input struct {
	// Memory is the folder as read by model.ReadMemoryDir, paths relative
	// to it; Problems are that read's problems.
	Memory   *model.MemoryDir
	Problems []model.Problem
	// MemoryFS reads the memory folder, to check index links to files
	// ReadMemoryDir does not list (team/, hidden folders). Optional.
	MemoryFS fs.FS
	// Project is the project tree for drift checks, rooted at the project
	// folder (the git root when there is one). nil skips drift.
	Project fs.FS
	Now     time.Time
	// Staleness defaults to DefaultStaleness; DuplicateThreshold to
	// DefaultDuplicateJaccard.
	Staleness          memindex.StalenessThresholds
	DuplicateThreshold float64
	Drift              DriftOptions
	// Unstamped says the client writes this folder without stamping the
	// frontmatter (agent memory, model.MemoryStore.Stamped): no file
	// there carries originSessionId or node_type, and the agent names its
	// files itself, so a name that differs from its file name is not
	// reported.
	Unstamped bool
	// Leftovers are what interrupted memscope writes left, in the memory
	// folder and elsewhere (beside the files its restores wrote, in
	// project trees): engine/leftover finds them.
	Leftovers []LeftoverCopy
	// Interrupted are changes memscope began and did not finish.
	Interrupted []InterruptedChange
	// Loads are what the transcripts say was loaded; nil skips the
	// checks on rules and imports (reported with their absolute paths).
	Loads *LoadFacts
	// Only, when set, is the one file (relative to the folder;
	// MEMORY.md for the index) the caller judges, as the gate judges a
	// call: the security scan reads only it, and near-duplicates are
	// looked for only with it (Report.Duplicates holds its pairs). The
	// findings about it are a full run's.
	Only string
	// Memo, when set, keeps per-file work across runs on the same folder
	// (near-duplicate shingles and pairs, the security scan), so a run
	// after one file changed costs that file. nil computes everything.
	Memo *Memo
}

// Report is every finding, most serious first within each file, with
// the counts and the details the TUI's Health pane shows.
type Report struct {
	Findings   []Finding         `json:"findings"`
	Errors     int               `json:"errors"`
	Warnings   int               `json:"warnings"`
	Infos      int               `json:"infos"`
	Cap        memindex.IndexCap `json:"cap"`
	Duplicates []DuplicatePair   `json:"duplicates"`
	Drift      *DriftResult      `json:"drift,omitempty"`
}

// Run checks a memory folder for everything that makes memory worse:
// the index (over the cap, dangling links, orphan topic files, long
// lines), each topic file (frontmatter, type, name, size, [[links]],
// staleness), near-duplicates, drift against the project, and the
// security scan of everything the client reads.
func Run(in Input) Report {
	md := in.Memory
	if md == nil {
		md = &model.MemoryDir{}
	}
	if in.Staleness == nil {
		in.Staleness = memindex.DefaultStaleness()
	}
	l := &linter{in: in, md: md}
	r := Report{Findings: []Finding{}, Duplicates: []DuplicatePair{}}
	facts := AnalyzeIndex(md, in.MemoryFS)
	r.Cap = facts.Cap
	l.lintIndex(facts)
	l.lintFiles()
	r.Duplicates = l.lintDuplicates(facts)
	if in.Project != nil {
		d := l.lintDrift()
		r.Drift = &d
	}
	l.lintScan()
	l.lintProblems()
	l.lintLeftovers()
	l.lintLoads()
	l.lintInterrupted()
	r.Findings = append(r.Findings, l.out...)
	in.Memo.saveKept()
	slices.SortStableFunc(r.Findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(pathRank(a.Path), pathRank(b.Path)), cmp.Compare(a.Path, b.Path),
			cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)), cmp.Compare(a.Line, b.Line))
	})
	for _, f := range r.Findings {
		switch f.Severity {
		case SevError:
			r.Errors++
		case SevWarning:
			r.Warnings++
		case SevInfo:
			r.Infos++
		}
	}
	return r
}

// pathRank puts the folder-wide findings, then MEMORY.md, first.
func pathRank(p string) int {
	switch p {
	case "":
		return 0
	case model.MemoryIndexName:
		return 1
	}
	return 2
}

func severityRank(s Severity) int {
	switch s {
	case SevError:
		return 0
	case SevWarning:
		return 1
	}
	return 2
}

// linter collects findings.
type linter struct {
	in  Input
	md  *model.MemoryDir
	out []Finding
}

// HasErrors reports whether any finding is an error.
func (r Report) HasErrors() bool { return r.Errors > 0 }

func (l *linter) add(f Finding) { l.out = append(l.out, f) }
