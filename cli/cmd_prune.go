package cli

import (
	"fmt"
	"github.com/memscope/memscope/engine/memcheck"
	"io"
	"strings"

	"github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var pruneCommand = &command{
	name:  "prune",
	usage: "memscope prune [--project PATH] [--agent NAME] [--dry-run|--apply] [--only ID,...] [--json]",
	summary: "plan fixes for a project's memory (merge duplicates, archive stale memories, drop dangling lines, index orphans, shorten long lines, move overflow out of MEMORY.md)\n\n" +
		"The plan is shown as a diff (--dry-run, the default) or applied as one undoable change (--apply).",
	run: steps(parsePrune, runPrune, showPrune),
}

// pruneOptions are prune's flags.
type pruneOptions struct {
	home homeFlags
	// project is the project folder; "" for the current one.
	project string
	// agent selects an agent's memory (--agent); "" the project's.
	agent string
	// apply writes the plan (the default is a dry run).
	apply bool
	// only are the action ids to show or apply; empty for all.
	only []string
	// plan is what to plan: the staleness thresholds and what to do with
	// stale memories.
	plan store.PruneOptions
	// force applies past the security scan.
	force bool
	json  bool
}

// pruneOutput is `memscope prune --json`.
type pruneOutput struct {
	MemoryDir string `json:"memoryDir"`
	store.Plan
	// Selected are the ids --only chose (all when empty).
	Selected []string `json:"selected,omitempty"`
	// Applied is the change --apply made.
	Applied *store.Change `json:"applied,omitempty"`
	// NotRead are the folder's files the plan could not consider: not
	// readable, too large, or a link out of the home (not followed).
	NotRead []model.Problem `json:"notRead,omitempty"`
}

func parsePrune(e *env, args []string) (pruneOptions, error) {
	var opts pruneOptions
	fs := newFlags("prune", &opts.home, &opts.json)
	fs.StringVar(&opts.project, "project", "", "project folder (default: the current folder)")
	addAgentFlag(fs, &opts.agent)
	dryRun := fs.Bool("dry-run", false, "show the plan and its diff without writing (the default)")
	fs.BoolVar(&opts.apply, "apply", false, "apply the plan as one change (undo with memscope undo)")
	only := fs.String("only", "", "comma-separated action ids to show or apply (default: all)")
	staleAction := fs.String("stale-action", "archive", "what to do with stale memories: `archive|delete` (archive: to .archive/; delete: to .trash/)")
	staleSpec := fs.String("stale", "", "staleness thresholds, e.g. project=2:14,user=90:365")
	fs.BoolVar(&opts.force, "force", false, "apply even when the security scan finds a high-severity issue in what would be written")
	if err := parseFlags(e, fs, args); err != nil {
		return opts, err
	}
	if *dryRun && opts.apply {
		return opts, badUsagef("--dry-run and --apply exclude each other")
	}
	// A bad --stale is reported like a failure (exit 1), as it always
	// has been; a bad --stale-action is a wrong command line.
	th, err := memindex.ParseStalenessOver(e.settings().Staleness, *staleSpec)
	if err != nil {
		return opts, err
	}
	opts.plan = store.PruneOptions{Now: e.now(), Staleness: th, StaleAction: store.PruneArchive}
	switch *staleAction {
	case "archive":
	case "delete":
		opts.plan.StaleAction = store.PruneDelete
	default:
		return opts, badUsagef("--stale-action %q: want archive or delete", *staleAction)
	}
	for _, id := range strings.Split(*only, ",") {
		if id = strings.TrimSpace(id); id != "" {
			opts.only = append(opts.only, id)
		}
	}
	return opts, nil
}

// pruneResult is the plan (and what --apply did) and its diff.
type pruneResult struct {
	out  pruneOutput
	diff string
}

// runPrune plans the fixes for the project's memory and, with --apply,
// applies the chosen ones as one change.
func runPrune(e *env, opts pruneOptions) (pruneResult, error) {
	t, err := openProjectMemory(e, &opts.home, opts.project, opts.agent)
	if err != nil {
		return pruneResult{}, err
	}
	defer t.close()
	// The plan's facts (what the sessions loaded) are lint's: one
	// assembly (engine/memcheck) for lint, prune and the Health pane.
	req := memcheck.Request{Unstamped: !t.kind.Stamped}
	if l := projectLoads(t, loads.DefaultDays); l.MemoryLoads() != nil {
		req.Loads = &l
	}
	opts.plan = memcheck.Prune(opts.plan, req)
	plan := t.store.PlanPrune(opts.plan)
	diff, err := plan.Preview(opts.only)
	if err != nil {
		return pruneResult{}, err
	}
	r := pruneResult{out: pruneOutput{MemoryDir: t.loc.Dir, Plan: plan, Selected: opts.only, NotRead: notRead(t.store.Problems())}, diff: diff}
	if opts.apply {
		if err := t.store.Writable(); err != nil {
			return pruneResult{}, err
		}
		ch, err := t.store.Apply(plan, opts.only, store.WriteOptions{Now: e.now(), Force: opts.force})
		if err != nil {
			return pruneResult{}, withForceHint(err)
		}
		r.out.Applied = &ch
	}
	return r, nil
}

// showPrune prints what runPrune returned, as text or --json.
func showPrune(e *env, opts pruneOptions, r pruneResult) error {
	return e.output(opts.json, r.out, func(w io.Writer) { printPrune(w, r.out, r.diff) })
}

func printPrune(w io.Writer, out pruneOutput, diff string) {
	fmt.Fprintf(w, "memory  %s\n", out.MemoryDir)
	for _, p := range out.NotRead {
		fmt.Fprintf(w, "not read (left out of the plan): %s\n", model.SanitizeLine(p.Error()))
	}
	if len(out.Actions) == 0 {
		fmt.Fprintln(w, "nothing to prune")
		return
	}
	chosen := map[string]bool{}
	for _, id := range out.Selected {
		chosen[id] = true
	}
	for _, a := range out.Actions {
		mark := "*"
		if len(chosen) > 0 && !chosen[a.ID] {
			mark = " "
		}
		fmt.Fprintf(w, "%s %-45s %s\n", mark, model.SanitizeLine(a.ID), model.SanitizeLine(a.Summary))
	}
	if out.Applied == nil {
		fmt.Fprintf(w, "\n%s\ndry run: nothing was written; apply with --apply (and --only ID,... to pick actions)\n", model.SanitizeForTerminal(diff))
		return
	}
	fmt.Fprintf(w, "\napplied as change %s: %s changed; undo with memscope undo\n", out.Applied.ID, format.Count(len(out.Applied.Files), "file", "files"))
	for _, f := range out.Applied.Files {
		fmt.Fprintf(w, "  %-8s %s\n", f.Action, f.Path)
	}
}

// notRead are the problems of a memory folder's read that kept a file out
// of it entirely (a file with bad frontmatter is still read and planned).
func notRead(probs []model.Problem) []model.Problem {
	var out []model.Problem
	for _, p := range probs {
		if p.Kind == model.ProblemUnreadable || p.Kind == model.ProblemTooLarge || model.IsLinkProblem(p) {
			out = append(out, p)
		}
	}
	return out
}
