package cli

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

func init() {
	register(command{
		name:    "trash",
		usage:   "memscope trash [--project PATH] [--restore TRASH-PATH] [--json]",
		summary: "the memories deleted to memory/.trash/, newest first, and restore of one (journaled: memscope undo reverts it)",
		run:     runTrash,
	})
}

func runTrash(e *env, args []string) int {
	fs := flag.NewFlagSet("trash", flag.ContinueOnError)
	hf := addHomeFlags(fs)
	project := fs.String("project", "", "project folder (default: the current folder)")
	restore := fs.String("restore", "", "put this trashed file (a path under .trash/, as listed) back where it was")
	asJSON := fs.Bool("json", false, "print JSON")
	if !parseFlagsOnly(e, fs, args) {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(e.stderr, "memscope trash: %v\n", err)
		return 1
	}
	t, err := openProjectMemory(e, hf, *project)
	if err != nil {
		return fail(err)
	}
	defer t.close()
	if *restore != "" {
		if err := t.store.Writable(); err != nil {
			return fail(err)
		}
		ch, err := t.store.Restore(*restore, store.WriteOptions{Now: e.now()})
		if err != nil {
			return fail(err)
		}
		if *asJSON {
			if err := writeJSON(e.stdout, ch); err != nil {
				return fail(err)
			}
			return 0
		}
		fmt.Fprintf(humanOutput(e.stdout), "%s\n%s(memscope undo puts it back in the trash)\n", ch.Summary, ch.Diff)
		return 0
	}
	items, err := t.store.ListTrash()
	if err != nil {
		return fail(err)
	}
	if items == nil {
		items = []store.TrashItem{}
	}
	if *asJSON {
		if err := writeJSON(e.stdout, map[string]any{"memoryDir": t.loc.Dir, "items": items}); err != nil {
			return fail(err)
		}
		return 0
	}
	printTrash(humanOutput(e.stdout), t.loc.Dir, items, e.now())
	return 0
}

func printTrash(w io.Writer, dir string, items []store.TrashItem, now time.Time) {
	fmt.Fprintf(w, "trash of %s/%s: %s\n", dir, store.TrashDir, countOf(len(items), "memory", "memories"))
	for _, it := range items {
		when := "unknown time"
		if !it.Deleted.IsZero() {
			when = it.Deleted.Local().Format("2006-01-02 15:04") + " (" + ageText(now.Sub(it.Deleted)) + " ago)"
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

// ageText is a duration as whole days, else hours, else minutes.
func ageText(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int(d.Hours()/24))
	case d >= 2*time.Hour:
		return fmt.Sprintf("%d hours", int(d.Hours()))
	}
	return fmt.Sprintf("%d minutes", max(int(d.Minutes()), 0))
}
