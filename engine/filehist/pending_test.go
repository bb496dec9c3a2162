package filehist

import (
	"strings"
	"syscall"
	"testing"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/filehistgen"
)

// A restore writes its journal entry first, marked pending (the intent),
// then the files, then marks the entry done. Stopped after the entry and
// two of four files (here by a full disk at the third file's rename, as a
// kill would), the entry is still pending: it says the restore did not
// finish, and undo puts back exactly the files that changed, saying so.
// A restore that completes leaves its entry done.
func TestRestoreJournalIntentThenDone(t *testing.T) {
	l, home, s := genFileHistory(t)
	before := diskState(t, l)
	p, err := PlanTurnRestore(home.FS, &s, filehistgen.U1)
	if err != nil {
		t.Fatal(err)
	}
	// Renames: the journal's, then one per written file (the deletion
	// renames nothing).
	f := &faultfs.FS{Base: faultfs.NoSync{}, Step: faultfs.StepRename, Nth: 3, Err: syscall.ENOSPC}
	if _, err := ApplyRestoreWith(f, home.Dir, home.FS, p, fhT0); err == nil {
		t.Fatal("the restore met a full disk and succeeded")
	}
	entries, _, err := Restores(home.FS, filehistgen.SessionID)
	if err != nil || len(entries) != 1 || !entries[0].Pending {
		t.Fatalf("after an interrupted restore the journal is %+v (%v); want one pending entry", entries, err)
	}
	mid := diskState(t, l)
	changed := 0
	for k := range before {
		if mid[k] != before[k] {
			changed++
		}
	}
	if changed == 0 || changed == 4 {
		t.Fatalf("%d of 4 files changed: the fault did not stop the restore part way", changed)
	}
	ch, err := UndoRestore(home.Dir, filehistgen.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Files) != changed || !strings.Contains(ch.Summary, "interrupted") {
		t.Errorf("undo of the interrupted restore: %d files, %q; want the %d that changed, and that it was interrupted", len(ch.Files), ch.Summary, changed)
	}
	sameState(t, "after undo", diskState(t, l), before)

	// Whole, the entry ends done.
	p, err = PlanTurnRestore(home.FS, &s, filehistgen.U1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ApplyRestore(home.Dir, home.FS, p, fhT0); err != nil {
		t.Fatal(err)
	}
	entries, _, _ = Restores(home.FS, filehistgen.SessionID)
	if len(entries) != 1 || entries[0].Pending {
		t.Fatalf("after a complete restore the journal is %+v; want one entry, done", entries)
	}
}
