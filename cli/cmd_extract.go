package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/memscope/memscope/engine/extract"
	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/model"
)

func init() {
	register(command{
		name:  "extract",
		usage: "memscope extract SESSION [--home DIR] [--demo] [--project PATH] [--json] [--write] [--force]",
		summary: "propose memories from a session's prompts, with duplicates and what was kept out and why\n" +
			"Reads requests to remember, corrections, confirmed approaches, the user's role and preferences,\n" +
			"decisions and deadlines, and tracker links; follows the client's exclusion list. --write saves them into the project's memory folder (the session's folder, or\n" +
			"--project) with their index lines, through the security scan and the undo journal; --force writes what\n" +
			"the scan blocks. Exit 1 when a write failed.",
		run: runExtract,
	})
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

// savedMemories is what --write did.
type savedMemories struct {
	// Written lists the memories saved; Failed those that were not.
	Written []writtenMemory `json:"written"`
	Failed  []failedWrite   `json:"failed"`
}

// writtenMemory is a candidate saved through the store.
type writtenMemory struct {
	Name string           `json:"name"`
	Type model.MemoryType `json:"type"`
	// Path is the new file, relative to the memory folder.
	Path string `json:"path"`
	// Change is the journal id `memscope undo` reverts.
	Change string `json:"change"`
	// Findings are scan findings that did not block (or were forced).
	Findings []scan.Finding `json:"findings,omitempty"`
}

// failedWrite is a candidate that was not saved.
type failedWrite struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
	// Blocked is set when the security scan refused it (--force writes it).
	Blocked  bool           `json:"blocked,omitempty"`
	Findings []scan.Finding `json:"findings,omitempty"`
}

func runExtract(e *env, args []string) int {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	hf := addHomeFlags(fs)
	project := fs.String("project", "", "project whose memory folder to use (default: the session's startup folder)")
	asJSON := fs.Bool("json", false, "print JSON")
	write := fs.Bool("write", false, "save the candidates into the memory folder")
	force := fs.Bool("force", false, "with --write: save candidates the security scan blocks")
	pos, ok := parseInterspersed(e, fs, args)
	if !ok {
		return 2
	}
	if len(pos) != 1 || *force && !*write {
		fmt.Fprintln(e.stderr, "usage: memscope extract SESSION [--home DIR] [--demo] [--project PATH] [--json] [--write] [--force]")
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(e.stderr, "memscope extract: %v\n", err)
		return 1
	}
	sf, err := openSession(e, hf, pos[0])
	if err != nil {
		return fail(err)
	}
	defer sf.close()
	tr, err := model.ReadTranscriptWith(sf.fsys, sf.name, model.ScanOptions{Content: true, KeepText: true})
	if err != nil {
		return fail(err)
	}
	mem, closeMem, err := openSessionMemory(e, hf, sf, tr, *project)
	if err != nil {
		return fail(err)
	}
	defer closeMem()
	if *write {
		// Refused up front, not candidate by candidate.
		if err := mem.store.Writable(); err != nil {
			return fail(err)
		}
	}
	existing := extract.ExistingFromMemoryDir(mem.store.Memory())
	res, prompts, err := extract.FromTranscript(context.Background(), tr, existing, extract.RuleExtractor{}, time.Local)
	if err != nil {
		return fail(err)
	}
	out := extractOut{Session: tr.Summary.SessionID, Path: sf.disk, Project: mem.project, MemoryDir: mem.loc.Dir, MemoryEnabled: mem.loc.Enabled, Existing: len(existing),
		Prompts: len(prompts.Inputs), Skipped: prompts.Skipped, Result: res, savedMemories: savedMemories{Written: []writtenMemory{}, Failed: []failedWrite{}},
		Problems: append(append([]model.Problem{}, tr.Summary.Problems...), mem.store.Problems()...)}
	if *write {
		out.savedMemories = saveCandidates(mem.store, res.Candidates, e.now(), *force)
	}
	if *asJSON {
		if err := writeJSON(e.stdout, out); err != nil {
			return fail(err)
		}
	} else {
		printExtract(humanOutput(e.stdout), out, *write)
	}
	if len(out.Failed) > 0 {
		return 1
	}
	return 0
}

// openSessionMemory opens the memory folder a session's memories belong
// to: that of project when given, else of the session's startup folder
// (its first cwd), resolved the client's way (git root, worktrees,
// overrides). The home is the one the session was found in, else the
// usual one; the returned func releases a home opened here.
func openSessionMemory(e *env, hf *homeFlags, sf *sessionFile, tr *model.Transcript, project string) (*memoryTarget, func(), error) {
	o, done := sf.home, func() {}
	if o == nil {
		var err error
		if o, err = e.openHome(hf); err != nil {
			return nil, nil, err
		}
		done = o.close
	}
	if project == "" {
		project = tr.Summary.CWD
	}
	if project == "" {
		done()
		return nil, nil, fmt.Errorf("%s names no startup folder (cwd); pass --project", sf.disk)
	}
	t, err := openMemory(e, o, project)
	if err != nil {
		done()
		return nil, nil, err
	}
	return t, done, nil
}

func printExtract(w io.Writer, r extractOut, wrote bool) {
	fmt.Fprintf(w, "session   %s\nfile      %s\n", r.Session, r.Path)
	fmt.Fprintf(w, "memory    %s, %d memories\n", r.MemoryDir, r.Existing)
	if !r.MemoryEnabled {
		fmt.Fprintln(w, "          auto memory is off for this project: the client will not read what is written here")
	}
	fmt.Fprintf(w, "read      %d user prompts%s\n", r.Prompts, skippedText(r.Skipped))
	for _, p := range r.Problems {
		fmt.Fprintf(w, "problem   %s:%d: %s\n", p.File, p.Line, p.Reason)
	}
	printExtraction(w, r.Result)
	printSaved(w, r.savedMemories, wrote, r.MemoryDir, r.Project, len(r.Candidates))
}
