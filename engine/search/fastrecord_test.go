package search

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/genhome"
)

// oddLines are records of shapes the client does not write, which
// encoding/json reads its own way.
var oddLines = []string{
	`{"type":"user","message":{"role":"user","content":{"text":"an object"}}}`,
	`{"type":"user","message":"a string"}`,
	`{"type":"user","message":null,"content":"x"}`,
	`{"Type":"user","message":{"role":"user","content":"key in another case"}}`,
	`{"type":"user","message":{"Content":"key in another case"}}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"text","text":5}]}}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"a"},7]}}`,
	`{"type":"user","message":{"role":"user","content":[null,{"type":"text","TEXT":"b"}]}}`,
	`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","name":"Bash","input":{"b":"2","a":["x",{"c":"3"}],"b":"last"}}]}}`,
	`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":[{"type":"text","text":"p"},{"type":"image"},{"type":"text","name":3}]}]}}`,
	`{"type":"user","isCompactSummary":"yes","message":{"role":"user","content":"x"}}`,
	`{"type":"summary","summary":7}`,
	`{"type":"summary","summary":"s\u00e9\ud800"}`,
	`{"type":"system","content":["not","a string"]}`,
	`{"type":"user","earlierMessages":[{"kind":"prompt","text":"t"},{"kind":1}],"message":{"role":"user","content":"c"}}`,
	`{"type":"user","message":{"role":"user","content":"tail"}} trailing`,
	"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"bad utf8 \xff here\"}}",
	`{"type":"assistant","type":"user","message":{"role":"user","content":"repeated type"}}`,
	`{"type":"system","subtype":"compact_boundary","content":"boundary"}`,
	// Keys longer than the names they fold to (the long s, the Kelvin
	// sign): encoding/json reads them as those names.
	"{\"type\":\"summary\",\"\u017fummary\":\"long s key\"}",
	"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thin\u212aing\":\"kelvin key\"}]}}",
}

// TestFastRecordIsEncodingJSON: on every line of a generated home and on
// lines of odd shapes, the fast reader gives encoding/json's fields (it
// keeps every string when nothing filters), or hands the line to
// encoding/json.
func TestFastRecordIsEncodingJSON(t *testing.T) {
	t.Parallel()
	lines := generatedLines(t, "5")
	var r fastReader
	fast, fell := 0, 0
	for _, line := range lines {
		var want record
		var wantFields []field
		if json.Unmarshal([]byte(line), &want) == nil && searchedTypes[want.Type] && !strings.HasSuffix(want.Subtype, "_boundary") {
			for _, f := range want.fields() {
				if f.text != "" {
					wantFields = append(wantFields, f)
				}
			}
		}
		var got record
		fields, ok, fallback := r.read([]byte(line), &got)
		if fallback {
			fell++
			continue
		}
		fast++
		var gotFields []field
		for _, f := range fields {
			if ok && f.text != "" {
				gotFields = append(gotFields, f)
			}
		}
		if !reflect.DeepEqual(gotFields, wantFields) {
			t.Errorf("%.200s:\n got %q\nwant %q", line, gotFields, wantFields)
		}
		if len(wantFields) > 0 && (got.UUID != want.UUID || got.role() != want.role() || got.Timestamp != want.Timestamp) {
			t.Errorf("%.200s: got %s %s %s, want %s %s %s", line, got.UUID, got.role(), got.Timestamp, want.UUID, want.role(), want.Timestamp)
		}
	}
	if fast < 200 || fell == 0 {
		t.Fatalf("%d lines read fast, %d by encoding/json: the test does not exercise both", fast, fell)
	}
}

// TestWalkNeverHidesARead: on every line of a generated home, the odd
// shapes above and those lines cut short or with a byte changed (not
// JSON: the walk's slicing may fail on them), with the strings kept by
// queries of a class run and of a literal, fastReader.mayHold is true
// wherever read keeps a field or leaves the line to encoding/json; and
// it rules out lines (else the test proves nothing).
func TestWalkNeverHidesARead(t *testing.T) {
	t.Parallel()
	lines := generatedLines(t, "7")
	rng := rand.New(rand.NewPCG(28, 5))
	n := len(lines)
	for i := range n {
		l := lines[i]
		cut := rng.IntN(len(l) + 1)
		b := []byte(l)
		b[rng.IntN(len(b))] = `"{}[],:\ a0`[rng.IntN(11)]
		lines = append(lines, l[:cut], l[:cut]+"}", string(b))
	}
	for _, query := range []string{`[0-9]{3}`, `the`, `"`} {
		q, err := Compile(query, QueryOptions{Regex: true})
		if err != nil {
			t.Fatal(err)
		}
		var keepBuf []byte
		r := fastReader{keep: func(raw []byte) bool { return q.pre.holds(raw, &keepBuf) }}
		held, out := 0, 0
		for _, line := range lines {
			var rec record
			fields, ok, fallback := r.read([]byte(line), &rec)
			reads := fallback || ok && len(fields) > 0
			may := r.mayHold([]byte(line))
			if reads && !may {
				t.Fatalf("%q: the walk rules out %.300s, which read keeps (fallback %v, %d fields)", query, line, fallback, len(fields))
			}
			if may {
				held++
			} else {
				out++
			}
		}
		if held == 0 || out == 0 {
			t.Errorf("%q: the walk let %d lines through, ruled out %d: the test proves nothing", query, held, out)
		}
	}
}

// generatedLines is every transcript line of a 1M home generated with
// seed, after oddLines and plantedLines.
func generatedLines(t *testing.T, seed string) []string {
	t.Helper()
	dir := t.TempDir()
	if err := genhome.Run(dir, "1M", seed); err != nil {
		t.Fatal(err)
	}
	lines := append([]string{}, oddLines...)
	lines = append(lines, plantedLines...)
	err := filepath.WalkDir(filepath.Join(dir, "projects"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		data, err := os.ReadFile(p)
		for _, l := range strings.Split(string(data), "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}
