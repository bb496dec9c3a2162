package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var trashCommand = &command{
	name:    "trash",
	usage:   "memscope trash [--project PATH] [--agent NAME] [--restore TRASH-PATH [--force]] [--json]",
	summary: "the memories deleted to memory/.trash/, newest first, and restore of one (journaled: memscope undo reverts it)",
	run:     steps(parseTrash, runTrash, showTrash),
}

// trashOptions are trash's flags.
type trashOptions struct {
	home homeFlags
	// project is the project folder; "" for the current one.
	project string
	// agent selects an agent's memory (--agent); "" the project's.
	agent string
	// restore is the trashed file to put back; "" lists the trash.
	restore string
	// force restores past the security scan.
	force bool
	json  bool
}

// trashResult is the trash of a memory folder, or the restore of one of
// its files.
type trashResult struct {
	dir   string
	items []store.TrashItem
	// problems are trash entries that are not regular files (not listed).
	problems []model.Problem
	// restored is the change a restore made; nil for a listing.
	restored *store.Change
}

func parseTrash(e *env, args []string) (trashOptions, error) {
	var opts trashOptions
	fs := newFlags("trash", &opts.home, &opts.json)
	fs.StringVar(&opts.project, "project", "", "project folder (default: the current folder)")
	addAgentFlag(fs, &opts.agent)
	fs.StringVar(&opts.restore, "restore", "", "put this trashed file (a `TRASH-PATH` under .trash/, as listed) back where it was, with its index line")
	fs.BoolVar(&opts.force, "force", false, "with --restore: restore even when the security scan finds a high-severity issue in the file")
	if err := parseFlagsOnly(e, fs, args); err != nil {
		return opts, err
	}
	if opts.force && opts.restore == "" {
		return opts, badUsagef("--force goes with --restore")
	}
	return opts, nil
}

// runTrash lists the project's memory trash, or restores one file from
// it (journaled).
func runTrash(e *env, opts trashOptions) (trashResult, error) {
	t, err := openProjectMemory(e, &opts.home, opts.project, opts.agent)
	if err != nil {
		return trashResult{}, err
	}
	defer t.close()
	r := trashResult{dir: t.loc.Dir}
	if opts.restore != "" {
		if err := t.store.Writable(); err != nil {
			return r, err
		}
		ch, err := t.store.Restore(opts.restore, store.WriteOptions{Now: e.now(), Force: opts.force})
		if err != nil {
			return r, withForceHint(err)
		}
		r.restored = &ch
		return r, nil
	}
	if r.items, r.problems, err = t.store.ListTrash(); err != nil {
		return r, err
	}
	if r.items == nil {
		r.items = []store.TrashItem{}
	}
	return r, nil
}

// showTrash prints what runTrash returned, as text or --json.
func showTrash(e *env, opts trashOptions, r trashResult) error {
	if ch := r.restored; ch != nil {
		return e.output(opts.json, ch, func(w io.Writer) {
			fmt.Fprintf(w, "%s\n%s(memscope undo puts it back in the trash)\n", ch.Summary, ch.Diff)
		})
	}
	js := map[string]any{"memoryDir": r.dir, "items": r.items}
	if len(r.problems) > 0 {
		js["problems"] = r.problems
	}
	return e.output(opts.json, js, func(w io.Writer) {
		printTrash(w, r.dir, r.items, e.now())
		for _, p := range r.problems {
			fmt.Fprintf(w, "  %s: %s\n", model.SanitizeLine(p.File), model.SanitizeLine(p.Reason))
		}
	})
}

func printTrash(w io.Writer, dir string, items []store.TrashItem, now time.Time) {
	fmt.Fprintf(w, "trash of %s/%s: %s\n", dir, store.TrashDir, format.Count(len(items), "memory", "memories"))
	for _, it := range items {
		when := "unknown time"
		if !it.Deleted.IsZero() {
			when = it.Deleted.Local().Format("2006-01-02 15:04") + " (" + format.Ago(now, it.Deleted) + ")"
		}
		fmt.Fprintf(w, "  %s  %7d B  %s\n      was %s", when, it.Size, model.SanitizeLine(it.Path), model.SanitizeLine(it.Original))
		if it.Description != "" {
			fmt.Fprintf(w, " — %s", model.SanitizeLine(it.Description))
		}
		fmt.Fprintln(w)
	}
	if len(items) > 0 {
		fmt.Fprintln(w, "restore one with: memscope trash --restore PATH (memscope never empties the trash; delete files there yourself)")
	}
}
