package cli

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/memscope/memscope/engine/inventory"
	"github.com/memscope/memscope/model"
)

func init() {
	register(command{
		name:    "stat",
		usage:   "memscope stat [--home DIR] [--demo] [--json]",
		summary: "inventory of the Claude home: projects, memory, history, pastes, transcripts, and every malformed line",
		run:     runStat,
	})
}

func runStat(e *env, args []string) int {
	fs := flag.NewFlagSet("stat", flag.ContinueOnError)
	hf := addHomeFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if !parseFlags(e, fs, args) {
		return 2
	}
	o, err := e.openHome(hf)
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope stat: %v\n", err)
		return 1
	}
	defer o.close()
	rep := inventory.Stat(inventory.Options{Home: o.home, Root: o.root})
	if *asJSON {
		if err := writeJSON(e.stdout, rep); err != nil {
			fmt.Fprintf(e.stderr, "memscope stat: %v\n", err)
			return 1
		}
		return 0
	}
	printStat(humanOutput(e.stdout), rep)
	return 0
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
	fmt.Fprintf(w, "memory        %d folders, %d topic files (%d invalid), %d team files\n", r.MemoryDirs, r.MemoryFiles, r.InvalidMemoryFiles, r.TeamMemoryFiles)
	fmt.Fprintf(w, "index         %d MEMORY.md files, %d lines, %d entries\n", r.IndexFiles, r.IndexLines, r.IndexEntries)
	fmt.Fprintf(w, "history       %d prompts\n", r.HistoryEntries)
	p := r.Pastes
	fmt.Fprintf(w, "pastes        %d referenced: %d resolved, %d missing, %d hash mismatch; %d inline; %d files, %d orphans\n",
		p.Referenced, p.Resolved, p.Missing, p.HashMismatch, p.Inline, p.Files, p.Orphans)
	fmt.Fprintf(w, "transcripts   %d sessions, %d subagent, %d older layout, %d tool-result files, %s\n",
		r.Transcripts, r.SubagentTranscripts, r.SeedTranscripts, r.ToolResultFiles, humanBytes(r.TranscriptBytes))
	fmt.Fprintf(w, "records       %d; %d compact boundaries, %d microcompact\n", r.Records, r.CompactBoundaries, r.MicrocompactBoundaries)
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
	for _, s := range r.Secondary {
		fmt.Fprintf(w, "secondary     %s: %s (%d files)\n", s.Label, s.Path, s.Files)
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

func humanBytes(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
}
