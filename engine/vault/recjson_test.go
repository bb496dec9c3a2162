package vault

import (
	"encoding/json"
	"io/fs"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// marshalLine is a state line as encoding/json makes it: the head and the
// record, json.Marshal's bytes.
func marshalLine(r *Record) (string, error) {
	head, err := json.Marshal(headOf(r))
	if err != nil {
		return "", err
	}
	full, err := json.Marshal(r)
	if err != nil {
		return "", err
	}
	return string(head) + "\t" + string(full) + "\n", nil
}

// jsonStrings need every escape json.Marshal makes: quotes, backslashes,
// control bytes (\b and \f included), the HTML characters, U+2028 and
// U+2029, invalid UTF-8, DEL and multi-byte runes left as they are.
var jsonStrings = []string{
	"", "plain", `a"b\c`, "<a&b>", "\x00\x01\b\t\n\f\r\x1f\x7f",
	"line\u2028sep\u2029", "\xff\xfe", "a\xc3", "\xed\xa0\x80", "héllo wörld ✓ 𝄞",
	"projects/-home-u-proj/0f3a.jsonl", "\u2027\u202a",
}

// plainStrings need no escapes.
var plainStrings = []string{
	"", "plain", "projects/-home-u-proj/0f3a.jsonl", "héllo wörld ✓ 𝄞", "session-file",
	"0f3a5e2c-1b7d-4c8e-9a6f-2d4b8c0e1f3a", "5abae2b38bacc1e6b2165cf6661833911585f8fdfecbc8718aa125c6e4d42d2f",
}

// recordShapes are records covering every field's shapes, their strings
// from strs: nil and empty slices, omitted and set optional fields,
// times in odd zones and with nanoseconds.
func recordShapes(jsonStrings []string) []*Record {
	t1 := time.Date(2026, 11, 30, 21, 20, 0, 123456789, time.UTC)
	t2 := time.Date(1999, 1, 2, 3, 4, 5, 0, time.FixedZone("odd", -(9*3600+30*60)))
	t3 := time.Date(2024, 2, 29, 0, 0, 0, 1000, time.FixedZone("plus", 14*3600))
	t4 := time.Unix(1700000000, 5).In(time.Local)
	var out []*Record
	for i, s := range jsonStrings {
		r := &Record{Path: s, Kind: Kind(jsonStrings[(i+1)%len(jsonStrings)]), Session: model.SessionID(jsonStrings[(i+2)%len(jsonStrings)]), Project: jsonStrings[(i+3)%len(jsonStrings)]}
		switch i % 4 {
		case 0:
			r.Versions = nil
		case 1:
			r.Versions = []Version{}
		default:
			r.Versions = []Version{
				{Size: -1, ModTime: t1, Mode: fs.ModeDir | 0o755, SHA256: s, Chunks: nil, Synced: t2},
				{Size: 1 << 62, ModTime: t3, Mode: 0o600, Sum: s, Chunks: []Chunk{}, Synced: t4},
				{ModTime: t4, Chunks: []Chunk{
					{H: s, N: 0},
					{H: "ab", N: -5, Raw: true, IDs: []IDRun{}},
					{H: "cd", N: 7, IDs: []IDRun{{ID: s, N: -1}, {ID: "", N: math.MaxInt}}},
				}},
			}
		}
		if i%3 == 1 {
			r.Gone = []time.Time{t1, t2, t3, t4}[i%4]
		}
		switch i % 5 {
		case 1:
			r.Follow = &follow{}
		case 2:
			r.Follow = &follow{ID: model.FileID{Dev: 1<<64 - 1, Ino: 42, Known: true}, Size: 10, ModTime: -3, Closed: 4, ClosedChunks: 2, HashState: []byte{}}
		case 3:
			r.Follow = &follow{HashState: []byte("\x00\xffstate bytes, some of them")}
		}
		out = append(out, r)
	}
	return out
}

// The hand-written state line is json.Marshal's head and record, byte
// for byte, on every field shape; a record with a time json.Marshal
// refuses fails as it does.
func TestRecordJSONMatchesMarshal(t *testing.T) {
	var e recordEncoder
	for _, r := range append(recordShapes(jsonStrings), recordShapes(plainStrings)...) {
		want, err := marshalLine(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.appendRecord([]byte("x"), r)
		if err != nil || string(got) != "x"+want {
			t.Fatalf("%q: line\n%q, want\n%q (%v)", r.Path, got, want, err)
		}
	}
	for _, bad := range []*Record{
		{Path: "p", Gone: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Path: "p", Versions: []Version{{ModTime: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}}},
		{Path: "p", Versions: []Version{{Synced: time.Date(2020, 1, 1, 0, 0, 0, 0, time.FixedZone("", 24*3600))}}},
	} {
		_, werr := marshalLine(bad)
		got, err := e.appendRecord([]byte("x"), bad)
		if werr == nil || err == nil || string(got) != "x" {
			t.Errorf("%+v: %q, %v; json.Marshal's error %v", bad, got, err, werr)
		}
	}
}

// A warm encoder writes a line into room it is given without allocating
// (encoding/json allocated for each record's times and reflection), and
// a line appended to nil (as a sync's workers do) is one allocation of
// about its length (lineHint), not a slice grown from a few bytes up nor
// a line written elsewhere and copied.
func TestRecordJSONNoAllocations(t *testing.T) {
	if raceBuild {
		t.Skip("allocations are not counted under the race detector")
	}
	var e recordEncoder
	for _, r := range recordShapes(jsonStrings) {
		b := make([]byte, 0, 64<<10)
		if allocs := testing.AllocsPerRun(20, func() {
			if _, err := e.appendRecord(b[:0], r); err != nil {
				t.Fatal(err)
			}
		}); allocs != 0 {
			t.Errorf("%q: %v allocations a line, want 0", r.Path, allocs)
		}
	}
	for _, r := range recordShapes(plainStrings) {
		line, _ := e.appendRecord(nil, r)
		if h := lineHint(r); h < len(line) || h > len(line)+512 {
			t.Errorf("%q: line of %d bytes, lineHint %d", r.Path, len(line), h)
		}
		// A fresh encoder each time: a sync's workers start with one.
		fresh, i := make([]recordEncoder, 21), 0
		if allocs := testing.AllocsPerRun(20, func() {
			e := &fresh[i]
			i++
			if _, err := e.appendRecord(nil, r); err != nil {
				t.Fatal(err)
			}
		}); allocs != 1 {
			t.Errorf("%q: %v allocations a line appended to nil, want 1", r.Path, allocs)
		}
	}
}

func FuzzRecordJSON(f *testing.F) {
	for i, s := range jsonStrings {
		f.Add(s, jsonStrings[(i+1)%len(jsonStrings)], int64(i)<<40, uint8(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, s1, s2 string, n int64, shape uint8, hs []byte) {
		tm := time.Unix(0, n).In(time.FixedZone(s2, int(n%(30*3600))))
		r := &Record{Path: s1, Kind: Kind(s2), Session: model.SessionID(s2), Project: s1}
		if shape&1 != 0 {
			r.Gone = tm
		}
		if shape&2 != 0 {
			r.Follow = &follow{ID: model.FileID{Dev: uint64(n), Known: n%2 == 0}, Size: n, HashState: hs}
		}
		if shape&4 != 0 {
			r.Versions = []Version{{Size: n, ModTime: tm, Mode: fs.FileMode(n), SHA256: s2, Sum: s1, Synced: tm.Add(time.Duration(n))}}
			if shape&8 != 0 {
				r.Versions[0].Chunks = []Chunk{{H: s1, N: n, Raw: shape&16 != 0}, {H: s2, IDs: []IDRun{{ID: s1, N: int(n)}}}}
			}
		}
		want, werr := marshalLine(r)
		var e recordEncoder
		got, err := e.appendRecord(nil, r)
		if (werr == nil) != (err == nil) || (err == nil && string(got) != want) {
			t.Fatalf("line\n%q (%v), want\n%q (%v)", got, err, want, werr)
		}
		if h := lineHint(r); err == nil && !strings.Contains(want, `\`) && h < len(got) {
			t.Fatalf("lineHint %d for a line of %d bytes without escapes: %q", h, len(got), got)
		}
	})
}
