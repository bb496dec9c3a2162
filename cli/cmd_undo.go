package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

var undoCommand = &command{
	name:    "undo",
	usage:   "memscope undo [--project PATH] [--agent NAME] [--list] [--json]",
	summary: "revert the last change memscope made to a project's memory or to a CLAUDE.md or rule of its prompt (refused if a file changed since), or list the journal",
	run:     steps(parseUndo, runUndo, showUndo),
}

// undoOptions are undo's flags.
type undoOptions struct {
	home homeFlags
	// project is the project folder; "" for the current one.
	project string
	// agent selects an agent's memory (--agent); "" the project's.
	agent string
	// list lists the journal instead of undoing.
	list bool
	json bool
}

// journalItem is a journal entry without the saved bytes, for --list.
type journalItem struct {
	ID      string              `json:"id"`
	Time    time.Time           `json:"time"`
	Op      journal.OpKind      `json:"op"`
	Summary string              `json:"summary"`
	Files   []store.ChangedFile `json:"files"`
}

// undoResult is the journal of a memory folder (--list), or the change
// that undid its newest entry.
type undoResult struct {
	dir   string
	items []journalItem
	undid *store.Change
}

func parseUndo(e *env, args []string) (undoOptions, error) {
	var opts undoOptions
	fs := newFlags("undo", &opts.home, &opts.json)
	fs.StringVar(&opts.project, "project", "", "project folder (default: the current folder)")
	addAgentFlag(fs, &opts.agent)
	fs.BoolVar(&opts.list, "list", false, "list the journaled changes, newest first, instead of undoing")
	return opts, parseFlags(e, fs, args)
}

// runUndo reverts the newest journaled change to the project's memory,
// or with --list reads the journal (its problems said on stderr).
func runUndo(e *env, opts undoOptions) (undoResult, error) {
	t, err := openProjectMemory(e, &opts.home, opts.project, opts.agent)
	if err != nil {
		return undoResult{}, err
	}
	defer t.close()
	r := undoResult{dir: t.loc.Dir}
	// A CLAUDE.md or rule of the project's prompt saved from the app is
	// journaled in the home; its changes are undone in turn with the
	// memory's, newest first.
	docs := t.documents(e)
	if opts.list {
		entries, probs, err := t.store.Journal()
		if err != nil {
			return r, err
		}
		for _, d := range docs {
			des, dprobs, err := d.Journal()
			if err != nil {
				return r, err
			}
			entries, probs = append(entries, absoluteEntries(des)...), append(probs, dprobs...)
		}
		slices.SortStableFunc(entries, func(a, b journal.Entry) int { return a.Time.Compare(b.Time) })
		r.items = journalItems(entries)
		for _, p := range probs {
			fmt.Fprintf(e.stderr, "memscope undo: %s\n", p.Error())
		}
		return r, nil
	}
	if err := t.store.Writable(); err != nil {
		return r, err
	}
	ch, err := store.UndoNewest(append([]*store.Store{t.store}, docs...))
	if errors.Is(err, store.ErrNothingToUndo) {
		return r, fmt.Errorf("%w (%s)", err, t.loc.Dir)
	}
	if err != nil {
		return r, err
	}
	r.undid = &ch
	return r, nil
}

// showUndo prints what runUndo returned, as text or --json.
func showUndo(e *env, opts undoOptions, r undoResult) error {
	if ch := r.undid; ch != nil {
		return e.output(opts.json, ch, func(w io.Writer) {
			fmt.Fprintf(w, "undid change %s: %s\n%s", ch.ID, model.SanitizeForTerminal(ch.Summary), model.SanitizeForTerminal(ch.Diff))
		})
	}
	return e.output(opts.json, map[string]any{"memoryDir": r.dir, "entries": r.items}, func(w io.Writer) { printJournal(w, r.dir, r.items) })
}

// absoluteEntries are document journal entries with their files' paths
// made absolute (a memory journal's are relative to the memory folder,
// which the list names; a document's folder is its own).
func absoluteEntries(es []journal.Entry) []journal.Entry {
	out := make([]journal.Entry, len(es))
	for i, en := range es {
		files := make([]journal.File, len(en.Files))
		for j, f := range en.Files {
			f.Path = filepath.Join(en.Folder, filepath.FromSlash(f.Path))
			files[j] = f
		}
		en.Files = files
		out[i] = en
	}
	return out
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
