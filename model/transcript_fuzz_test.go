package model

import (
	"bytes"
	"testing"
	"testing/fstest"
)

// FuzzTranscriptScan feeds arbitrary files to the transcript reader and
// checks its accounting: every non-blank line is a record or a line
// problem, every problem has a place and a reason, the type counts add up,
// boundary counts match the records, and walking the chain from every
// record ends.
func FuzzTranscriptScan(f *testing.F) {
	f.Add([]byte(`{"type":"user","uuid":"a","parentUuid":null}` + "\n" + `{"type":"assistant","uuid":"b","parentUuid":"a"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var recs []*Record
		s, err := ScanTranscript(bytes.NewReader(data), "f.jsonl", ScanOptions{Content: true, KeepText: true}, func(r *Record) error {
			recs = append(recs, r)
			return nil
		})
		if err != nil {
			t.Fatalf("read from memory failed: %v", err)
		}
		lineProblems, incomplete := 0, 0
		for _, p := range s.Problems {
			if p.File != "f.jsonl" || p.Line < 1 || p.Reason == "" {
				t.Fatalf("problem without place or reason: %+v", p)
			}
			switch p.Kind {
			case ProblemMalformed:
				lineProblems++
			case ProblemIncompleteTail:
				lineProblems++
				incomplete++
			case ProblemEncoding, ProblemBadField:
			default:
				t.Fatalf("unexpected problem kind %q", p.Kind)
			}
		}
		if incomplete > 1 {
			t.Fatalf("%d incomplete tails", incomplete)
		}
		if s.Records != len(recs) || s.Records+lineProblems != s.Lines {
			t.Fatalf("records %d (+%d problems) != %d non-blank lines", s.Records, lineProblems, s.Lines)
		}
		if s.Bytes != int64(len(data)) {
			t.Fatalf("bytes %d, input %d", s.Bytes, len(data))
		}
		sum, boundaries := 0, 0
		for _, n := range s.Types {
			sum += n
		}
		for _, r := range recs {
			if r.Type == "" || r.Line < 1 || r.Size > len(data) {
				t.Fatalf("bad record %+v", r)
			}
			if r.IsCompactBoundary() {
				boundaries++
			}
		}
		if sum != s.Records || boundaries != s.CompactBoundaries {
			t.Fatalf("types sum %d boundaries %d vs %+v", sum, boundaries, s)
		}
		tr, err := ReadTranscript(fstest.MapFS{"f.jsonl": {Data: data}}, "f.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range tr.Records {
			if r.UUID == "" {
				continue
			}
			chain, _ := tr.Chain(r.UUID)
			if len(chain) == 0 || chain[len(chain)-1] != tr.Get(r.UUID) || len(chain) > len(tr.Records) {
				t.Fatalf("chain from %q: %d records", r.UUID, len(chain))
			}
		}
		for _, b := range tr.Branches() {
			if len(b.Children) < 2 {
				t.Fatalf("branch with %d children", len(b.Children))
			}
		}
		for _, sc := range tr.Sidechains() {
			if sc.Records < 1 || !sc.Root.IsSidechain {
				t.Fatalf("sidechain %+v", sc)
			}
		}
	})
}
