package inventory

import (
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

// BenchmarkStat is the whole inventory of the bench home
// (MEMSCOPE_BENCH_HOME, else a generated one), without a cache.
func BenchmarkStat(b *testing.B) {
	h := enginetest.BenchHome(b)
	b.ReportAllocs()
	for b.Loop() {
		if rep := Stat(Options{Home: h}); rep.Records == 0 {
			b.Fatal("no records")
		}
	}
}

// BenchmarkStatWarm is the inventory of the same home a second time,
// from the cache the first run wrote (nothing changed between runs).
func BenchmarkStatWarm(b *testing.B) {
	h := enginetest.BenchHome(b)
	c := diskcache.New(b.TempDir(), model.DirFS("/"), model.OSWriteFS{})
	Stat(Options{Home: h, Cache: c})
	b.ReportAllocs()
	for b.Loop() {
		if rep := Stat(Options{Home: h, Cache: c}); rep.Records == 0 {
			b.Fatal("no records")
		}
	}
}
