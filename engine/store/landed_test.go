package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/internal/faultfs"
)

// Out of inodes, a change is journaled (the journal's rewrite gets the
// last inode), its own write fails, and so does the rewrite that would
// drop its entry: the entry of a change that never landed stays in the
// journal file. It is never listed, undo skips it (reverting the change
// before it, if any, and saying exactly which files it changed), and the
// next write drops it from the file. A first change's journal, holding
// only that entry, is removed instead.
func TestJournalNeverListsAChangeThatDidNotLand(t *testing.T) {
	for _, op := range faultOps() {
		if op.name != "create" && op.name != "prune apply" && op.name != "restore" {
			continue
		}
		t.Run(op.name, func(t *testing.T) {
			f := &faultfs.FS{Step: faultfs.StepCreateTemp, Nth: 2, Persist: true, Err: syscall.ENOSPC}
			r := newFaultRun(t, op, f)
			_, err := op.op(r.store)
			if len(r.ids) == 0 {
				// A first change: its journal, holding only its entry, is
				// removed whole (a removal needs no inode), with the
				// folder made for it.
				if err == nil || strings.Contains(err.Error(), "could not be removed") {
					t.Fatalf("err = %v, want a failed change whose journal went", err)
				}
				if _, serr := os.Lstat(filepath.Join(r.dir, ".memscope")); serr == nil {
					t.Fatalf("the failed first change left .memscope/ (journal %q)", journalFileIDs(t, r.dir))
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "could not be removed") {
				t.Fatalf("err = %v, want a failed change whose journal entry stayed", err)
			}
			onDisk := journalFileIDs(t, r.dir)
			if len(onDisk) != len(r.ids)+1 {
				t.Fatalf("journal file holds %q, want the failed change's entry after %q", onDisk, r.ids)
			}
			phantom := onDisk[len(onDisk)-1]
			listed, probs, err := r.store.Journal()
			if err != nil {
				t.Fatal(err)
			}
			if ids := entryIDs(listed); !slices.Equal(ids, r.ids) {
				t.Errorf("listed %q, want %q: the change that never landed is listed", ids, r.ids)
			}
			if len(probs) != 1 || !strings.Contains(probs[0].Reason, phantom) {
				t.Errorf("problems %v, want one naming %s", probs, phantom)
			}
			if d := enginetest.DiffTrees(withoutJournal(r.before), withoutJournal(snapshot(t, r.dir))); d != "" {
				t.Fatalf("the failed change changed files:\n%s", d)
			}
			f.Heal()
			ch, err := r.store.Undo()
			if len(r.ids) == 0 {
				if !errors.Is(err, ErrNothingToUndo) || len(ch.Files) != 0 {
					t.Errorf("undo with only the phantom: %v, %+v; want nothing to undo", err, ch)
				}
				if ids := journalFileIDs(t, r.dir); len(ids) != 0 {
					t.Errorf("the phantom stays in the journal file: %q", ids)
				}
				return
			}
			if err != nil || ch.ID != r.ids[len(r.ids)-1] {
				t.Fatalf("undo: %v, reverted %q; want %q", err, ch.ID, r.ids[len(r.ids)-1])
			}
			if d := enginetest.DiffTrees(withoutJournal(r.orig), withoutJournal(snapshot(t, r.dir))); d != "" {
				t.Errorf("after undo the folder is not as before the setup:\n%s", d)
			}
			var changed []string
			for _, cf := range ch.Files {
				changed = append(changed, cf.Path)
			}
			if d := enginetest.DiffTrees(r.orig, r.before); d == "" || len(changed) == 0 {
				t.Errorf("undo says it changed %q", changed)
			}
			if ids := journalFileIDs(t, r.dir); len(ids) != 0 {
				t.Errorf("journal file after undo: %q", ids)
			}
		})
	}
}

// journalFileIDs are the ids of every entry in the journal file, landed
// or not.
func journalFileIDs(t *testing.T, dir string) []string {
	t.Helper()
	s, _ := Open(dir, nil)
	j, _, err := s.readJournal()
	if err != nil {
		t.Fatal(err)
	}
	return entryIDs(j.Entries())
}

func entryIDs(entries []journal.Entry) []string {
	var ids []string
	for _, e := range entries {
		ids = append(ids, e.ID)
	}
	return ids
}
