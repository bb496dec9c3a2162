package cli

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/internal/testenv"
)

// scaleTranscript writes the transcript scripts/scale-bench.sh writes: n
// records, user and assistant turns in one parent chain, a compaction
// every 50 000 records. It returns the file's path.
func scaleTranscript(t *testing.T, n int) string {
	t.Helper()
	const sid = "5ca1e000-0000-4000-8000-000000000001"
	p := filepath.Join(t.TempDir(), sid+".jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	parent := "null"
	for i := 1; i <= n; i++ {
		uuid := fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i)
		ts := fmt.Sprintf("2026-11-%02dT%02d:%02d:%02d.000Z", 1+i/40000%28, i/3600%24, i/60%60, i%60)
		switch {
		case i%50000 == 0:
			fmt.Fprintf(w, `{"parentUuid":null,"logicalParentUuid":%s,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","uuid":"%s","timestamp":"%s","sessionId":"%s","compactMetadata":{"trigger":"auto","preTokens":160000}}`+"\n", parent, uuid, ts, sid)
		case i%2 == 1:
			fmt.Fprintf(w, `{"parentUuid":%s,"isSidechain":false,"type":"user","message":{"role":"user","content":"step %d: please look at the parser and the cache index again"},"uuid":"%s","timestamp":"%s","sessionId":"%s","cwd":"/home/dev/scale"}`+"\n", parent, i, uuid, ts, sid)
		default:
			fmt.Fprintf(w, `{"parentUuid":%s,"isSidechain":false,"type":"assistant","message":{"id":"msg_%d","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"done %d"}],"usage":{"input_tokens":12,"output_tokens":30,"cache_read_input_tokens":900}},"requestId":"req_%d","uuid":"%s","timestamp":"%s","sessionId":"%s"}`+"\n", parent, i, i, i, uuid, ts, sid)
		}
		parent = `"` + uuid + `"`
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// Issue 28, "Scale": `replay --json` of a transcript of 200 000 records
// (50 000 unless MEMSCOPE_LONG=1) grows the heap by at most 8 MiB (the
// runtime's and the readers' buffers) and 300 bytes a record at its peak
// (sampled, garbage included: about twice what is live, the index's
// 90 bytes a record and the scan's usage dedupe), and prints every turn.
// The replay holds a compact index of the records and writes turns and
// steps one at a time; the old one held the transcript as a tree of
// decoded records (about 1 KB each), the timeline, and the whole output
// in memory: 2.2 KB a record at its peak.
func TestReplayHeapBoundedPerRecord(t *testing.T) {
	n := testenv.Size(t, 200_000, 50_000)
	path := scaleTranscript(t, n)
	e, _, errb := testEnv(t)
	cw := &countingWriter{want: []byte(`"kind": "turn"`)}
	e.stdout = cw
	code := -1
	grew := testenv.PeakHeap(func() { code = run(e, []string{"replay", path, "--json"}) })
	t.Logf("%d records: %d bytes out, heap grew %.1f MB, %d bytes a record", n, cw.bytes, float64(grew)/(1<<20), grew/uint64(n))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	// One turn step per assistant record (the compactions replace one in
	// 50 000 records).
	if want := n/2 - n/50000; cw.n != want {
		t.Errorf("printed %d turn steps, want %d", cw.n, want)
	}
	if limit := 8<<20 + 300*uint64(n); grew > limit {
		t.Errorf("the heap grew by %d bytes (%d a record), more than 8 MiB and 300 bytes a record (%d)", grew, grew/uint64(n), limit)
	}
}
