package vault

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// The hand-read head is the head encoding/json reads, for the form the
// vault writes and for every other form (escapes, another field order,
// extra fields, bad input), which goes to encoding/json.
func TestDecodeHeadMatchesJSON(t *testing.T) {
	gone := time.Date(2026, 11, 20, 9, 30, 1, 123456789, time.FixedZone("x", 3600))
	heads := []recordHead{
		{Path: "projects/p/" + sidA + ".jsonl", Kind: KindTranscript, Session: sidA,
			Follow: &follow{ID: model.FileID{Dev: 65024, Ino: 5801467, Known: true}, Size: 1846, ModTime: 1795937826985067881, Closed: 595, ClosedChunks: 1, HashState: []byte("sha\x03 state\x00\xff")}},
		{Path: "history.jsonl", Kind: KindHistory, Follow: &follow{ModTime: -5}},
		{Path: "paste-cache/ab.txt", Kind: KindPaste, Gone: gone},
		{Path: "projects/p/memory/a&b <c>.md", Kind: KindMemory},    // escaped by json.Marshal
		{Path: "projects/p/memory/\"q\" \\ é.md", Kind: KindMemory}, // escapes, and UTF-8
		{Path: "x", Kind: KindSessionFile, Session: "s", Gone: gone, Follow: &follow{ID: model.FileID{Dev: 1<<64 - 1}}},
	}
	for _, want := range heads {
		b, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		var fast, slow recordHead
		errFast, errSlow := decodeHead(b, &fast), json.Unmarshal(b, &slow)
		if errFast != nil || errSlow != nil || !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s:\n hand %+v (%v)\n json %+v (%v)", b, fast, errFast, slow, errSlow)
		}
		s := headScan{b: b}
		if h := (recordHead{}); s.parse(&h) && !reflect.DeepEqual(h, slow) {
			t.Errorf("%s: the hand reader accepted it as %+v, json reads %+v", b, h, slow)
		}
		// From an arena (as a state file is read), the same head.
		var inArena recordHead
		if err := decodeHeadIn(b, &inArena, &headArena{}); err != nil || !reflect.DeepEqual(inArena, slow) {
			t.Errorf("%s: from an arena %+v (%v), json reads %+v", b, inArena, err, slow)
		}
	}
	for _, in := range []string{
		`{"kind":"paste","path":"a"}`,                     // another order
		`{"path":"a","kind":"paste","project":"p"}`,       // a field more
		`{"path":"a","kind":"paste"} `,                    // trailing space
		`{"path":"a","kind":"paste","session":"s\u0041"}`, // an escape
	} {
		var fast, slow recordHead
		errFast, errSlow := decodeHead([]byte(in), &fast), json.Unmarshal([]byte(in), &slow)
		if (errFast == nil) != (errSlow == nil) || !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s: hand %+v (%v), json %+v (%v)", in, fast, errFast, slow, errSlow)
		}
	}
	for _, in := range []string{`{"path":"a","kind":`, `{"path":"a\x01","kind":"k"}`, `{"path":"\xff","kind":"k"}`, `nope`} {
		var fast, slow recordHead
		errFast, errSlow := decodeHead([]byte(in), &fast), json.Unmarshal([]byte(in), &slow)
		if (errFast == nil) != (errSlow == nil) || !reflect.DeepEqual(fast, slow) {
			t.Errorf("%q: hand %+v (%v), json %+v (%v)", in, fast, errFast, slow, errSlow)
		}
	}
}

// BenchmarkDecodeHead: a transcript's head, by hand and by encoding/json.
func BenchmarkDecodeHead(b *testing.B) {
	data, _ := json.Marshal(recordHead{Path: "projects/p/" + sidA + ".jsonl", Kind: KindTranscript, Session: sidA,
		Follow: &follow{ID: model.FileID{Dev: 65024, Ino: 5801467, Known: true}, Size: 1846, ModTime: 1795937826985067881, Closed: 595, ClosedChunks: 1, HashState: make([]byte, 108)}})
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			var h recordHead
			if err := decodeHead(data, &h); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			var h recordHead
			if err := json.Unmarshal(data, &h); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// The index lines the vault writes are read in place with the values
// strings.Fields and ParseInt give; any other form, and every error,
// is parseIndexLine's.
func TestParseIndexBytesEqualsParseIndexLine(t *testing.T) {
	h := strings.Repeat("ab", 32)
	for _, s := range []string{
		h + " 22 100 300", h + " 0 0 0", h + "  22 100 300", h + " 22 100 300 ", h + " 22 100", h + " 22 100 300 4",
		h + " 22 100 9999999", h + " 22 -1 300", h + " 999999999999999999999 1 1", strings.Repeat("zz", 32) + " 1 2 3",
		h[:60] + " 1 2 3", h + "\t1 2 3", h + " 1 2 3x", "", h,
		// A chunk in a frame (format 3): its frame may be longer than a
		// chunk, its place in the frame is bounded.
		h + " 22 3000000 300 4", h + " 22 20000000 300 4", h + " 22 100 300 9999999", h + " 22 100 300 4 5",
		h + " 22 100 300 4 ", h + " 22 100 3000000 4",
	} {
		k1, l1, e1 := parseIndexBytes([]byte(s))
		k2, l2, e2 := parseIndexLine(s)
		if k1 != k2 || l1 != l2 || (e1 == nil) != (e2 == nil) || e1 != nil && e1.Error() != e2.Error() {
			t.Errorf("%q: in place %v %+v %v, parseIndexLine %v %+v %v", s, k1, l1, e1, k2, l2, e2)
		}
	}
}

// A state file large enough to be read in parts (one a CPU) gives the
// records and the problems a line-by-line reading gives: every record
// by its path, later lines over earlier ones, and a malformed line
// named by its line number in the file, wherever the parts are cut.
func TestStateReadInPartsAsLineByLine(t *testing.T) {
	v := openVault(t, nil)
	var recs []*Record
	for i := range 6000 {
		recs = append(recs, &Record{Path: fmt.Sprintf("projects/p/%s/tool-results/%05d.txt", sidA, i%5000), Kind: KindSessionFile, Session: sidA,
			Versions: []Version{{Size: int64(i), SHA256: strings.Repeat("ab", 32), Chunks: []Chunk{{H: strings.Repeat("cd", 32), N: int64(i)}}}},
			Follow:   &follow{ID: model.FileID{Dev: 1, Ino: uint64(i), Known: true}, Size: int64(i), HashState: []byte{byte(i), 1, 2}}})
	}
	if err := v.writeRecords("state/0000000001-1.jsonl", recs); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(v.Dir, "state", "0000000001-1.jsonl")
	data, _ := os.ReadFile(name)
	lines := strings.SplitAfter(string(data), "\n")
	bad := []int{2, 3100, 5999} // 1-based; the parts are cut near the middle
	for _, n := range bad {
		lines[n-1] = "not a record\n"
	}
	os.WriteFile(name, []byte(strings.Join(lines, "")), 0o600)
	if stateParts(len(data)) < 2 && runtime.GOMAXPROCS(0) > 1 {
		t.Fatalf("a %d-byte state file is read in one part: the test tests nothing", len(data))
	}
	st, err := v.loadState()
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, p := range st.problems {
		got = append(got, p.Line)
	}
	if !reflect.DeepEqual(got, bad) {
		t.Errorf("problems at lines %v, want %v", got, bad)
	}
	want := map[string]int{} // the last good line of each path
	for i, r := range recs {
		if !slices.Contains(bad, i+1) {
			want[r.Path] = i
		}
	}
	if len(st.entries) != len(want) {
		t.Fatalf("%d records, want %d", len(st.entries), len(want))
	}
	for p, i := range want {
		e := st.entries[p]
		if e == nil || e.line != i+1 || e.head.Follow.ID.Ino != uint64(i) || !bytes.Equal(e.head.Follow.HashState, []byte{byte(i), 1, 2}) {
			t.Fatalf("%s: %+v, want line %d's", p, e, i+1)
		}
	}
}
