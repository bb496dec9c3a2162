package doctor

import (
	"bytes"
	"os"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
)

// BenchmarkScanHome reads every transcript of the home at
// $MEMSCOPE_BENCH_HOME (a generated home: scripts/memscope-gen) without
// a cache, as the Overview's doctor line does on a cold start; MB/s is
// per transcript byte.
//
//	MEMSCOPE_BENCH_HOME=$PWD/.cache/bench/W go test ./engine/doctor -run '^$' -bench ScanHome -benchtime 2x
func BenchmarkScanHome(b *testing.B) {
	dir := os.Getenv("MEMSCOPE_BENCH_HOME")
	if dir == "" {
		b.Skip("MEMSCOPE_BENCH_HOME names no home")
	}
	home := model.DirFS(dir)
	files, _ := model.FindTranscripts(home)
	var n int64
	for _, f := range files {
		n += f.Size
	}
	b.SetBytes(n)
	for b.Loop() {
		if r := ScanCached(home, nil, dir); r.Lines == 0 {
			b.Fatal("no line read")
		}
	}
}

// BenchmarkSharedLines is the shared pass's work on each line for stat's
// summary and doctor's scan, over transcripts held in memory
// ($MEMSCOPE_BENCH_HOME's up to $MEMSCOPE_BENCH_MB megabytes, default
// 16; else testdata/home's): "walked" is doctor reading the members
// stat's check walked and kept (lineTop, the pass now), "rewalked"
// doctor walking each valid line again and no members kept (lineValid,
// the pass before). Under valgrind
// (scripts/scan-ab.sh) the two count instructions.
func BenchmarkSharedLines(b *testing.B) {
	data, n := enginetest.BenchTranscripts(b, "../..")
	var lines []model.Line
	for _, d := range data {
		for i, l := range bytes.Split(d, []byte("\n")) {
			lines = append(lines, model.Line{Bytes: l, Number: i + 1, Size: int64(len(l))})
		}
	}
	for _, mode := range []string{"walked", "rewalked"} {
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(n)
			for b.Loop() {
				sum := sessions.NewSummarizing("t")
				sum.KeepTop(mode == "walked")
				fd := newFileFeed("t", nil)
				for _, l := range lines {
					sum.Line(l)
					if mode == "walked" {
						fd.lineTop(l, sum.Top())
					} else {
						fd.lineValid(l, sum.Valid())
					}
				}
				sum.Summary(n, nil)
				if fd.out.Lines == 0 {
					b.Fatal("no line read")
				}
			}
		})
	}
}
