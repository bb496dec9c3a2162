package compact

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// FuzzReplay feeds arbitrary files through replay, resume and the
// pipeline: no panic; resume (now and at every step) never shows a
// message from before its boundary unless it was preserved; each step's
// state ends at the step's record; the timeline lists every boundary
// record; no pipeline stage (nor a manual compaction) grows the context,
// leaves a tool_result without its tool_use that had one, and every
// record it writes parses as the kind it claims.
func FuzzReplay(f *testing.F) {
	f.Add([]byte(enginetest.Line("user", "u1", "", `,"message":{"content":"x"}`) + enginetest.Boundary("b", "u1", enginetest.Segment("u1", "s", "u1")) +
		enginetest.Line("user", "s", "b", `,"isCompactSummary":true,"message":{"content":"sum"}`) + enginetest.LastPrompt("s")))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := model.ReadTranscriptWith(fstest.MapFS{"t.jsonl": {Data: data}}, "t.jsonl", model.ScanOptions{Content: true, KeepText: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int64{int64(len(data)), timeline.LargeTranscriptBytes + 1} {
			tl := timeline.Build(tr, smallWindow, size)
			enginetest.AssertAfterBoundary(t, tl.Resume.FromBoundary, tl.Resume.Fallback, tl.Resume.Messages, tl.Resume.Preserved)
			if n := tr.Summary.CompactBoundaries + tr.Summary.MicrocompactBoundaries; len(tl.Boundaries) != n {
				t.Fatalf("%d boundaries in the timeline, %d records", len(tl.Boundaries), n)
			}
			for k, s := range tl.Steps {
				st := tl.State(k)
				enginetest.AssertAfterBoundary(t, st.FromBoundary, st.Fallback, st.Messages, st.Preserved)
				// A boundary without a uuid has no record to end at; its
				// state is the client's own choice as of its line.
				if s.Leaf != "" && st.Leaf != s.Leaf {
					t.Fatalf("step %d ends at %q, its state at %q", k, s.Leaf, st.Leaf)
				}
			}
			in := InputFromResume(tr, tl.Resume)
			cfg := DefaultConfig(smallWindow)
			cfg.PreserveRecent = 2
			orphans := orphanResults(in.Messages)
			for _, run := range []func(Input, Config, *State, time.Time) (Result, error){Run, RunManual} {
				res, err := run(in, cfg, &State{}, enginetest.Now)
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range res.Stages {
					if s.After > s.Before || s.Freed != s.Before-s.After {
						t.Fatalf("stage %s: %d → %d, freed %d", s.Stage, s.Before, s.After, s.Freed)
					}
				}
				for id := range orphanResults(res.Messages) {
					if !orphans[id] {
						t.Fatalf("%s: the result of %s lost its tool_use", StageNames(res), id)
					}
				}
				if len(res.Records) > 0 {
					for _, r := range scanRecords(t, res.Records) {
						if r.UUID == "" && r.Type != model.RecordLastPrompt {
							t.Fatalf("written record without uuid: %+v", r)
						}
					}
				}
			}
		}
	})
}

// orphanResults is the tool_use ids of results in msgs with no tool_use
// before them.
func orphanResults(msgs []Msg) map[string]bool {
	used, out := map[string]bool{}, map[string]bool{}
	for _, m := range msgs {
		for _, b := range m.Blocks {
			switch {
			case b.Type == model.BlockToolUse:
				used[b.ToolUseID] = true
			case b.Type == model.BlockToolResult && !used[b.ToolUseID]:
				out[b.ToolUseID] = true
			}
		}
	}
	return out
}
