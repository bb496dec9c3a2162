package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

func init() {
	register(command{
		name:  "prune",
		usage: "memscope prune [--project PATH] [--dry-run|--apply] [--only ID,...] [--json]",
		summary: "plan fixes for a project's memory (merge duplicates, archive stale memories, drop dangling lines, index orphans, shorten long lines, move overflow out of MEMORY.md)\n" +
			"and show them as a diff (--dry-run, the default) or apply them as one undoable change (--apply)",
		run: runPrune,
	})
}

// pruneOutput is `memscope prune --json`.
type pruneOutput struct {
	MemoryDir string `json:"memoryDir"`
	store.Plan
	// Selected are the ids --only chose (all when empty).
	Selected []string `json:"selected,omitempty"`
	// Applied is the change --apply made.
	Applied *store.Change `json:"applied,omitempty"`
}

func runPrune(e *env, args []string) int {
	fs := flag.NewFlagSet("prune", flag.ContinueOnError)
	hf := addHomeFlags(fs)
	project := fs.String("project", "", "project folder (default: the current folder)")
	dryRun := fs.Bool("dry-run", false, "show the plan and its diff without writing (the default)")
	apply := fs.Bool("apply", false, "apply the plan as one change (undo with memscope undo)")
	only := fs.String("only", "", "comma-separated action ids to show or apply (default: all)")
	staleAction := fs.String("stale-action", "archive", "what to do with stale memories: archive (to .archive/) or delete (to .trash/)")
	staleSpec := fs.String("stale", "", "staleness thresholds, e.g. project=2:14,user=90:365")
	force := fs.Bool("force", false, "apply even when the security scan finds a high-severity issue in what would be written")
	asJSON := fs.Bool("json", false, "print JSON")
	if !parseFlags(e, fs, args) {
		return 2
	}
	if *dryRun && *apply {
		fmt.Fprintln(e.stderr, "memscope prune: --dry-run and --apply exclude each other")
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(e.stderr, "memscope prune: %v\n", err)
		return 1
	}
	th, err := memindex.ParseStaleness(*staleSpec)
	if err != nil {
		return fail(err)
	}
	opts := store.PruneOptions{Now: e.now(), Staleness: th, StaleAction: store.PruneArchive}
	switch *staleAction {
	case "archive":
	case "delete":
		opts.StaleAction = store.PruneDelete
	default:
		fmt.Fprintf(e.stderr, "memscope prune: --stale-action %q: want archive or delete\n", *staleAction)
		return 2
	}
	var ids []string
	for _, id := range strings.Split(*only, ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	t, err := openProjectMemory(e, hf, *project)
	if err != nil {
		return fail(err)
	}
	defer t.close()
	plan := t.store.PlanPrune(opts)
	diff, err := plan.Preview(ids)
	if err != nil {
		return fail(err)
	}
	out := pruneOutput{MemoryDir: t.loc.Dir, Plan: plan, Selected: ids}
	if *apply {
		if err := t.store.Writable(); err != nil {
			return fail(err)
		}
		ch, err := t.store.Apply(plan, ids, store.WriteOptions{Now: e.now(), Force: *force})
		if err != nil {
			return fail(err)
		}
		out.Applied = &ch
	}
	if *asJSON {
		if err := writeJSON(e.stdout, out); err != nil {
			return fail(err)
		}
		return 0
	}
	printPrune(humanOutput(e.stdout), out, diff)
	return 0
}

func printPrune(w io.Writer, out pruneOutput, diff string) {
	fmt.Fprintf(w, "memory  %s\n", out.MemoryDir)
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
	fmt.Fprintf(w, "\napplied as change %s: %d files changed; undo with memscope undo\n", out.Applied.ID, len(out.Applied.Files))
	for _, f := range out.Applied.Files {
		fmt.Fprintf(w, "  %-8s %s\n", f.Action, f.Path)
	}
}
