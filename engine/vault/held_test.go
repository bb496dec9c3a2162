package vault

import (
	"testing"
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
		t.Fatalf("%d records held as lines, %d new files", held, rep.New)
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
