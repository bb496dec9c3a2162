package timeline

import (
	"os"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// The real transcript with the rewind menu's fields (model/testdata/derived):
// the second compaction is a partial "up to here" of 7 messages keeping 1;
// the first stays a plain manual compaction.
func TestBoundaryPartialFromRewindMenu(t *testing.T) {
	tr, err := model.ReadTranscriptWith(os.DirFS("../../model/testdata/derived"), "transcript-rewind-partial.jsonl", model.ScanOptions{Content: true})
	if err != nil {
		t.Fatal(err)
	}
	tl := Build(tr, window.Size200k(), 0)
	if len(tl.Boundaries) != 2 {
		t.Fatalf("%d boundaries", len(tl.Boundaries))
	}
	b1, b2 := tl.Boundaries[0], tl.Boundaries[1]
	if b1.Compaction != CompactionManual || b1.Direction != "" || b1.MessagesSummarized != nil || b1.PreservedMessages != 0 {
		t.Errorf("first boundary %+v", b1)
	}
	if b2.Compaction != CompactionPartial || b2.Direction != model.SummarizeUpTo || b2.MessagesSummarized == nil || *b2.MessagesSummarized != 7 ||
		b2.PreservedMessages != 1 || b2.Preserved == nil || b2.PreservedBroken != "" {
		t.Errorf("second boundary %+v", b2)
	}
	if got := b2.DirectionText(); got != "summarized up to the chosen message; later ones kept" {
		t.Errorf("direction text %q", got)
	}
	// Resume relinks the preserved message exactly as for /compact.
	if tl.Resume.FromBoundary != b2.UUID || len(tl.Resume.Preserved) != 1 {
		t.Errorf("resume from %s, %d preserved", tl.Resume.FromBoundary, len(tl.Resume.Preserved))
	}
}

// The kind of each compaction: auto and manual from the trigger; partial
// from either figure, the summary row's count standing in for a boundary
// without one; "from" in words.
func TestCompactionKind(t *testing.T) {
	summary := func(uuid, parent, meta string) string {
		extra := `,"isCompactSummary":true,"message":{"role":"user","content":"sum"}`
		if meta != "" {
			extra += `,"summarizeMetadata":` + meta
		}
		return enginetest.Line("user", uuid, parent, extra)
	}
	boundary := func(uuid, trigger, extra string) string {
		return enginetest.Line("system", uuid, "", `,"subtype":"compact_boundary","compactMetadata":{"trigger":"`+trigger+`"`+extra+`}`)
	}
	src := enginetest.Line("user", "u1", "", `,"message":{"role":"user","content":"hi"}`) +
		boundary("b1", "auto", "") + summary("s1", "b1", "") +
		boundary("b2", "manual", "") + summary("s2", "b2", `{"messagesSummarized":4,"direction":"from"}`) +
		boundary("b3", "manual", `,"messagesSummarized":9`) + summary("s3", "b3", `{"messagesSummarized":2,"direction":"up_to"}`) +
		boundary("b4", "odd", "") + summary("s4", "b4", "")
	tl := Build(enginetest.BuildTranscript(t, src), window.Size200k(), 0)
	want := []struct {
		kind CompactionKind
		dir  model.SummarizeDirection
		n    int
	}{{CompactionAuto, "", -1}, {CompactionPartial, model.SummarizeFrom, 4}, {CompactionPartial, model.SummarizeUpTo, 9}, {"", "", -1}}
	if len(tl.Boundaries) != len(want) {
		t.Fatalf("%d boundaries", len(tl.Boundaries))
	}
	for i, w := range want {
		b := tl.Boundaries[i]
		n := -1
		if b.MessagesSummarized != nil {
			n = *b.MessagesSummarized
		}
		if b.Compaction != w.kind || b.Direction != w.dir || n != w.n {
			t.Errorf("boundary %d: %s %s %d, want %s %s %d", i, b.Compaction, b.Direction, n, w.kind, w.dir, w.n)
		}
	}
	if got := tl.Boundaries[1].DirectionText(); got != "summarized from the chosen message on; earlier ones kept" {
		t.Errorf("from: %q", got)
	}
}
