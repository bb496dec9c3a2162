package extract

import (
	"context"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// FuzzPromptsFromTranscript reads any bytes as a transcript and checks
// that every user record is read or skipped for a reason, that what is
// read is a main-chain prompt with text, and that extraction and the
// flush only ever cite prompts that were read.
// The seeds are small sessions in testdata/fuzz; the real transcripts
// are checked by TestPromptsFromRealTranscripts. Run it with
// -fuzzminimizetime=200x: minimizing a kilobyte-long session under the
// default 60s budget takes the whole run.
func FuzzPromptsFromTranscript(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := model.ReadTranscriptWith(fstest.MapFS{"f.jsonl": {Data: data}}, "f.jsonl", enginetest.WithText)
		if err != nil {
			t.Fatal(err)
		}
		p := PromptsFromTranscript(tr, nil)
		users := 0
		for _, r := range tr.Records {
			if r.Type == model.RecordUser && r.Message != nil {
				users++
			}
		}
		total := len(p.Inputs)
		for reason, n := range p.Skipped {
			if reason == "" || n <= 0 {
				t.Fatalf("skipped %v", p.Skipped)
			}
			total += n
		}
		if total != users {
			t.Fatalf("%d read + skipped %v != %d user records", len(p.Inputs), p.Skipped, users)
		}
		read := map[string]bool{}
		for _, in := range p.Inputs {
			r := tr.Get(in.UUID)
			if r == nil || r.Type != model.RecordUser || promptSkip(r) != "" || in.Text == "" {
				t.Fatalf("input %+v from record %+v", in, r)
			}
			if read[in.UUID] {
				t.Fatalf("uuid %s read twice", in.UUID)
			}
			if !in.Timestamp.IsZero() && in.Timestamp.Location() != time.UTC {
				t.Fatalf("timestamp %v not in the asked zone", in.Timestamp)
			}
			read[in.UUID] = true
		}
		res, err := RuleExtractor{}.Extract(context.Background(), p.Inputs, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Candidates {
			checkCandidate(t, c)
			if !read[c.Provenance.MessageUUID] || c.Type.MemoryType() == model.TypeUntyped {
				t.Fatalf("candidate %+v cites a prompt that was not read", c)
			}
		}
		// The flush reads the resume chain: a subset of what was read.
		in := compact.InputFromResume(tr, timeline.ResumeTranscript(tr, timeline.ResumeOptions{}))
		hook := NewFlushExtractor(FlushConfig{Transcript: tr})
		if err := hook.BeforeCompact(in.Messages); err != nil {
			t.Fatal(err)
		}
		run := hook.Runs()[0]
		if want := len(in.Messages); run.Handed != want || run.Expanded != want || run.New > want || (run.To != 0 && run.To != run.New) || (run.New >= MinNewMessages) != (run.To == run.New && run.New > 0) {
			t.Fatalf("run %+v over %d messages", run, want)
		}
		for _, c := range hook.Result().Candidates {
			checkCandidate(t, c)
			if !read[c.Provenance.MessageUUID] {
				t.Fatalf("flush candidate %+v cites a prompt that was not read", c)
			}
		}
	})
}
