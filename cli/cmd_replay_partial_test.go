package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// rewindPartial is the real transcript with a partial compaction from the
// rewind menu (model/testdata/derived/README.md says what was added).
const rewindPartial = "../model/testdata/derived/transcript-rewind-partial.jsonl"

// replay --json gives each boundary's kind, direction and summarized
// count beside its preserved segment; the text report says the same.
func TestReplayPartialCompaction(t *testing.T) {
	e, out, errb := testEnv(t)
	if code := run(e, []string{"replay", rewindPartial, "--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var r struct {
		Boundaries []map[string]json.RawMessage `json:"boundaries"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Boundaries) != 2 {
		t.Fatalf("%d boundaries", len(r.Boundaries))
	}
	first, second := r.Boundaries[0], r.Boundaries[1]
	if string(first["compaction"]) != `"manual"` || first["direction"] != nil || first["messagesSummarized"] != nil {
		t.Errorf("first boundary: compaction %s direction %s summarized %s", first["compaction"], first["direction"], first["messagesSummarized"])
	}
	if string(second["compaction"]) != `"partial"` || string(second["direction"]) != `"up_to"` ||
		string(second["messagesSummarized"]) != "7" || string(second["preservedMessages"]) != "1" || second["preserved"] == nil {
		t.Errorf("second boundary: compaction %s direction %s summarized %s preserved %s %s",
			second["compaction"], second["direction"], second["messagesSummarized"], second["preservedMessages"], second["preserved"])
	}

	e, out, errb = testEnv(t)
	if code := run(e, []string{"replay", rewindPartial}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	want := "compact       partial 19495 → 2610 tokens, 7 summarized (up_to), summary 1.1 KiB, preserves 4935c698..4935c698 (1 message)"
	if !strings.Contains(out.String(), want) {
		t.Errorf("text report lacks %q:\n%s", want, out)
	}
	if !strings.Contains(out.String(), "compact       manual 19110 → 2550 tokens, summary 857 B\n") {
		t.Errorf("the first compaction is not a plain manual one:\n%s", out)
	}
}

// A session export names the partial compaction, its count and direction.
func TestExportPartialCompaction(t *testing.T) {
	e, out, errb := testEnv(t)
	if code := run(e, []string{"export", rewindPartial, "--format", "md"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"## Compaction 1: manual,", "## Compaction 2: partial (rewind menu),",
		"- partial compaction from the rewind menu: 7 messages summarized; summarized up to the chosen message; later ones kept\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("export lacks %q", want)
		}
	}
}
