package sessions

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

// fastSummary is the sessions scanner's summary of in.
func fastSummary(t testing.TB, in []byte) FileScan {
	t.Helper()
	w := newScanWorker(true)
	s, err := w.scan(bytes.NewReader(in), "t.jsonl")
	if err != nil {
		t.Fatalf("scan: %v", err)
	}
	return s
}

// sameSummary fails unless got equals what model.ScanTranscript says.
func sameSummary(t testing.TB, in []byte, got model.TranscriptSummary) {
	t.Helper()
	want, err := model.ScanTranscript(bytes.NewReader(in), "t.jsonl", model.ScanOptions{}, nil)
	if err != nil {
		t.Fatalf("model: %v", err)
	}
	if !got.First.Equal(want.First) || !got.Last.Equal(want.Last) {
		t.Fatalf("first/last = %v/%v, model %v/%v (input %.200q)", got.First, got.Last, want.First, want.Last, in)
	}
	got.First, got.Last = want.First, want.Last
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("summary differs from the model's\n got %+v\nwant %+v\ninput %.300q", got, want, in)
	}
}

func TestSummaryMatchesModelOnRealTranscripts(t *testing.T) {
	files := enginetest.RealTranscripts(t)
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			got := fastSummary(t, data).Sum
			if got.Records == 0 || got.Usage.OutputTokens == 0 {
				t.Fatalf("read nothing: %+v", got)
			}
			sameSummary(t, data, got)
		})
	}
}

func TestSummaryMatchesModelOnTestdataHomes(t *testing.T) {
	demoHome, err := demo.Materialize(t.TempDir(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, root := range []string{"../../testdata", "testdata", demoHome.Home} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || strings.Contains(p, "history") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			n++
			sameSummary(t, data, fastSummary(t, data).Sum)
			return nil
		})
	}
	if n < 10 {
		t.Errorf("compared %d transcripts; the demo and testdata homes have more", n)
	}
}

// Lines that take each way through the scanner, with what the summary
// must say.
func TestSummaryEdgeCases(t *testing.T) {
	const ts = `"timestamp":"2026-11-11T05:00:57.454Z"`
	asst := func(id, req, usage string) string {
		return `{"type":"assistant","message":{"id":"` + id + `","usage":` + usage + `},"requestId":"` + req + `",` + ts + `}`
	}
	big := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", 10<<20) + `"},` + ts + "}\n"
	for _, tc := range []struct {
		name                   string
		in                     string
		records, lines, blank  int
		problems               []model.ProblemKind
		input, output, replies int64
		compact                int
	}{
		{name: "empty file"},
		{name: "blank lines", in: "\n  \r\n\t\n", blank: 3},
		{name: "bom and crlf", in: "\xef\xbb\xbf{\"type\":\"user\"}\r\n{\"type\":\"user\"}\r\n", records: 2, lines: 2},
		{name: "incomplete tail", in: "{\"type\":\"user\"}\n{\"type\":\"us", records: 1, lines: 2, problems: []model.ProblemKind{model.ProblemIncompleteTail}},
		{name: "complete unterminated tail", in: `{"type":"user"}`, records: 1, lines: 1},
		{name: "corrupt middle line", in: "{\"type\":\"user\"}\n{oops\n{\"type\":\"user\"}\n", records: 2, lines: 3, problems: []model.ProblemKind{model.ProblemMalformed}},
		{name: "no type", in: "{\"a\":1}\n[1]\n{\"type\":\"\"}\n{\"type\":null}\n", lines: 4,
			problems: []model.ProblemKind{model.ProblemMalformed, model.ProblemMalformed, model.ProblemMalformed, model.ProblemMalformed}},
		{name: "invalid utf8 kept", in: "{\"type\":\"user\",\"x\":\"\xff\"}\n", records: 1, lines: 1, problems: []model.ProblemKind{model.ProblemEncoding}},
		{name: "valid utf8", in: "{\"type\":\"user\",\"x\":\"é — 日本\"}\n", records: 1, lines: 1},
		{name: "bad timestamp", in: `{"type":"user","timestamp":"yesterday"}` + "\n", records: 1, lines: 1, problems: []model.ProblemKind{model.ProblemBadField}},
		{name: "usage counted once per id pair", in: asst("m1", "r1", `{"input_tokens":10,"output_tokens":2}`) + "\n" +
			asst("m1", "r1", `{"input_tokens":10,"output_tokens":5}`) + "\n" + asst("m2", "r1", `{"input_tokens":1,"output_tokens":1}`) + "\n",
			records: 3, lines: 3, input: 11, output: 3, replies: 2},
		{name: "usage without ids always counts", in: asst("", "", `{"input_tokens":1}`) + "\n" + asst("", "", `{"input_tokens":1}`) + "\n",
			records: 2, lines: 2, input: 2, replies: 2},
		{name: "odd usage key goes to the model", in: asst("m", "r", `{"Input_Tokens":7,"output_tokens":1}`) + "\n", records: 1, lines: 1, input: 7, output: 1, replies: 1},
		{name: "null usage count goes to the model", in: asst("m", "r", `{"input_tokens":7,"input_tokens":null}`) + "\n", records: 1, lines: 1, input: 7, replies: 1},
		{name: "fractional usage is a problem", in: asst("m", "r", `{"input_tokens":1.5}`) + "\n", records: 1, lines: 1, replies: 1,
			problems: []model.ProblemKind{model.ProblemBadField}},
		{name: "user usage is not counted", in: `{"type":"user","message":{"usage":{"input_tokens":3}}}` + "\n", records: 1, lines: 1},
		{name: "bad user usage is a problem", in: `{"type":"user","message":{"usage":{"input_tokens":"x"}}}` + "\n", records: 1, lines: 1,
			problems: []model.ProblemKind{model.ProblemBadField}},
		{name: "repeated user usage goes to the model", in: `{"type":"user","message":{"usage":{"input_tokens":1.5},"usage":{}}}` + "\n", records: 1, lines: 1,
			problems: []model.ProblemKind{model.ProblemBadField}},
		{name: "message not an object", in: `{"type":"user","message":"x"}` + "\n", records: 1, lines: 1, problems: []model.ProblemKind{model.ProblemBadField}},
		{name: "compact boundary", in: `{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":5}}` + "\n" +
			`{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":1}}` + "\n", records: 2, lines: 2, compact: 2,
			problems: []model.ProblemKind{model.ProblemBadField}},
		{name: "10 MiB line", in: big + big, records: 2, lines: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fastSummary(t, []byte(tc.in)).Sum
			sameSummary(t, []byte(tc.in), got)
			var kinds []model.ProblemKind
			for _, p := range got.Problems {
				kinds = append(kinds, p.Kind)
				if p.Line < 1 || p.File != "t.jsonl" || p.Reason == "" {
					t.Errorf("problem without a place or reason: %+v", p)
				}
			}
			if got.Records != tc.records || got.Lines != tc.lines || got.BlankLines != tc.blank || !reflect.DeepEqual(kinds, tc.problems) ||
				got.Usage.InputTokens != tc.input || got.Usage.OutputTokens != tc.output || int64(got.Responses) != tc.replies ||
				got.CompactBoundaries != tc.compact {
				t.Errorf("got records %d lines %d blank %d problems %v usage %+v responses %d compact %d", got.Records, got.Lines, got.BlankLines,
					kinds, got.Usage, got.Responses, got.CompactBoundaries)
			}
		})
	}
}

// FuzzSessionsSummary holds the fast summary to model.ScanTranscript's on
// any input: same counts, usage, times and problems.
func FuzzSessionsSummary(f *testing.F) {
	// Pairs of the shorter real lines: big seeds make the fuzzer spend its
	// time minimizing rather than exploring.
	for _, data := range enginetest.RealTranscripts(f) {
		var short [][]byte
		for _, l := range bytes.SplitAfter(data, []byte("\n")) {
			if len(l) < 3000 {
				short = append(short, l)
			}
		}
		for i := 0; i+1 < len(short); i += 5 {
			f.Add(append(append([]byte{}, short[i]...), short[i+1]...))
		}
	}
	// 2.1.331's earlierMessages, good and of the wrong shape.
	f.Add([]byte(`{"type":"user","isCompactSummary":true,"earlierMessages":[{"kind":"user","text":"x"}],"message":{"content":"s"}}` + "\n" +
		`{"type":"user","earlierMessages":{"kind":1},"message":{"content":"s"}}` + "\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		sameSummary(t, in, fastSummary(t, in).Sum)
		// stat's summary, whose walk skips what only ccusage reads.
		w := newScanWorker(false)
		s, err := w.scan(bytes.NewReader(in), "t.jsonl")
		if err != nil {
			t.Fatalf("scan: %v", err)
		}
		sameSummary(t, in, s.Sum)
	})
}

// One worker reads many files with one line reader: each file starts
// over (line numbers, BOM, the per-file dedup) whatever the last one
// left behind.
func TestScanWorkerStartsEachFileOver(t *testing.T) {
	w := newScanWorker(true)
	long := `{"type":"user","x":"` + strings.Repeat("y", 1<<20) + `"}` + "\n"
	asst := `{"type":"assistant","requestId":"r","message":{"id":"m","usage":{"input_tokens":4,"output_tokens":1}},"timestamp":"2026-11-11T05:00:57Z"}` + "\n"
	inputs := []string{
		long + asst + `{"type":"us`,
		"\xef\xbb\xbf" + asst + "{bad\n",
	}
	for i, in := range inputs {
		got, err := w.scan(strings.NewReader(in), "t.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		sameSummary(t, []byte(in), got.Sum)
		if got.Sum.Usage.InputTokens != 4 || got.usage.n != 1 || got.Sum.Records != 2-i {
			t.Errorf("file %d: %+v, ccusage lines %d", i, got.Sum, got.usage.n)
		}
		if last := got.Sum.Problems[len(got.Sum.Problems)-1]; last.Line != 3-i {
			t.Errorf("file %d: problem on line %d, want %d", i, last.Line, 3-i)
		}
	}
}
