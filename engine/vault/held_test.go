package vault

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// A first sync holds of each file it synced only the record's head and
// its state line, not the record (its versions and chunk lists): before,
// every file's record stayed in the state until the sync's end, beside
// its line (docs/VAULT.md, "i31r"). A record asked for again is decoded
// from the line, as the state file has it.
func TestSyncHoldsHeadsAndLines(t *testing.T) {
	home := cutHome(t)
	v := openVault(t, nil)
	lines := map[string][]byte{}
	held := 0
	stateHeldHook = func(st *state) {
		for p, e := range st.entries {
			if e.rec != nil || e.raw == nil {
				t.Errorf("%s: the sync holds its record (%v), not its line", p, e.rec != nil)
				continue
			}
			held++
			var enc recordEncoder
			b, err := enc.appendRecord(nil, st.get(p))
			if err != nil {
				t.Fatal(err)
			}
			lines[p] = b
		}
	}
	t.Cleanup(func() { stateHeldHook = nil })
	rep := syncHome(t, v, home, t0)
	if held == 0 || held != rep.New {
		t.Fatalf("%d records held as lines, %d new files", held, rep.New)
	}
	states, err := filepath.Glob(filepath.Join(v.Dir, "state", "*.jsonl"))
	if err != nil || len(states) != 1 {
		t.Fatalf("state files %v, %v", states, err)
	}
	data, err := os.ReadFile(states[0])
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for l := range bytes.Lines(data) {
		p := readStatePart(l, "x")
		if len(p.entries) != 1 {
			t.Fatalf("line %q", l)
		}
		path := p.entries[0].head.Path
		if !bytes.Equal(lines[path], l) {
			t.Errorf("%s: the held line decodes to\n%s\nthe state file has\n%s", path, lines[path], l)
		}
		n++
	}
	if n != held {
		t.Errorf("%d lines in the state file, %d held", n, held)
	}
}
