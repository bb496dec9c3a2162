package model

import (
	"bytes"
	"os"
	"testing"
)

// TestDerivedTranscripts checks that testdata/derived/transcript-rewind-partial.jsonl
// is the real transcript with only the two rewind-menu fields added (see
// testdata/derived/README.md), and that the reader decodes them.
func TestDerivedTranscripts(t *testing.T) {
	real, err := os.ReadFile("testdata/transcripts/transcript-partial-compactions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	derived, err := os.ReadFile("testdata/derived/transcript-rewind-partial.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	added := map[int][]byte{
		69: []byte(`, "messagesSummarized": 7`),
		70: []byte(`"summarizeMetadata": {"messagesSummarized": 7, "direction": "up_to"}, `),
	}
	rl, dl := bytes.Split(real, []byte("\n")), bytes.Split(derived, []byte("\n"))
	if len(rl) != len(dl) {
		t.Fatalf("%d lines, the real transcript has %d", len(dl), len(rl))
	}
	for i := range rl {
		d := dl[i]
		if add, ok := added[i+1]; ok {
			if bytes.Count(d, add) != 1 {
				t.Fatalf("line %d lacks %s", i+1, add)
			}
			d = bytes.Replace(d, add, nil, 1)
		}
		if !bytes.Equal(d, rl[i]) {
			t.Errorf("line %d differs from the real transcript beyond the stated edit", i+1)
		}
	}

	tr, err := ReadTranscript(os.DirFS("testdata/derived"), "transcript-rewind-partial.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Summary.Problems) != 0 {
		t.Errorf("problems %v", tr.Summary.Problems)
	}
	b := tr.Get("fbefccd4-8fb3-4f3e-b7b7-259b07c9b4e7")
	if b == nil || b.Compact == nil || b.Compact.MessagesSummarized == nil || *b.Compact.MessagesSummarized != 7 {
		t.Fatalf("boundary %+v", b)
	}
	s := tr.Get("492e157f-48d0-4a71-a4a3-53b4f419378f")
	if s == nil || s.Summarize == nil || s.Summarize.Direction != SummarizeUpTo || *s.Summarize.MessagesSummarized != 7 {
		t.Fatalf("summary row %+v", s)
	}
	// The real file's first boundary has neither.
	if first := tr.Get("682ad44a-41e9-47ee-91c7-d2c90d81c5dc"); first.Compact.MessagesSummarized != nil {
		t.Errorf("first boundary has messagesSummarized %d", *first.Compact.MessagesSummarized)
	}
}

// A summarizeMetadata of the wrong shape is a field problem; the record
// stays and its Summarize is nil.
func TestSummarizeMetadataBadShape(t *testing.T) {
	line := `{"type":"user","uuid":"u","parentUuid":"b","isCompactSummary":true,"summarizeMetadata":{"direction":3},"message":{"role":"user","content":"s"}}` + "\n"
	var got *Record
	sum, err := ScanTranscript(bytes.NewReader([]byte(line)), "x.jsonl", ScanOptions{}, func(r *Record) error { got = r; return nil })
	if err != nil || got == nil {
		t.Fatal(err)
	}
	if got.Summarize != nil || len(sum.Problems) != 1 || sum.Problems[0].Kind != ProblemBadField {
		t.Errorf("summarize %+v problems %v", got.Summarize, sum.Problems)
	}
}
