package ledger

import (
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
)

// BenchmarkHomeCold is `replay --lost --all --no-cache`'s engine: the
// ledger of every transcript of the bench home ($MEMSCOPE_BENCH_HOME, for
// example .cache/bench/W; else the generated 64 MB home), nothing cached.
func BenchmarkHomeCold(b *testing.B) {
	h := enginetest.BenchHome(b)
	for b.Loop() {
		if ss, _ := Home(h.FS, h.Dir, nil); len(ss) == 0 {
			b.Fatal("no compacted session")
		}
	}
}
