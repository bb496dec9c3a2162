package overview

import (
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/engine/projectmem"
	"github.com/memscope/memscope/engine/provenance"
	"github.com/memscope/memscope/model"
)

// ID names a line of the Overview.
type ID string

// The lines, in the order the Overview shows them.
const (
	// Cut: memories linked from MEMORY.md only past the 200-line /
	// 25 000-character cut, and how many of them are corrections
	// (feedback memories).
	Cut ID = "cut"
	// Stale: memories past their type's staleness limit, by type.
	Stale ID = "stale"
	// Lint: lint's errors and warnings on the project's memory.
	Lint ID = "lint"
	// Review: the review inbox.
	Review ID = "review"
	// Prompt: the next session's prompt against the context window, and
	// its biggest layer.
	Prompt ID = "prompt"
	// Secrets: secrets at rest by store, and scrub copies still on disk.
	Secrets ID = "secrets"
	// Cleanup: sessions the next cleanup deletes within Horizon days.
	Cleanup ID = "cleanup"
	// Lost: sessions history names whose transcripts earlier sweeps
	// deleted.
	Lost ID = "lost"
	// Autocompact: running sessions near autocompact.
	Autocompact ID = "autocompact"
	// Problems: malformed lines and files skipped in the home.
	Problems ID = "problems"
	// Vault: sessions the cleanup deletes within Horizon days that the
	// rescue vault does not hold as they are.
	Vault ID = "vault"
	// Replaced: sessions whose history before a compaction exists only
	// in a .replaced copy (and how many have no transcript left).
	Replaced ID = "replaced"
	// Held: memory writes the write gate held today.
	Held ID = "held"
	// Doctor: `memscope doctor`'s summary (client version, unknown
	// record types and fields).
	Doctor ID = "doctor"
	// Dropped: rules the user gave that compactions dropped in the last
	// Horizon days (the loss ledger, `memscope replay --lost --all`).
	Dropped ID = "dropped"
)

// Scope says what a line looks at.
type Scope string

// The scopes.
const (
	ScopeProject Scope = "project"
	ScopeHome    Scope = "home"
)

// Part is one figure of a line's breakdown (a type, a store, …).
type Part struct {
	Label string `json:"label"`
	Count int    `json:"count"`
}

// Line is one answer: a count, why it matters in one line, and where to
// fix it.
type Line struct {
	ID    ID    `json:"id"`
	Scope Scope `json:"scope"`
	// Count is the line's figure (memories, findings, sessions; tokens
	// for Prompt).
	Count int `json:"count"`
	// Parts break Count down, or add the figures the line names.
	Parts []Part `json:"parts"`
	// Needs says the line asks for the user's attention.
	Needs bool `json:"needs"`
	// Text is the line for people.
	Text string `json:"text"`
	// Pane is the pane that shows (and fixes) it, Filter what that pane
	// should show: a row or a filter the pane understands.
	Pane   string `json:"pane"`
	Filter string `json:"filter,omitempty"`
	// Command is the command line whose output gives the same count.
	Command string `json:"command"`
}

// Part returns the count of the part labelled label (0 when none).
func (l Line) Part(label string) int {
	for _, p := range l.Parts {
		if p.Label == label {
			return p.Count
		}
	}
	return 0
}

// Source is what the lines are computed from. The project's memory is
// opened once, on first use, whichever line asks first; every line may
// be computed from its own goroutine.
type Source struct {
	// Env is the home and the machine; Project the open project's folder
	// (absolute; "" when none: the project lines say so).
	Env     projectmem.Env
	Project string
	// Staleness are the user's thresholds (memindex.DefaultStaleness when
	// nil).
	Staleness memindex.StalenessThresholds
	// Alive says whether a process runs (Autocompact's running sessions).
	Alive func(pid int) bool
	// Cache is memscope's cache across runs, for the inventory and lint
	// (nil: none).
	Cache *diskcache.Store
	// Horizon is how many days ahead Cleanup looks (DefaultHorizon
	// when 0).
	Horizon int
	// Places are the vault and the gate's record (FindPlaces; none
	// when zero).
	Places Places
	// Live is the snapshot of the running sessions the app's Live pane
	// shows (its feed's tracker), which the autocompact line counts; nil:
	// the line takes a snapshot of its own (the CLI). Levels are the
	// user's warning levels (the settings file's live section).
	Live   *live.Snapshot
	Levels live.Levels
	// Review keeps each transcript's provenance first pass for the
	// review line (the app's, shared with its Review pane); nil: one kept
	// in Cache (NewFirstCacheOn), as `memscope review` keeps it, so a
	// second run reads no unchanged transcript.
	Review *provenance.FirstCache
	// Pass is the shared reading of the transcripts behind the lines
	// that read them whole (see Pass); nil: the Source's own.
	Pass *Pass
	// History is history.jsonl as the app's History feed holds it
	// (cleanup.Options.History, inventory.Options.History), which the lines that read it
	// (ReadsHistory) take instead of reading the file again; nil: the
	// forecast and stat read it (the CLI).
	History *model.HistoryRead
	// Checked is the open project's memory as the app's project feed
	// checked it, which the lines that take it (TakesChecked) use
	// instead of computing it again when it is of the same project,
	// memory folder and tree; nil: the lines compute their own (the CLI),
	// through the same engine functions.
	Checked *Checked

	once   sync.Once
	target *projectmem.Target
	// fcOnce, fc: the cleanup forecast, walked once for the lines that
	// read it (Cleanup and Vault).
	fcOnce sync.Once
	fc     cleanup.Forecast
	// passOnce makes the Source's own Pass; reviewOnce its review cache.
	passOnce, reviewOnce sync.Once
}

// Checked is what an app already computed of the open project: lint's
// report on its memory folder, with what the sessions loaded over
// loads.DefaultDays (projectmem.Target.LintInput's inputs), and the next
// session's prompt built with projectmem.Env.PreviewOptions and nothing
// added.
type Checked struct {
	// Project is the project's folder (absolute).
	Project string
	// MemoryDir is the memory folder linted and Tree the project tree
	// drift was checked against; Lint is nil when none was linted as
	// the project's auto memory (another store is shown).
	MemoryDir, Tree string
	Lint            *lint.Report
	// LintToCome says Lint is nil for now: the app linted the project's
	// auto memory before it had read every load, and hands a complete
	// check over once it has (the Lint line waits for it).
	LintToCome bool
	// Preview is the next session's prompt (nil: not built).
	Preview *preview.Preview
}

// TakesChecked says the line id takes Source.Checked when it is for the
// Source's project: an app that checks the project anyway counts it
// once that check is in.
func TakesChecked(id ID) bool { return id == Lint || id == Prompt }

// lint is lint's report on the project's auto memory: Checked's when it
// is of the same folder and tree, else linted here with the inputs
// `memscope lint` gives it.
func (s *Source) lint() lint.Report {
	t := s.open()
	if c := s.Checked; c != nil && c.Lint != nil && c.Project == s.Project && c.MemoryDir == t.Loc.Dir && c.Tree == t.Tree {
		return *c.Lint
	}
	in, _ := t.LintInput(s.staleness())
	if s.Cache != nil && s.Env.Home != nil {
		// What lint computed per file, kept across runs in the cache.
		in.Memo = lint.NewMemoOn(s.Cache, s.Env.Home.Dir, t.Loc.Dir)
	}
	return lint.Run(in)
}

// preview is the next session's prompt for the project, as `memscope
// prompt` builds it: Checked's when it is of the same project.
func (s *Source) preview() preview.Preview {
	if c := s.Checked; c != nil && c.Preview != nil && c.Project == s.Project {
		return *c.Preview
	}
	return s.Env.Preview(s.Project, nil)
}

// DefaultHorizon is how many days ahead the Cleanup line looks.
const DefaultHorizon = 7

// open is the project's memory, opened once.
func (s *Source) open() *projectmem.Target {
	s.once.Do(func() {
		if s.Project != "" {
			s.target = s.Env.Open(s.Project)
		}
	})
	return s.target
}

func (s *Source) staleness() memindex.StalenessThresholds {
	if s.Staleness == nil {
		return memindex.DefaultStaleness()
	}
	return s.Staleness
}

func (s *Source) horizon() int {
	if s.Horizon <= 0 {
		return DefaultHorizon
	}
	return s.Horizon
}

// Spec is one line: its id, scope and how it is computed.
type Spec struct {
	ID    ID
	Scope Scope
	// Pane is the pane the line opens.
	Pane    string
	compute func(*Source) Line
	// Shared says the line reads the transcripts through the Pass: an
	// app counts it once the open project is known, so the one pass
	// looks for the project's memory folders too.
	Shared bool
}

// Specs are the lines in the Overview's order.
var Specs = []Spec{
	{Cut, ScopeProject, "index", cutLine, false},
	{Stale, ScopeProject, "memories", staleLine, false},
	{Lint, ScopeProject, "health", lintLine, false},
	{Review, ScopeProject, "review", reviewLine, true},
	{Prompt, ScopeProject, "prompt", promptLine, false},
	{Secrets, ScopeHome, "security", secretsLine, true},
	{Cleanup, ScopeHome, "retention", cleanupLine, false},
	{Vault, ScopeHome, "retention", vaultLine, false},
	{Lost, ScopeHome, "retention", lostLine, false},
	{Replaced, ScopeHome, "replay", replacedLine, false},
	{Autocompact, ScopeHome, "live", autocompactLine, false},
	{Dropped, ScopeHome, "replay", droppedLine, true},
	{Held, ScopeHome, "review", heldLine, false},
	{Doctor, ScopeHome, "", doctorLine, true},
	{Problems, ScopeHome, "projects", problemsLine, true},
}

// Compute computes the line id from s, reading only what that line needs
// (and the project's memory folder, once). An unknown id is a line that
// says so.
func Compute(s *Source, id ID) Line {
	for _, sp := range Specs {
		if sp.ID != id {
			continue
		}
		if sp.Scope == ScopeProject && s.open() == nil {
			return Line{ID: id, Scope: sp.Scope, Pane: sp.Pane, Parts: []Part{}, Text: "no project open"}
		}
		l := sp.compute(s)
		l.ID, l.Scope, l.Pane = sp.ID, sp.Scope, sp.Pane
		if l.Parts == nil {
			l.Parts = []Part{}
		}
		return l
	}
	return Line{ID: id, Parts: []Part{}, Text: "no such line: " + string(id)}
}

// ListOnce makes the lines computed from s list the home once between
// them: s.Env.Home becomes the home read through model.ListOnce (the
// secrets, stat, forecast, pass and .replaced lines each walk projects/
// and the paste cache by their own rule). Call it before any line is
// computed from s, not while one is. An app that counts lines from
// several Sources gives them one listed home instead.
func (s *Source) ListOnce() {
	if s.Env.Home != nil {
		s.Env.Home = s.Env.Home.ListedOnce()
	}
}

// All computes every line, one after another, in Specs order, from one
// listing of the home (ListOnce). One at a
// time on purpose: the heavy lines (secrets, stat, live, the review's
// provenance scan) each spread their reading over every CPU already, and
// run together their buffers add up (past 250 MiB on a home of huge
// files, where each alone stays near 150). A caller that shows lines as
// they come calls Compute per line, in its own order.
func All(s *Source) []Line {
	s.ListOnce()
	out := make([]Line, len(Specs))
	for i, sp := range Specs {
		out[i] = Compute(s, sp.ID)
		// Each line's garbage is handed back before the next: each heavy
		// line (lint, prompt, secrets) stays near 150 MiB alone on a home
		// of 1 GiB runs of NUL bytes, and their leftovers together passed
		// the 250 MiB bound TestHostileHugeFilesBoundedMemory holds. A
		// line that left little behind (every line on a home of ordinary
		// size) is not worth a full collection and handing pages back.
		if heapObjects() > freeAbove {
			debug.FreeOSMemory()
		}
	}
	return out
}

// freeAbove is the heap (live objects and garbage not yet collected) past
// which All hands the garbage back between lines: far below a heavy
// line's 150 MiB, far above what a line allocates on a home of ordinary
// size.
const freeAbove = 32 << 20

// heapObjects is the bytes of the heap's objects, live or not yet
// collected (0 when the runtime does not say).
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
