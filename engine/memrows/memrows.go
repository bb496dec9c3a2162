package memrows

import (
	"slices"
	"time"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

// Row is one topic file and what memscope says about it.
type Row struct {
	File *model.MemoryFile
	// Written is when the memory was last written, by Clock; AgeDays and
	// Staleness follow from it (memindex.StalenessThresholds.Age).
	Written   time.Time
	Clock     memindex.MemoryClock
	AgeDays   int
	Staleness memindex.Staleness
	// IndexLine is the first MEMORY.md line that names the file (0 when
	// none does): the line lint counts when it looks for orphans.
	// Indexed says there is one; Loaded that it is within the caps.
	IndexLine int
	Indexed   bool
	Loaded    bool
	// Flags are the short names of lint's findings on the file: the
	// category of a security finding ("secret", "injection", …), else the
	// kind ("duplicate", "drift", "too long", "invalid", …). Empty without
	// Input.Lint.
	Flags []string
}

// Input is what Build works from.
type Input struct {
	// Memory is the folder as read (model.ReadMemoryDir or a store).
	Memory *model.MemoryDir
	Now    time.Time
	// Staleness defaults to memindex.DefaultStaleness.
	Staleness memindex.StalenessThresholds
	// Lint is lint's report on the same folder, for the flags; optional.
	Lint *lint.Report
}

// FlagMeaning is one flag a row can carry, and what lint found.
type FlagMeaning struct {
	Kind  lint.Kind
	Flag  string
	Means string
}

// FlagMeanings are the lint kinds shown as flags, by their short names, in
// the order a legend lists them; a security finding flags its category
// (secret, injection, …) instead.
var FlagMeanings = []FlagMeaning{
	{lint.Duplicate, "duplicate", "says nearly what another memory says (prune can merge them)"},
	{lint.CorrectionBelowCut, "correction cut off", "newer than a near-duplicate that loads, but linked only past the index's cut: the model reads the older one"},
	{lint.Drift, "drift", "names a file, path or identifier the project no longer has"},
	{lint.TooLong, "too long", "longer than recall shows; the client cuts it when recalled"},
	{lint.InvalidFrontmatter, "invalid", "frontmatter the client cannot read"},
	{lint.MissingFrontmatter, "no frontmatter", "no name, description or type"},
	{lint.BrokenLink, "broken link", "a [[link]] that names no memory"},
	{lint.NameMismatch, "name", "info: name differs from the file name on a file the client did not stamp (the client does not mind)"},
	{lint.UnknownType, "unknown type", "no type, or one the client does not know"},
}

// flagNames are the lint kinds shown as flags, by their short names.
var flagNames = func() map[lint.Kind]string {
	out := map[lint.Kind]string{}
	for _, f := range FlagMeanings {
		out[f.Kind] = f.Flag
	}
	return out
}()

// Build returns one row per topic file of in.Memory, in the folder's
// order (by path).
func Build(in Input) []Row {
	md := in.Memory
	if md == nil {
		return nil
	}
	facts := lint.AnalyzeIndex(md, nil)
	flags := Flags(in.Lint)
	rows := make([]Row, 0, len(md.Files))
	for _, f := range md.Files {
		a := in.Staleness.Age(f, in.Now)
		line := facts.Linked[f.Path]
		rows = append(rows, Row{
			File: f, Written: a.Written, Clock: a.Clock, AgeDays: a.Days, Staleness: a.Staleness,
			IndexLine: line, Indexed: line > 0, Loaded: line > 0 && facts.Cap.Loads(line),
			Flags: flags[f.Path],
		})
	}
	return rows
}

// Flags maps each file of a lint report to the short names of its
// findings, in the report's order, each once. A security finding flags its
// category (lint has already run the security scan over every file).
func Flags(r *lint.Report) map[string][]string {
	out := map[string][]string{}
	if r == nil {
		return out
	}
	for _, f := range r.Findings {
		name, ok := flagNames[f.Kind]
		if f.Kind == lint.Security {
			name, ok = string(f.Category), f.Category != ""
		}
		if ok && !slices.Contains(out[f.Path], name) {
			out[f.Path] = append(out[f.Path], name)
		}
	}
	return out
}
