package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/extract"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

const extractUsage = "memscope extract SESSION [--home DIR] [--demo] [--project PATH] [--json] [--write] [--force]"

var extractCommand = &command{
	name:  "extract",
	usage: extractUsage,
	summary: "propose memories from a session's prompts, with duplicates and what was kept out and why\n\n" +
		"Reads requests to remember, corrections, confirmed approaches, the user's role and preferences,\n" +
		"decisions and deadlines, and tracker links; follows the client's exclusion list. --write saves them into the project's memory folder (the session's folder, or\n" +
		"--project) with their index lines, through the security scan and the undo journal; --force writes what\n" +
		"the scan blocks. Exit 1 when a write failed.",
	run: steps(parseExtract, runExtract, showExtract),
}

// extractOptions are extract's flags and SESSION.
type extractOptions struct {
	home homeFlags
	// project names the memory folder; "" for the session's startup folder.
	project string
	json    bool
	// write saves the candidates; force saves what the scan blocks too.
	write, force bool
	session      string
}

// extractOut is `extract --json`.
type extractOut struct {
	Session   string `json:"session"`
	Path      string `json:"path"`
	Project   string `json:"project"`
	MemoryDir string `json:"memoryDir"`
	// MemoryEnabled is false when the client has auto memory off there.
	MemoryEnabled bool `json:"memoryEnabled"`
	// Existing is how many memories the folder held, for deduplication.
	Existing int `json:"existing"`
	// Prompts is how many user prompts were read; Skipped the user
	// records that were not, by reason.
	Prompts int                        `json:"prompts"`
	Skipped map[extract.PromptSkip]int `json:"skipped"`
	extract.Result
	savedMemories
	Problems []model.Problem `json:"problems"`
}

func parseExtract(e *env, args []string) (extractOptions, error) {
	var opts extractOptions
	fs := newFlags("extract", &opts.home, &opts.json)
	fs.StringVar(&opts.project, "project", "", "project whose memory folder to use (default: the session's startup folder)")
	fs.BoolVar(&opts.write, "write", false, "save the candidates into the memory folder")
	fs.BoolVar(&opts.force, "force", false, "with --write: save candidates the security scan blocks")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return opts, err
	}
	if len(pos) != 1 || opts.force && !opts.write {
		return opts, usageError("usage: " + extractUsage)
	}
	opts.session = pos[0]
	return opts, nil
}

// runExtract proposes memories from the session's prompts and, with
// --write, saves them into its project's memory folder.
func runExtract(e *env, opts extractOptions) (extractOut, error) {
	sf, err := openSession(e, &opts.home, opts.session)
	if err != nil {
		return extractOut{}, err
	}
	defer sf.close()
	tr, err := model.ReadTranscriptWith(sf.fsys, sf.name, model.ScanOptions{Content: true, KeepText: true})
	if err != nil {
		return extractOut{}, err
	}
	mem, closeMem, err := openSessionMemory(e, &opts.home, sf, tr, opts.project)
	if err != nil {
		return extractOut{}, err
	}
	defer closeMem()
	if opts.write {
		// Refused up front, not candidate by candidate.
		if err := mem.store.Writable(); err != nil {
			return extractOut{}, err
		}
	}
	existing := extract.ExistingFromMemoryDir(mem.store.Memory())
	res, prompts, err := extract.FromTranscript(context.Background(), tr, existing, extract.RuleExtractor{}, time.Local)
	if err != nil {
		return extractOut{}, err
	}
	out := extractOut{Session: tr.Summary.SessionID, Path: sf.disk, Project: mem.project, MemoryDir: mem.loc.Dir, MemoryEnabled: mem.loc.Enabled, Existing: len(existing),
		Prompts: len(prompts.Inputs), Skipped: prompts.Skipped, Result: res, savedMemories: savedMemories{Written: []writtenMemory{}, Failed: []failedWrite{}},
		Problems: append(append([]model.Problem{}, tr.Summary.Problems...), mem.store.Problems()...)}
	if opts.write {
		out.savedMemories = saveCandidates(mem.store, res.Candidates, e.now(), opts.force)
	}
	return out, nil
}

// showExtract prints what runExtract returned, as text or --json.
func showExtract(e *env, opts extractOptions, out extractOut) error {
	if err := e.output(opts.json, out, func(w io.Writer) { printExtract(w, out, opts.write) }); err != nil {
		return err
	}
	if len(out.Failed) > 0 {
		return exitStatus(1)
	}
	return nil
}

func printExtract(w io.Writer, r extractOut, wrote bool) {
	fmt.Fprintf(w, "session   %s\nfile      %s\n", r.Session, r.Path)
	fmt.Fprintf(w, "memory    %s, %s\n", r.MemoryDir, format.Count(r.Existing, "memory", "memories"))
	if !r.MemoryEnabled {
		fmt.Fprintln(w, "          auto memory is off for this project: the client will not read what is written here")
	}
	fmt.Fprintf(w, "read      %s%s\n", format.Count(r.Prompts, "user prompt", "user prompts"), skippedText(r.Skipped))
	for _, p := range r.Problems {
		fmt.Fprintf(w, "problem   %s:%d: %s\n", p.File, p.Line, p.Reason)
	}
	printExtraction(w, r.Result)
	printSaved(w, r.savedMemories, wrote, r.MemoryDir, r.Project, len(r.Candidates))
}

// skippedText is " (skipped: sidechain 1, tool result 3)", or "".
func skippedText(m map[extract.PromptSkip]int) string {
	if len(m) == 0 {
		return ""
	}
	var parts []string
	for k, n := range m {
		parts = append(parts, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(parts)
	return " (skipped: " + strings.Join(parts, ", ") + ")"
}
