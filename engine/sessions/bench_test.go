package sessions

import (
	"bytes"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// transcriptBytes is the size of the transcripts Sessions reads.
func transcriptBytes(b *testing.B, h *model.Home) int64 {
	sf, _ := model.FindSessionFiles(h.FS)
	var n int64
	for _, t := range sf.Transcripts {
		n += t.Size
	}
	if n == 0 {
		b.Fatal("bench home has no transcripts")
	}
	return n
}

// loopCPU runs the benchmark loop and also reports MB per CPU-second
// (all threads), which stays meaningful on a machine shared with other
// work, where wall-clock MB/s does not.
func loopCPU(b *testing.B, n int64, body func()) {
	b.SetBytes(n)
	c0 := testenv.ProcessCPU()
	for b.Loop() {
		body()
	}
	if c := testenv.ProcessCPU() - c0; c > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/1e6/c.Seconds(), "MB/cpu-s")
	}
}

// BenchmarkSessions is the whole report on all CPUs; MB/s is over
// transcript bytes.
func BenchmarkSessions(b *testing.B) {
	h := enginetest.BenchHome(b)
	b.ReportAllocs()
	loopCPU(b, transcriptBytes(b, h), func() {
		if rep := Summarize(Options{Home: h}); rep.Totals.Records == 0 {
			b.Fatal("no records")
		}
	})
}

// BenchmarkSessionsOneWorker is the report on one worker: MB/s is the
// per-core speed of the scanner.
func BenchmarkSessionsOneWorker(b *testing.B) {
	h := enginetest.BenchHome(b)
	loopCPU(b, transcriptBytes(b, h), func() { Summarize(Options{Home: h, Workers: 1}) })
}

// BenchmarkSummarizeOneWorker is model.SummarizeTranscript (what stat
// used before) over the same files on one worker, for comparison.
func BenchmarkSummarizeOneWorker(b *testing.B) {
	h := enginetest.BenchHome(b)
	sf, _ := model.FindSessionFiles(h.FS)
	loopCPU(b, transcriptBytes(b, h), func() {
		for _, t := range sf.Transcripts {
			if _, err := model.SummarizeTranscript(h.FS, t.Path); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkScanFiles is one worker's scan (ccusage's usage lines
// included, as `sessions` scans) of transcripts held in memory: the
// per-line work alone, no file system. The transcripts are
// $MEMSCOPE_BENCH_HOME's (W) up to $MEMSCOPE_BENCH_MB megabytes (default
// 16), else testdata/home's. Under valgrind (scripts/scan-ab.sh) its
// instructions are load-independent.
func BenchmarkScanFiles(b *testing.B) {
	data, n := enginetest.BenchTranscripts(b, "../..")
	w := newScanWorker(true)
	loopCPU(b, n, func() {
		for _, d := range data {
			if _, err := w.scan(bytes.NewReader(d), "t.jsonl"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSummarizingFiles is stat's summary as the shared pass's rider
// reads it (Summarizing, its line's top-level members kept for the
// walking riders) over transcripts held in memory, as
// BenchmarkScanFiles: under valgrind its instructions are the rider's
// own, load-independent (BENCH=Summarizing scripts/riders-cg.sh).
func BenchmarkSummarizingFiles(b *testing.B) {
	data, n := enginetest.BenchTranscripts(b, "../..")
	lr := model.NewLineReader(nil)
	loopCPU(b, n, func() {
		for _, d := range data {
			s := NewSummarizing("t.jsonl")
			s.KeepTop(true)
			lr.Reset(bytes.NewReader(d))
			for {
				l, ok := lr.Next()
				if !ok {
					break
				}
				s.Line(l)
			}
			if sum := s.Summary(int64(len(d)), lr.Err()); sum.Lines == 0 {
				b.Fatal("no lines")
			}
		}
	})
}
