package preview

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// Options describe the session whose start-up context to preview.
type Options struct {
	// Root is an fs.FS rooted at "/" holding the project and the home
	// (model.MountFS puts a home given as its own fs.FS in place).
	Root fs.FS
	// HomeDir is $H; UserHome the user's home folder.
	HomeDir  string
	UserHome string
	// Project is the absolute startup directory.
	Project string
	AddDirs []string
	// ManagedDir defaults to model.ManagedDir.
	ManagedDir string
	// Getenv reads the environment (memory overrides and switches).
	Getenv func(string) string
	// Bare is --bare mode.
	Bare bool
	// ClaudeJSONPaths are where .claude.json may be (see
	// model.ClaudeJSONPaths).
	ClaudeJSONPaths []string
	// Queries are prompts to run recall for, in order.
	Queries []string
	// Selector picks recalled memories; nil uses BM25.
	Selector Selector
	// Recall is the recall state to show; RecallFromEnv reads
	// CLAUDE_MEMORY_STORES through Getenv.
	Recall RecallSwitch
	// Staleness classifies memory ages; nil uses DefaultStaleness.
	Staleness memindex.StalenessThresholds
	// Now is the time of the preview; At, when set, is the session start
	// to reconstruct (ages are measured from it).
	Now time.Time
	At  *time.Time
	// Memory, when set, is the memory folder MemoryDir (absolute) as the
	// caller has just read it: when the session's memory resolves to that
	// folder, the preview uses it instead of reading the folder again.
	Memory    *model.MemoryDir
	MemoryDir string
	// Model is the model the session would run (the project's last
	// session's, when the caller knows it); "" leaves the window to the
	// settings and the default.
	Model string
	// EnvFrom says whose environment Getenv reads ("memscope's
	// environment" when empty).
	EnvFrom string
}

// IndexReport is MEMORY.md in the preview: where it is and what the caps
// do to it.
type IndexReport struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	memindex.IndexCap
	// Backfill is the index the client writes when MEMORY.md is missing
	// and topic files exist; nil otherwise.
	Backfill *memindex.Backfill `json:"backfill,omitempty"`
}

// Totals sums the loaded layers.
type Totals struct {
	Chars  int `json:"chars"`
	Tokens int `json:"tokens"`
}

// Preview is what the client puts into a session's context at start-up
// (and, with queries, what recall adds per prompt), layer by layer, with
// the reasons for everything left out.
type Preview struct {
	Project   string               `json:"project"`
	MemoryDir string               `json:"memoryDir"`
	Memory    model.MemoryLocation `json:"memory"`
	At        *time.Time           `json:"at,omitempty"`
	// Layers are in prompt order, including those that do not load.
	Layers      []Layer        `json:"layers"`
	MemoryIndex IndexReport    `json:"memoryIndex"`
	Recalled    []RecalledFile `json:"recalled"`
	// Recall is the full recall run (manifest, per-query picks).
	Recall *RecallResult `json:"recall,omitempty"`
	// RecallMode says whether recall is on for this user and models both
	// states; the layers show the state it names.
	RecallMode RecallMode `json:"recallMode"`
	// MissingImports and ConditionalRules repeat those layers for scripts.
	MissingImports   []MissingImport   `json:"missingImports"`
	ConditionalRules []ConditionalRule `json:"conditionalRules"`
	// NestedClaudeMd are the CLAUDE.md files below the project, which
	// join mid-session (cut over NestedMaxChars).
	NestedClaudeMd []ConditionalRule `json:"nestedClaudeMd"`
	// NotInSession lists memory files written after --at: they are not
	// in that session's prompt.
	NotInSession []string `json:"notInSession"`
	Totals       Totals   `json:"totals"`
	// Window is the context window and autocompact level a session
	// started in the project would get, each with where it came from
	// (window.Resolve over Getenv and the project's settings files).
	Window   window.Resolved `json:"window"`
	Notes    []string        `json:"notes"`
	Problems []model.Problem `json:"problems"`
	// Text is the assembled text: the instructions block, then recalled
	// memories.
	Text string `json:"text"`
}

// EnvDisableClaudeMds set to a true value makes the client load no
// CLAUDE.md at all: user, project, rules and auto memory (2.1.332).
const EnvDisableClaudeMds = "CLAUDE_CODE_DISABLE_CLAUDE_MDS"

// Build assembles the preview: settings, memory location, CLAUDE.md
// layers, MEMORY.md (capped, or backfilled), recall, and the text.
func Build(o Options) Preview {
	now := o.Now
	if o.At != nil {
		now = *o.At
	}
	if o.ManagedDir == "" {
		o.ManagedDir = model.ManagedDir
	}
	p := Preview{Project: o.Project, At: o.At, Recalled: []RecalledFile{}, NotInSession: []string{}, Notes: []string{}, Problems: []model.Problem{}}
	settings, probs := model.LoadSettings(o.Root, o.HomeDir, o.Project, o.ManagedDir)
	p.Problems = append(p.Problems, probs...)
	loc := model.ResolveMemoryLocation(model.MemoryOptions{Root: o.Root, HomeDir: o.HomeDir, UserHome: o.UserHome, StartDir: o.Project, Getenv: o.Getenv, Settings: settings, Bare: o.Bare})
	p.Memory, p.MemoryDir = loc, loc.Dir
	cj, probs := model.ReadClaudeJSON(o.Root, o.ClaudeJSONPaths)
	p.Problems = append(p.Problems, probs...)
	key := o.Project
	if loc.Git.Kind != model.GitRootNone {
		key = loc.Git.Root
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	envFrom := o.EnvFrom
	if envFrom == "" {
		envFrom = "memscope's environment"
	}
	p.Window = window.Resolve(window.Input{Model: o.Model, Getenv: o.Getenv, EnvFrom: envFrom, Settings: settings})
	addDirsOn := model.EnvTruthy(getenv(EnvAddDirsClaudeMd))
	cm := AssembleClaudeMd(ClaudeMdOptions{Root: o.Root, HomeDir: o.HomeDir, UserHome: o.UserHome, Project: o.Project, AddDirs: o.AddDirs, AddDirsClaudeMd: addDirsOn,
		ManagedDir: o.ManagedDir, Excludes: settings.ClaudeMdExcludes(), ExternalApproved: cj.ExternalIncludesApproved(key), At: o.At, Nested: true})
	p.Layers, p.MissingImports, p.ConditionalRules, p.NestedClaudeMd = cm.Layers, cm.MissingImports, cm.ConditionalRules, cm.Nested
	p.Problems = append(p.Problems, cm.Problems...)
	noClaudeMds := model.EnvTruthy(getenv(EnvDisableClaudeMds))
	if noClaudeMds {
		// The files are still shown, each saying why it is not sent.
		why := EnvDisableClaudeMds + "=" + getenv(EnvDisableClaudeMds) + ": the client loads no CLAUDE.md at all"
		for i := range p.Layers {
			if l := &p.Layers[i]; l.Status == StatusLoaded || l.Status == StatusConditional {
				l.Status, l.Truncated, l.Text, l.Reason = StatusSkipped, false, "", joinReason(why, l.Reason)
			}
		}
		p.ConditionalRules, p.NestedClaudeMd = []ConditionalRule{}, []ConditionalRule{}
		p.Notes = append(p.Notes, why+" (user, project, rules, auto memory).")
	}
	switch {
	case len(o.AddDirs) > 0 && addDirsOn:
		p.Notes = append(p.Notes, fmt.Sprintf("--add-dir: the CLAUDE.md files of %d folder(s) load because %s=%s.", len(o.AddDirs), EnvAddDirsClaudeMd, getenv(EnvAddDirsClaudeMd)))
	case len(o.AddDirs) > 0:
		p.Notes = append(p.Notes, fmt.Sprintf("--add-dir: the CLAUDE.md files of %d folder(s) are shown but do not load: the client reads them only when %s is set to a true value.", len(o.AddDirs), EnvAddDirsClaudeMd))
	}

	p.MemoryIndex.Path = path.Join(loc.Dir, model.MemoryIndexName)
	p.MemoryIndex.DroppedEntries = []memindex.DroppedEntry{}
	p.RecallMode = recallMode(o)
	var index, recalled int
	switch {
	case noClaudeMds:
		p.Notes = append(p.Notes, "Auto memory does not load ("+EnvDisableClaudeMds+"): no MEMORY.md and no recall.")
	case !loc.Enabled:
		p.Notes = append(p.Notes, "Auto memory is off ("+loc.SwitchReason+"): no MEMORY.md and no recall.")
	default:
		index, recalled = p.addMemory(o, loc, now)
	}
	p.Text = assembleText(p.Layers)
	instr := 0
	for _, l := range p.Layers {
		if l.Status == StatusLoaded {
			p.Totals.Chars += l.Chars
			p.Totals.Tokens += l.Tokens
			if l.Kind != KindAutoMemory && l.Kind != KindRecalled {
				instr += l.Tokens
			}
		}
	}
	p.RecallMode.fillStates(instr, index, recalled)
	if o.At != nil {
		p.Notes = append(p.Notes, "Reconstructed for a session started "+o.At.UTC().Format(time.RFC3339)+
			": files show their current text; those changed since are marked, memories written since are left out.")
	}
	return p
}

// assembleText joins the loaded layers: the instruction files and the
// memory index under the client's preamble, then recalled memories.
func assembleText(layers []Layer) string {
	var instr, recalled []string
	for _, l := range layers {
		if l.Status != StatusLoaded {
			continue
		}
		if l.Kind == KindRecalled {
			recalled = append(recalled, l.Text)
		} else {
			instr = append(instr, l.Text)
		}
	}
	var parts []string
	if len(instr) > 0 {
		parts = append(parts, InstructionsPreamble+"\n\n"+strings.Join(instr, "\n\n"))
	}
	parts = append(parts, recalled...)
	return strings.Join(parts, "\n\n")
}

// addMemory adds MEMORY.md (or the backfilled index) and recall, as the
// recall state has them: MEMORY.md is left out when recall is on, recalled
// files are not sent when it is off. It returns the tokens of each, as
// they would be in the state that sends them.
func (p *Preview) addMemory(o Options, loc model.MemoryLocation, now time.Time) (index, recalled int) {
	on := p.RecallMode.On
	md, probs := o.Memory, []model.Problem(nil)
	if md == nil || path.Clean(o.MemoryDir) != path.Clean(loc.Dir) {
		md, probs = model.ReadMemoryDir(o.Root, model.RootName(loc.Dir))
	}
	for _, pr := range probs {
		pr.File = "/" + strings.TrimPrefix(pr.File, "/") // fs names are relative to "/"
		p.Problems = append(p.Problems, pr)
	}
	var files []*model.MemoryFile
	var later []Layer
	for _, f := range md.Files {
		if o.At != nil && f.ModTime.After(*o.At) {
			p.NotInSession = append(p.NotInSession, f.Path)
			later = append(later, Layer{Kind: KindRecalled, Path: path.Join(loc.Dir, f.Path), Status: StatusNotInSession, Mtime: f.ModTime,
				Reason: "written after the session started: not in this session's prompt, and recall could not pick it"})
			continue
		}
		files = append(files, f)
	}
	defer func() { p.Layers = append(p.Layers, later...) }()
	l := Layer{Kind: KindAutoMemory, Path: p.MemoryIndex.Path, Mtime: md.IndexModTime}
	var raw []byte
	switch {
	case md.Index != nil:
		p.MemoryIndex.Exists = true
		raw = md.Index.Bytes()
		if o.At != nil && md.IndexModTime.After(*o.At) {
			l.Reason = "changed after the session started: the session saw an earlier version"
		}
	case len(files) > 0:
		bf := memindex.BackfillIndex(files)
		p.MemoryIndex.Backfill = &bf
		raw = []byte(bf.Text)
		l.Reason = "MEMORY.md is missing: the client writes this index at session start, before the first request"
	}
	// CapIndex(nil) is an empty index: the whole of both caps is room.
	p.MemoryIndex.IndexCap = memindex.CapIndex(raw)
	if raw != nil {
		c := p.MemoryIndex.IndexCap
		if c.Content == "" {
			l.Status, l.Reason = StatusSkipped, joinReason(l.Reason, "empty")
		} else {
			l.Status, l.Truncated = StatusLoaded, c.Truncated
			l.Text = "Contents of " + l.Path + " (" + layerLabels[KindAutoMemory] + "):\n\n" + c.Content
			l.Chars, l.Tokens = jsstr.UTF16Len(l.Text), int(window.EstimateTokens(jsstr.UTF16Len(l.Text)))
			index = l.Tokens
			switch {
			case on:
				// Left out whole: the caps do not matter then.
				l.Status, l.Truncated, l.Reason = StatusSkipped, false, joinReason(recallOnIndexReason, l.Reason)
			case c.Truncated:
				l.Reason = joinReason(l.Reason, "over the caps: only part loads, with a warning")
			}
		}
		p.Layers = append(p.Layers, l)
	}
	if len(o.Queries) == 0 {
		if on {
			p.Notes = append(p.Notes, "Recall is on: it picks memories per prompt; give a prompt (--query, or i in the Prompt pane) to see its picks.")
		}
		return index, 0
	}
	rr := Recall(files, RecallOptions{Queries: o.Queries, Selector: o.Selector, Now: now, Staleness: o.Staleness, MemoryDir: loc.Dir})
	p.Recall = &rr
	p.Recalled = rr.Recalled()
	if p.Recalled == nil {
		p.Recalled = []RecalledFile{}
	}
	p.Notes = append(p.Notes, rr.Note)
	for _, f := range p.Recalled {
		rl := Layer{Kind: KindRecalled, Path: f.Path, Truncated: f.Truncated, Reason: "recalled for “" + f.Query + "”: " + f.Why}
		switch {
		case f.Skipped != "":
			rl.Status, rl.Reason = StatusSkipped, f.Skipped
		case !on:
			rl.Status, rl.Reason = StatusSkipped, recallOffPickReason+" (“"+f.Query+"”: "+f.Why+")"
			rl.Chars, rl.Tokens = jsstr.UTF16Len(f.Text), int(window.EstimateTokens(jsstr.UTF16Len(f.Text)))
		default:
			rl.Status, rl.Text = StatusLoaded, f.Text
			rl.Chars, rl.Tokens = jsstr.UTF16Len(f.Text), int(window.EstimateTokens(jsstr.UTF16Len(f.Text)))
		}
		recalled += rl.Tokens
		p.Layers = append(p.Layers, rl)
	}
	return index, recalled
}
