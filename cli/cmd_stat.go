package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/memscope/memscope/engine/inventory"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var statCommand = &command{
	name:    "stat",
	usage:   "memscope stat [--home DIR] [--demo] [--json] [--no-cache]",
	summary: "inventory of the Claude home: projects, memory, history, pastes, transcripts, and every malformed line",
	run:     steps(parseStat, runStat, showStat),
}

// statOptions are stat's flags.
type statOptions struct {
	home  homeFlags
	json  bool
	cache cacheFlags
}

func parseStat(e *env, args []string) (statOptions, error) {
	var opts statOptions
	fs := newFlags("stat", &opts.home, &opts.json)
	opts.cache.add(fs)
	return opts, parseFlags(e, fs, args)
}

// runStat takes the inventory of the home. What it read is kept in
// memscope's cache, so the next run reads only what changed.
// statGCPercent is the collector's target for a stat run (see raiseGC).
const statGCPercent = 400

func runStat(e *env, opts statOptions) (inventory.Report, error) {
	o, err := e.openHome(&opts.home)
	if err != nil {
		return inventory.Report{}, err
	}
	defer o.close()
	defer model.HoldHome(o.home.Dir)() // the home it started with, opened once
	// Cold on W the collector was a tenth of the CPU: 0.94 -> 0.86 CPU-s
	// at 400, peak RSS 68 -> 104 MB (docs/PERFORMANCE.md, i28t).
	defer e.raiseGC(statGCPercent)()
	userHome, _ := e.userHome()
	return inventory.Stat(inventory.Options{Home: o.home, Root: o.root, Cache: e.cache(opts.cache, o), Getenv: e.getenv, UserHome: userHome}), nil
}

// showStat prints what runStat returned, as text or --json.
func showStat(e *env, opts statOptions, rep inventory.Report) error {
	return e.output(opts.json, rep, func(w io.Writer) { printStat(w, rep) })
}

func printStat(w io.Writer, r inventory.Report) {
	fmt.Fprintf(w, "home          %s (%s)\n", r.Home, r.Source)
	if r.Demo {
		fmt.Fprintln(w, "              the embedded demo home (made-up data in a temporary folder)")
	}
	fmt.Fprintf(w, "projects      %d\n", r.Projects)
	if r.Projects == 0 && r.HistoryEntries == 0 && !r.Demo {
		fmt.Fprintln(w, "              this home is empty (Claude Code has not run here); memscope --demo shows the built-in example")
	}
	fmt.Fprintf(w, "memory        %s, %s (%d invalid), %s\n", format.Count(r.MemoryDirs, "folder", "folders"), format.Count(r.MemoryFiles, "memory file", "memory files"), r.InvalidMemoryFiles, format.Count(r.TeamMemoryFiles, "team file", "team files"))
	fmt.Fprintf(w, "index         %s, %s, %s\n", format.Count(r.IndexFiles, "MEMORY.md file", "MEMORY.md files"), format.Count(r.IndexLines, "line", "lines"), format.Count(r.IndexEntries, "entry", "entries"))
	fmt.Fprintf(w, "history       %s\n", format.Count(r.HistoryEntries, "prompt", "prompts"))
	p := r.Pastes
	fmt.Fprintf(w, "pastes        %d referenced: %d resolved, %d missing, %d hash mismatch; %d inline; %s, %s\n",
		p.Referenced, p.Resolved, p.Missing, p.HashMismatch, p.Inline, format.Count(p.Files, "file", "files"), format.Count(p.Orphans, "orphan", "orphans"))
	fmt.Fprintf(w, "transcripts   %s, %d subagent (%d meta files), %d older layout, %s, %s\n",
		format.Count(r.Transcripts, "session", "sessions"), r.SubagentTranscripts, r.SubagentMetaFiles, r.SeedTranscripts, format.Count(r.ToolResultFiles, "tool-result file", "tool-result files"), format.Bytes(r.TranscriptBytes))
	fmt.Fprintf(w, "records       %d; %s, %d microcompact\n", r.Records, format.Count(r.CompactBoundaries, "compact boundary", "compact boundaries"), r.MicrocompactBoundaries)
	types := make([]string, 0, len(r.RecordTypes))
	for t := range r.RecordTypes {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool {
		if r.RecordTypes[types[i]] != r.RecordTypes[types[j]] {
			return r.RecordTypes[types[i]] > r.RecordTypes[types[j]]
		}
		return types[i] < types[j]
	})
	var parts []string
	for _, t := range types {
		parts = append(parts, fmt.Sprintf("%s %d", t, r.RecordTypes[t]))
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "              %s\n", strings.Join(parts, ", "))
	}
	u := r.Usage
	fmt.Fprintf(w, "usage         input %d, output %d, cache write %d, cache read %d\n", u.InputTokens, u.OutputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens)
	printAgentMemory(w, r.AgentMemory)
	for _, s := range r.Secondary {
		fmt.Fprintf(w, "secondary     %s: %s (%s)\n", s.Label, s.Path, format.Count(s.Files, "file", "files"))
	}
	if len(r.Malformed) == 0 {
		fmt.Fprintln(w, "problems      none")
		return
	}
	fmt.Fprintf(w, "problems      %d (skipped and counted; everything else was read)\n", len(r.Malformed))
	for _, m := range r.Malformed {
		fmt.Fprintf(w, "  %s [%s]\n", model.SanitizeForTerminal(m.Error()), m.Kind)
	}
}

// printAgentMemory lists each agent memory folder with its MEMORY.md
// against the caps (the client loads an agent's index as it loads a
// project's).
func printAgentMemory(w io.Writer, as []inventory.AgentMemory) {
	if len(as) == 0 {
		fmt.Fprintln(w, "agent memory  none")
		return
	}
	fmt.Fprintf(w, "agent memory  %s\n", format.Count(len(as), "folder", "folders"))
	for _, a := range as {
		c := a.Cap
		index := "no MEMORY.md"
		if a.Index {
			index = fmt.Sprintf("MEMORY.md %d/%d lines, %d/%d chars", c.Lines, memindex.MaxLines, c.Chars, memindex.MaxChars)
			if c.Truncated {
				index += fmt.Sprintf(", cut at line %d: %s", c.CutFileLine, format.Count(len(c.DroppedEntries), "entry does not load", "entries do not load"))
			}
		}
		declared := ""
		if a.Definition == "" {
			declared = "; no agent definition declares it"
		}
		fmt.Fprintf(w, "  %s (%s): %s (%d invalid), %s%s\n", model.SanitizeForTerminal(a.Agent), a.Scope, format.Count(a.Files, "topic file", "topic files"), a.InvalidFiles, index, declared)
		fmt.Fprintf(w, "    %s\n", model.SanitizeForTerminal(a.Dir))
	}
}
