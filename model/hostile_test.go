package model

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/scripts/memscope-hostile/hostilehome"
)

// Lines of the hostile homes, counted from how hostilehome writes them:
// history.jsonl has 6 lines of its own (the third is the raw-text line),
// the main transcript 13 records; scenarios append after them.
const (
	baseHistoryLines    = 6
	baseTranscriptLines = 13
)

// A transcript line and history lines nested 100 000 deep are reported as
// problems with their file and line; the lines around them are read.
func TestHostileDeepJSON(t *testing.T) {
	res, err := hostilehome.Write(filepath.Join(t.TempDir(), "home"), hostilehome.DeepJSON, hostilehome.Options{Depth: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(res.Home)
	h, err := ReadHistory(fsys, "history.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	checkProblemLines(t, "history", h.Problems, "history.jsonl", baseHistoryLines+1, baseHistoryLines+2)
	if len(h.Entries) != res.HistoryLines {
		t.Errorf("history: %d entries, want %d", len(h.Entries), res.HistoryLines)
	}
	for _, opts := range []ScanOptions{{}, {Content: true, KeepText: true, KeepRaw: true}} {
		f, err := fsys.Open(res.Transcript)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := ScanTranscript(f, res.Transcript, opts, nil)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		checkProblemLines(t, "transcript", sum.Problems, res.Transcript, baseTranscriptLines+1, baseTranscriptLines+2)
		if sum.Records != baseTranscriptLines+1 {
			t.Errorf("transcript %+v: %d records, want %d", opts, sum.Records, baseTranscriptLines+1)
		}
	}
}

// checkProblemLines fails unless probs are exactly one per wanted line,
// all naming file.
func checkProblemLines(t *testing.T, what string, probs []Problem, file string, lines ...int) {
	t.Helper()
	if len(probs) != len(lines) {
		t.Fatalf("%s: %d problems %v, want lines %v", what, len(probs), probs, lines)
	}
	for i, p := range probs {
		if p.File != file || p.Line != lines[i] || p.Reason == "" {
			t.Errorf("%s: problem %+v, want %s:%d", what, p, file, lines[i])
		}
	}
}

// A 100 MiB single line (8 MiB unless MEMSCOPE_LONG=1) in history, a
// transcript, a cached paste and a memory body is read whole by every
// reader, with the heap's growth logged for each: the readers hold the
// line a small number of times, never a copy per buffer resize.
func TestHostileBigLineHeap(t *testing.T) {
	// The longest line memscope reads whole (longer ones are skipped as a
	// problem: TestLineReaderTooLong).
	size := int64(testenv.Size(t, MaxLineBytes-1<<20, 8<<20))
	res, err := hostilehome.Write(filepath.Join(t.TempDir(), "home"), hostilehome.BigLine, hostilehome.Options{Size: size})
	if err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(res.Home)
	ratio := func(n uint64) float64 { return float64(n) / float64(size) }
	const maxCopies = 8

	var h *History
	grew := testenv.PeakHeap(func() { h, err = ReadHistory(fsys, "history.jsonl") })
	if err != nil || len(h.Problems) != 0 || len(h.Entries) != res.HistoryLines {
		t.Fatalf("history: %v, problems %v, %d entries (want %d)", err, h.Problems, len(h.Entries), res.HistoryLines)
	}
	if n := len(h.Entries[baseHistoryLines].Display); int64(n) != size {
		t.Errorf("the big display is %d bytes, want %d", n, size)
	}
	t.Logf("ReadHistory: heap grew %d MiB (%.1f× the line)", grew>>20, ratio(grew))
	if ratio(grew) > maxCopies {
		t.Errorf("ReadHistory held %.1f copies of the line", ratio(grew))
	}
	h = nil

	for _, opts := range []ScanOptions{{}, {Content: true, KeepText: true}} {
		var sum TranscriptSummary
		longest := 0
		grew = testenv.PeakHeap(func() {
			f, ferr := fsys.Open(res.Transcript)
			if ferr != nil {
				err = ferr
				return
			}
			defer f.Close()
			sum, err = ScanTranscript(f, res.Transcript, opts, func(r *Record) error {
				if r.Message != nil {
					for _, b := range r.Message.Content {
						longest = max(longest, len(b.Text))
					}
				}
				return nil
			})
		})
		if err != nil || len(sum.Problems) != 0 || sum.Records != baseTranscriptLines+2 {
			t.Fatalf("transcript %+v: %v, problems %v, %d records", opts, err, sum.Problems, sum.Records)
		}
		if opts.KeepText && int64(longest) != size {
			t.Errorf("the big prompt's text is %d bytes, want %d", longest, size)
		}
		t.Logf("ScanTranscript %+v: heap grew %d MiB (%.1f× the line)", opts, grew>>20, ratio(grew))
		if ratio(grew) > maxCopies {
			t.Errorf("ScanTranscript %+v held %.1f copies of the line", opts, ratio(grew))
		}
	}

	var pr PasteResolution
	grew = testenv.PeakHeap(func() {
		for _, name := range res.Files {
			if hash, ok := strings.CutPrefix(name, "paste-cache/"); ok {
				if r := NewPasteCache(fsys).Resolve(PasteHash(strings.TrimSuffix(hash, ".txt"))); r.Size == size {
					pr = r
				}
			}
		}
	})
	if pr.Status != PasteOK || int64(len(pr.Content)) != min(size, MaxDocumentBytes) || pr.Truncated != (size > MaxDocumentBytes) {
		t.Errorf("big paste: %s, %d bytes kept (truncated %v)", pr.Status, len(pr.Content), pr.Truncated)
	}
	t.Logf("PasteCache.Resolve: heap grew %d MiB (%.1f× the line)", grew>>20, ratio(grew))
	pr = PasteResolution{}

	var md *MemoryDir
	var mdProblems []Problem
	grew = testenv.PeakHeap(func() { md, mdProblems = ReadMemoryDir(fsys, res.MemoryDir) })
	if size <= MaxDocumentBytes {
		if f := md.File("big_body.md"); f == nil || f.Size < size || f.Invalid {
			t.Errorf("big memory file: %+v", f)
		}
	} else if !strings.Contains(fmt.Sprint(mdProblems, md.File("big_body.md")), "big_body.md") {
		// Past the bound the file is named as a problem (or listed), never dropped silently.
		t.Errorf("big memory file not listed nor named as a problem: %v", mdProblems)
	}
	t.Logf("ReadMemoryDir: heap grew %d MiB (%.1f× the line)", grew>>20, ratio(grew))
	if ratio(grew) > maxCopies {
		t.Errorf("ReadMemoryDir held %.1f copies of the line", ratio(grew))
	}
}
