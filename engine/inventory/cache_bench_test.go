package inventory

import (
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

// BenchmarkStatCacheCodec writes and reads back stat's cache of the bench
// home (MEMSCOPE_BENCH_HOME, else a generated one) as the app's start
// keeps it (history held: no counts of it), the paste verdicts and
// paste-cache's listing included.
//
//	MEMSCOPE_BENCH_HOME=$PWD/.cache/bench/W go test ./engine/inventory -run '^$' -bench StatCacheCodec
func BenchmarkStatCacheCodec(b *testing.B) {
	h := enginetest.BenchHome(b)
	read, err := (&model.HistoryTail{}).Read(h.FS, model.HistoryPath)
	if err != nil {
		b.Fatal(err)
	}
	c := diskcache.New(b.TempDir(), model.DirFS("/"), model.OSWriteFS{})
	Stat(Options{Home: h, Cache: c, History: &read})
	name := diskcache.Name(cacheKind, h.Dir)
	sc, ok := diskcache.Load[statCache](c, cacheKind, name)
	if !ok || len(sc.Pastes) == 0 {
		b.Fatalf("no cache, or no verdicts in it (%d)", len(sc.Pastes))
	}
	b.Run("save", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := diskcache.Save(c, cacheKind, name, sc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := diskcache.Load[statCache](c, cacheKind, name); !ok {
				b.Fatal("no cache")
			}
		}
	})
}
