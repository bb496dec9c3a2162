package replay

import (
	"os"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/timeline"
	ctxwindow "github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/style"
)

// A partial compaction from the rewind menu shows its kind, direction and
// summarized count on its row and in the step's detail, beside the
// preserved segment; a /compact shows as manual.
func TestPartialCompactionShown(t *testing.T) {
	tr, err := model.ReadTranscriptWith(os.DirFS("../../model/testdata/derived"), "transcript-rewind-partial.jsonl", model.ScanOptions{Content: true, KeepText: true})
	if err != nil {
		t.Fatal(err)
	}
	tl := timeline.Build(tr, ctxwindow.Size200k(), 0)
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(140, 40)
	m = openTimeline(t, m, &tl)
	m, _ = press(t, m, "[")
	s, _ := m.steps.Selected()
	if s.Kind != timeline.StepBoundary || s.Boundary != 1 {
		t.Fatalf("[ selected %+v", s)
	}
	got := screen(m)
	for _, want := range []string{
		"⟲ compact partial 19k→2.6k up to here: 7 summarized",
		"Step 5: after a compact compaction (partial)",
		"rewind-menu partial: 7 messages summarized",
		"summarized up to the chosen message; later ones kept",
		"preserves 1 message, relinked after the summary on resume",
		"⟲ compact manual 19k→2.5k",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("screen lacks %q\n%s", want, got)
		}
	}
}

// A /compact that kept a preserved segment is not "partial" (the rewind
// menu's kind): its row says "preserves", the CLI's word for it.
func TestPreservedSegmentIsNotPartial(t *testing.T) {
	tl := readTimeline(t)
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(140, 40)
	m = openTimeline(t, m, tl)
	rows := 0
	for i, b := range tl.Boundaries {
		if b.Preserved == nil || b.Compaction == timeline.CompactionPartial {
			continue
		}
		rows++
		for _, s := range tl.Steps {
			if s.Kind != timeline.StepBoundary || s.Boundary != i {
				continue
			}
			row := m.renderStep(s, false, 140)
			if strings.Contains(row, "partial") || !strings.Contains(row, b.PreservesText()) || !strings.HasPrefix(b.PreservesText(), "preserves ") {
				t.Errorf("boundary %d (%s with a preserved segment): row %q", i, b.Compaction, row)
			}
		}
	}
	if rows == 0 {
		t.Fatal("the fixture has no non-partial compaction with a preserved segment")
	}
}
