package vault

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A state line is what json.Marshal made of the record's head and of the
// record (HTML escaped too), and encoding one allocates less than the
// line's bytes once the encoder is warm: before, Marshal's buffers and
// copies allocated twice the line for every record, tens of MB through
// a first sync.
func TestRecordEncoderLinesAndAllocations(t *testing.T) {
	home := testHome(t, 64)
	write(t, home, "projects/"+proj+"/<a&b>.jsonl", transcript(sidA, 0, 50, 64), t0)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	st, err := v.loadState()
	if err != nil {
		t.Fatal(err)
	}
	var e recordEncoder
	var big *Record
	bigLen := 0
	for p := range st.entries {
		r := st.get(p)
		head, _ := json.Marshal(headOf(r))
		full, _ := json.Marshal(r)
		want := string(head) + "\t" + string(full) + "\n"
		got, err := e.appendRecord([]byte("x"), r)
		if err != nil || string(got) != "x"+want {
			t.Fatalf("%s: line\n%q, want\n%q (%v)", p, got, want, err)
		}
		if len(full) > bigLen {
			big, bigLen = r, len(full)
		}
	}
	line, _ := e.appendRecord(nil, big)
	b := make([]byte, 0, 2*len(line))
	const runs = 50
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		if b, err = e.appendRecord(b[:0], big); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / runs
	if per >= uint64(len(line)) && !raceBuild {
		t.Errorf("%d bytes allocated to encode a line of %d (want under the line's)", per, len(line))
	} else {
		t.Logf("%d bytes allocated to encode a line of %d", per, len(line))
	}
}

// A state written from parts (a first sync's lines, as its workers
// encoded them, through its state stream) holds their bytes one after
// another, and writing it allocates a small part of them: the parts are
// not joined first into one buffer of the whole state (which the old
// sync allocated, faulted in and copied on one core at its end).
func TestStateWrittenFromItsParts(t *testing.T) {
	v := openVault(t, nil)
	if err := v.ensure(); err != nil {
		t.Fatal(err)
	}
	st, err := v.loadState()
	if err != nil {
		t.Fatal(err)
	}
	parts := make([][]byte, 256)
	var want []byte
	for i := range parts {
		parts[i] = []byte(strings.Repeat(string(rune('a'+i%26)), 16<<10-1) + "\n")
		want = append(want, parts[i]...)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ss := v.newStateStream(st, t0)
	for _, b := range parts {
		ss.write(b)
	}
	if err := ss.finish(nil, nil); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(want))/4 && !raceBuild {
		t.Errorf("%d bytes allocated to write a state of %d (want under a quarter)", alloc, len(want))
	}
	got, err := os.ReadFile(filepath.Join(v.Dir, stateDir, st.files[len(st.files)-1]))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("the state file holds %d bytes, want the %d of its parts (%v)", len(got), len(want), err)
	}
}
