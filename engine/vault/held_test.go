package vault

import (
	"fmt"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/model"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// A first sync holds of each file it synced only the record's head, not
// the record (its versions and chunk lists) nor its state line (written
// to the state file as the files are synced, stateStream): before,
// every file's record and line stayed until the sync's end
// (docs/VAULT.md, "i31r").
func TestSyncHoldsHeads(t *testing.T) {
	home := cutHome(t)
	v := openVault(t, nil)
	held := 0
	stateHeldHook = func(st *state) {
		for p, e := range st.entries {
			if e.rec != nil || e.raw != nil || !e.written {
				t.Errorf("%s: the sync holds its record (%v) or its line (%v)", p, e.rec != nil, e.raw != nil)
				continue
			}
			held++
		}
	}
	t.Cleanup(func() { stateHeldHook = nil })
	rep := syncHome(t, v, home, t0)
	stateHeldHook = nil
	if held == 0 || held != rep.New {
		t.Fatalf("%d records held as heads, %d new files", held, rep.New)
	}
	// The state file's lines are the records: a second sync finds
	// every file unchanged, and the vault verifies.
	if rep := syncHome(t, v, home, t0); rep.New != 0 || rep.Files != held {
		t.Errorf("second sync %+v, %d held", rep, held)
	}
	if vr, err := v.Verify(); err != nil || len(vr.Problems) > 0 {
		t.Fatalf("verify: %v %v", vr.Problems, err)
	}
}

// A sync that finds more than maxStateFiles state files merges them
// into one: the records it wrote, held as their heads only, are read
// again from its new state file, and the merged state is every record
// as the state files had it before the merge.
func TestSyncMergesTheStateFilesItWrote(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	rel := "projects/" + proj + "/memory/note.md"
	var before []*Record
	for i := range maxStateFiles {
		now := t0.Add(time.Duration(i+1) * time.Minute)
		write(t, home, rel, fmt.Sprintf("note %d\n", i), now)
		if i == maxStateFiles-1 {
			st, err := v.loadState()
			if err != nil {
				t.Fatal(err)
			}
			before = st.sorted()
		}
		syncHome(t, v, home, now)
	}
	names, err := v.stateFiles()
	if err != nil || len(names) != 1 {
		t.Fatalf("state files after %d syncs: %v %v", maxStateFiles+1, names, err)
	}
	st, err := v.loadState()
	if err != nil {
		t.Fatal(err)
	}
	after := st.sorted()
	if len(after) != len(before) {
		t.Fatalf("%d records after the merge, %d before the last sync", len(after), len(before))
	}
	for i, r := range after {
		b := before[i]
		if r.Path != b.Path || len(r.Versions) < len(b.Versions) {
			t.Errorf("%s: %d versions after the merge, %s had %d", r.Path, len(r.Versions), b.Path, len(b.Versions))
		}
	}
	if n := st.get(rel); n == nil || len(n.Versions) != maxStateFiles {
		t.Errorf("%s: %v, want %d versions", rel, n, maxStateFiles)
	}
	if vr, err := v.Verify(); err != nil || len(vr.Problems) > 0 {
		t.Fatalf("verify: %v %v", vr.Problems, err)
	}
}

// A sync's state file is begun (its temporary file created, the first
// lines written to it) while files are still being synced: here the
// last file in the state's order waits, once its line is encoded, for
// the state's temporary file. Before, the lines were all held and the
// file written once every file was synced: the guard gave up. The
// state is the one a sync writes anyway, and the vault verifies.
func TestStateWrittenWhileFilesAreSynced(t *testing.T) {
	home := cutHome(t)
	var probs []model.Problem
	walked := walkHome(homeOf(t, home).FS, "", &probs, nil, nil)
	last := walked[len(walked)-1].rel
	created := make(chan struct{})
	var once sync.Once
	w := &faultfs.FS{OnCall: func(step faultfs.Step, p string) {
		if step == faultfs.StepCreateTemp && filepath.Base(filepath.Dir(p)) == stateDir {
			once.Do(func() { close(created) })
		}
	}}
	streamed := false
	recordEncodedHook = func(p string) {
		if p != last {
			return
		}
		select {
		case <-created:
			streamed = true
		case <-time.After(deadlockGuard):
		}
	}
	t.Cleanup(func() { recordEncodedHook = nil })
	v := openVault(t, w)
	rep, err := v.Sync(SyncOptions{Home: homeOf(t, home), Now: t0})
	if err != nil || rep.New != len(walked) {
		t.Fatalf("sync: %+v %v (%d files)", rep, err, len(walked))
	}
	if !streamed {
		t.Errorf("the state file was not begun before %s, the last file, was synced", last)
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}
