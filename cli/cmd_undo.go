package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

func init() {
	register(command{
		name:    "undo",
		usage:   "memscope undo [--project PATH] [--list] [--json]",
		summary: "revert the last change memscope made to a project's memory (refused if a file changed since), or list the journal",
		run:     runUndo,
	})
}

// journalItem is a journal entry without the saved bytes, for --list.
type journalItem struct {
	ID      string              `json:"id"`
	Time    time.Time           `json:"time"`
	Op      journal.OpKind      `json:"op"`
	Summary string              `json:"summary"`
	Files   []store.ChangedFile `json:"files"`
}

func runUndo(e *env, args []string) int {
	fs := flag.NewFlagSet("undo", flag.ContinueOnError)
	hf := addHomeFlags(fs)
	project := fs.String("project", "", "project folder (default: the current folder)")
	list := fs.Bool("list", false, "list the journaled changes, newest first, instead of undoing")
	asJSON := fs.Bool("json", false, "print JSON")
	if !parseFlags(e, fs, args) {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(e.stderr, "memscope undo: %v\n", err)
		return 1
	}
	t, err := openProjectMemory(e, hf, *project)
	if err != nil {
		return fail(err)
	}
	defer t.close()
	if *list {
		entries, probs, err := t.store.Journal()
		if err != nil {
			return fail(err)
		}
		items := journalItems(entries)
		for _, p := range probs {
			fmt.Fprintf(e.stderr, "memscope undo: %s\n", p.Error())
		}
		if *asJSON {
			if err := writeJSON(e.stdout, map[string]any{"memoryDir": t.loc.Dir, "entries": items}); err != nil {
				return fail(err)
			}
			return 0
		}
		printJournal(humanOutput(e.stdout), t.loc.Dir, items)
		return 0
	}
	if err := t.store.Writable(); err != nil {
		return fail(err)
	}
	ch, err := t.store.Undo()
	if errors.Is(err, store.ErrNothingToUndo) {
		fmt.Fprintf(e.stderr, "memscope undo: %v (%s)\n", err, t.loc.Dir)
		return 1
	}
	if err != nil {
		return fail(err)
	}
	if *asJSON {
		if err := writeJSON(e.stdout, ch); err != nil {
			return fail(err)
		}
		return 0
	}
	fmt.Fprintf(e.stdout, "undid change %s: %s\n%s", ch.ID, model.SanitizeForTerminal(ch.Summary), model.SanitizeForTerminal(ch.Diff))
	return 0
}

// journalItems lists entries newest first, with what each did per file.
func journalItems(entries []journal.Entry) []journalItem {
	items := make([]journalItem, 0, len(entries))
	for i := len(entries) - 1; i >= 0; i-- {
		en := entries[i]
		it := journalItem{ID: en.ID, Time: en.Time, Op: en.Op, Summary: en.Summary, Files: []store.ChangedFile{}}
		for _, f := range en.Files {
			a := store.FileModified
			switch {
			case !f.Existed:
				a = store.FileCreated
			case f.After == "":
				a = store.FileDeleted
			}
			it.Files = append(it.Files, store.ChangedFile{Path: f.Path, Action: a})
		}
		items = append(items, it)
	}
	return items
}

func printJournal(w io.Writer, dir string, items []journalItem) {
	fmt.Fprintf(w, "memory  %s\n", dir)
	if len(items) == 0 {
		fmt.Fprintln(w, "the journal is empty: nothing to undo")
		return
	}
	for i, it := range items {
		next := ""
		if i == 0 {
			next = "  ← memscope undo reverts this"
		}
		fmt.Fprintf(w, "%s  %s  %-15s %s%s\n", it.ID, it.Time.UTC().Format(time.RFC3339), it.Op, model.SanitizeForTerminal(it.Summary), next)
		for _, f := range it.Files {
			fmt.Fprintf(w, "    %-8s %s\n", f.Action, f.Path)
		}
	}
}
