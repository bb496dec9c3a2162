//go:build unix

package feed

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// BenchmarkHistoryStart is the History feed's start-up read (Init's
// command) of the home MEMSCOPE_BENCH_HOME names (W: scripts/memscope-gen),
// else of a generated history of 20 000 prompts: cold, with an empty
// cache (the whole file read, the digest written), and warm, with the
// digest the cold read kept, and the whole read the History pane's
// first showing asks for after a warm start (pane). cpu-ms/op is the process's CPU time (user
// and system: the GC's included) per start, which a busy machine does
// not stretch as it does ns/op.
//
//	MEMSCOPE_BENCH_HOME=$PWD/.cache/bench/W go test ./ui/feed -run '^$' -bench HistoryStart
func BenchmarkHistoryStart(b *testing.B) {
	dir := os.Getenv("MEMSCOPE_BENCH_HOME")
	if dir == "" {
		dir = b.TempDir()
		historyFile(b, dir, 20000, true)
	}
	home, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		b.Fatal(err)
	}
	caches := b.TempDir()
	n := 0
	newCache := func() *diskcache.Store {
		n++
		return diskcache.New(filepath.Join(caches, fmt.Sprint(n)), testroot.New(b), model.OSWriteFS{})
	}
	start := func(b *testing.B, cache *diskcache.Store) {
		if _, ok := NewHistory(home, cache).Init()().(HistoryRead); !ok {
			b.Fatal("no read")
		}
	}
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		c0 := processCPU()
		for b.Loop() {
			start(b, newCache())
		}
		b.ReportMetric(float64((processCPU()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
	b.Run("warm", func(b *testing.B) {
		cache := newCache()
		start(b, cache)
		b.ReportAllocs()
		c0 := processCPU()
		for b.Loop() {
			start(b, cache)
		}
		b.ReportMetric(float64((processCPU()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
	b.Run("pane", func(b *testing.B) {
		cache := newCache()
		start(b, cache)
		b.ReportAllocs()
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			h := NewHistory(home, cache)
			msg, ok := h.Init()().(HistoryRead)
			if !ok || !msg.digest {
				b.Fatal("the warm start read no digest")
			}
			h.Loaded(msg, Open{}, testNow)
			cmd := h.ShowPastes()
			b.StartTimer()
			c0 := processCPU()
			if msg, ok := cmd().(HistoryRead); !ok || msg.history == nil {
				b.Fatal("the pane's read read no history")
			}
			cpu += processCPU() - c0
		}
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
}

// processCPU is the process's user and system time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
