package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/memscope/memscope/engine/leftover"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var lintCommand = &command{
	name:    "lint",
	usage:   "memscope lint [--home DIR] [--demo] [--project PATH] [--agent NAME] [--remove-leftovers] [--json]",
	summary: "check a project's memory: index cap, dangling links, orphans, frontmatter, types, size, [[links]], duplicates, staleness, drift, secrets and injections, and memscope's own leftover copies; and, from the transcripts, rules no session loaded and imports that never resolved in the last 30 days (exit 1 on errors)",
	run:     steps(parseLint, runLint, showLint),
}

// lintOptions are lint's flags.
type lintOptions struct {
	home homeFlags
	// project is the project folder; "" for the current one.
	project string
	// agent selects an agent's memory (--agent); "" the project's.
	agent string
	stale memindex.StalenessThresholds
	json  bool
	// removeLeftovers deletes the leftover copies lint finds (memscope's
	// own, never the user's files).
	removeLeftovers bool
}

// lintResult is the report on a project's memory, and where it is.
type lintResult struct {
	loc     model.MemoryLocation
	project string
	// exists is false when the memory folder is not there yet.
	exists bool
	report lint.Report
	// leftovers are what interrupted memscope writes left (in the
	// report as leftover-copy findings).
	leftovers leftover.Report
	// removed are the leftovers --remove-leftovers deleted or left.
	removed []leftover.Removed
	// agents are the project's agent memory folders on disk, when the
	// project's own memory was checked: --agent checks one.
	agents []string
	// notLoaded says why the client loads no MEMORY.md even though auto
	// memory is on (CLAUDE_CODE_DISABLE_CLAUDE_MDS).
	notLoaded string
}

// lintOutput is `memscope lint --json`.
type lintOutput struct {
	MemoryDir string             `json:"memoryDir"`
	Project   string             `json:"project"`
	Removed   []leftover.Removed `json:"removedLeftovers,omitempty"`
	// AgentMemory names the project's agent memory stores (--agent).
	AgentMemory []string `json:"agentMemory,omitempty"`
	// NotLoaded says why the client loads no MEMORY.md although auto
	// memory is on.
	NotLoaded string `json:"notLoaded,omitempty"`
	lint.Report
}

func parseLint(e *env, args []string) (lintOptions, error) {
	var opts lintOptions
	fs := newFlags("lint", &opts.home, &opts.json)
	fs.StringVar(&opts.project, "project", "", "project folder (default: the current folder)")
	addAgentFlag(fs, &opts.agent)
	fs.BoolVar(&opts.removeLeftovers, "remove-leftovers", false, "delete the copies interrupted memscope writes left (listed as leftover-copy)")
	stale := fs.String("stale", "", "staleness thresholds, e.g. project=2:14,user=90:365")
	if err := parseFlags(e, fs, args); err != nil {
		return opts, err
	}
	// A bad --stale is reported like a failed check (exit 1), as it
	// always has been.
	var err error
	opts.stale, err = memindex.ParseStalenessOver(e.settings().Staleness, *stale)
	return opts, err
}

// runLint checks the project's memory, and looks for memscope's
// leftovers everywhere it writes.
func runLint(e *env, opts lintOptions) (lintResult, error) {
	t, err := openProjectMemory(e, &opts.home, opts.project, opts.agent)
	if err != nil {
		return lintResult{}, err
	}
	defer t.close()
	in, found := t.engine().LintInput(opts.stale)
	rep := lint.Run(in)
	res := lintResult{loc: t.loc, project: t.project, exists: t.store.Memory().Exists, report: rep, leftovers: found}
	if v := e.getenv(preview.EnvDisableClaudeMds); model.EnvTruthy(v) {
		res.notLoaded = preview.EnvDisableClaudeMds + "=" + v + ": the client loads no CLAUDE.md and no MEMORY.md"
	}
	if opts.agent == "" {
		for _, s := range t.agentStores() {
			if s.Exists {
				res.agents = append(res.agents, s.ID())
			}
		}
	}
	if opts.removeLeftovers {
		res.removed, err = leftover.Remove(e.writer(), found.Items, nil, nil)
	}
	return res, err
}

// showLint prints what runLint returned, as text or --json.
func showLint(e *env, opts lintOptions, res lintResult) error {
	js := lintOutput{MemoryDir: res.loc.Dir, Project: res.project, Removed: res.removed, AgentMemory: res.agents, NotLoaded: res.notLoaded, Report: res.report}
	if err := e.output(opts.json, js, func(w io.Writer) { printLint(w, res) }); err != nil {
		return err
	}
	if res.report.HasErrors() {
		return exitStatus(1)
	}
	return nil
}

func printLint(w io.Writer, r lintResult) {
	fmt.Fprintf(w, "memory  %s (%s)\n", r.loc.Dir, r.loc.Reason)
	if !r.loc.Enabled {
		fmt.Fprintf(w, "        auto memory is off here (%s): the client neither reads nor writes this folder\n", r.loc.SwitchReason)
	}
	if r.notLoaded != "" && r.loc.Enabled {
		fmt.Fprintf(w, "        MEMORY.md does not load (%s)\n", r.notLoaded)
	}
	if !r.exists {
		fmt.Fprintln(w, "        no memory folder yet: nothing to check")
	}
	for _, f := range r.report.Findings {
		where := f.Path
		if where == "" {
			where = "."
		}
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", where, f.Line)
		}
		fmt.Fprintf(w, "%s: %s %s: %s\n", model.SanitizeLine(where), f.Severity, f.Kind, model.SanitizeLine(f.Message))
	}
	fmt.Fprintf(w, "%s, %s, %s\n", format.Count(r.report.Errors, "error", "errors"), format.Count(r.report.Warnings, "warning", "warnings"), format.Count(r.report.Infos, "note", "notes"))
	if len(r.agents) > 0 {
		fmt.Fprintf(w, "agent memory here too: %s (memscope lint --agent NAME checks one)\n", model.SanitizeLine(strings.Join(r.agents, ", ")))
	}
	if r.leftovers.InFlight > 0 {
		fmt.Fprintf(w, "(%d copies belong to a memscope writing now: not leftovers)\n", r.leftovers.InFlight)
	}
	for _, p := range r.removed {
		if p.Skipped != "" {
			fmt.Fprintf(w, "left %s: %s\n", model.SanitizeLine(p.Path), p.Skipped)
			continue
		}
		fmt.Fprintf(w, "removed leftover %s\n", model.SanitizeLine(p.Path))
	}
}
