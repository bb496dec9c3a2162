package doctor

import (
	"os"
	"testing"

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
