package cli

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/memscope/memscope/internal/testenv"
)

// Issue 28, "Scale": `compact --json` of a transcript of 200 000 records
// (50 000 unless MEMSCOPE_LONG=1) and 1 000 more after its last
// compaction grows the heap by at most 8 MiB and 300 bytes a record at
// its peak, and takes the 1 000 messages the resume chain holds. The
// pipeline needs the resume chain's records whole, which are what the
// last compaction kept and what followed it, not the file: compact
// indexes the transcript and reads only those again. The old one read
// every record with its text into a tree: 1.3 KB a record.
func TestCompactHeapBoundedPerRecord(t *testing.T) {
	n := testenv.Size(t, 200_000, 50_000) + 1000
	path := scaleTranscript(t, n)
	e, out, errb := testEnv(t)
	code := -1
	grew := testenv.PeakHeap(func() { code = run(e, []string{"compact", path, "--json"}) })
	t.Logf("%d records: heap grew %.1f MB, %d bytes a record", n, float64(grew)/(1<<20), grew/uint64(n))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var got compactOut
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || !bytes.Contains(out.Bytes(), []byte(`"messages": 1000`)) {
		t.Errorf("%v: %d messages, want the 1 000 after the last compaction", err, got.Messages)
	}
	if limit := 8<<20 + 300*uint64(n); grew > limit {
		t.Errorf("the heap grew by %d bytes (%d a record), more than 8 MiB and 300 bytes a record (%d)", grew, grew/uint64(n), limit)
	}
}
