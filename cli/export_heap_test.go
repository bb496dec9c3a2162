package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/internal/testenv"
)

// Issue 28, "Scale": `export` of a transcript of 200 000 records (30 000
// unless MEMSCOPE_LONG=1), as Markdown and as JSON, to stdout and to
// --out, grows the heap by at most 12 MiB (the runtime's and the readers'
// buffers, and the garbage the collector lets pile up while it marks)
// and 300 bytes a record at its peak (sampled, garbage included), as
// `replay` does, and writes every message. The fixed part was 8 MiB
// until 2026-11-30: at 30 000 records quiet runs grow 9-11 MB, but on a
// loaded machine the collector's concurrent mark ends later and a run
// grew 15.8, 17.2 and 18.0 MB (over 8 MiB + 300 B a record, 17.4 MB):
// that part is garbage not yet swept, not what the export holds. The export
// indexes the transcript (timeline.Index, about 90 bytes a record) and
// writes each entry as it makes it, reading its record again; the old
// one held the transcript as a tree with every text and raw line, the
// whole export, and its rendering in memory: 2.6-3.1 KB a record.
// The default size still fails it: at 20 000 records (a bound of 18.6 MB)
// the old export (f2e0c4b) grew 52-66 MB, this one 8.2-11.9 MB; 30 000
// leaves a wider margin.
func TestExportHeapBoundedPerRecord(t *testing.T) {
	n := testenv.Size(t, 200_000, 30_000)
	path := scaleTranscript(t, n)
	for _, c := range []struct {
		format, want string
		out          bool
	}{
		{"md", "### ", false},
		{"json", `"timestamp": "`, false},
		{"md", "### ", true},
	} {
		e, _, errb := testEnv(t)
		cw := &countingWriter{want: []byte(c.want)}
		e.stdout = cw
		args := []string{"export", path, "--format", c.format}
		out := filepath.Join(t.TempDir(), "x."+c.format)
		if c.out {
			args = append(args, "--out", out)
		}
		code := -1
		grew := testenv.PeakHeap(func() { code = run(e, args) })
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb)
		}
		if c.out {
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cw.Write(data); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s (--out %v), %d records: %d bytes, heap grew %.1f MB, %d bytes a record", c.format, c.out, n, cw.bytes, float64(grew)/(1<<20), grew/uint64(n))
		// An entry per record: the compactions are entries too (a
		// boundary is a "## Compaction" heading in Markdown, not "### ").
		want := n
		if c.format == "md" {
			want = n - n/50000
		}
		if cw.n != want {
			t.Errorf("%s: %d entries written, want %d", c.format, cw.n, want)
		}
		if limit := 12<<20 + 300*uint64(n); grew > limit {
			t.Errorf("%s: the heap grew by %d bytes (%d a record), more than 12 MiB and 300 bytes a record (%d)", c.format, grew, grew/uint64(n), limit)
		}
	}
}
