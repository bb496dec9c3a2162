package vault

import (
	"context"
	"os"
	"runtime/trace"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

// BenchmarkSyncUnchanged is a sync that finds nothing changed, the fixed
// cost of every sync, on the bench home ($MEMSCOPE_BENCH_HOME, else the
// generated 64 MB home) synced once into a temporary vault
// ($MEMSCOPE_BENCH_VAULT: an existing vault of that home instead, which
// the benchmark does not change when nothing changed), and its steps
// alone.
func BenchmarkSyncUnchanged(b *testing.B) {
	home := enginetest.BenchHome(b)
	dir := os.Getenv("MEMSCOPE_BENCH_VAULT")
	if dir == "" {
		dir = b.TempDir()
	}
	v := Open(dir, model.DirFS("/"), nil)
	now := time.Now()
	if _, err := v.Sync(SyncOptions{Home: home, Now: now}); err != nil {
		b.Fatal(err)
	}
	b.Run("sync", func(b *testing.B) {
		for b.Loop() {
			v := Open(dir, model.DirFS("/"), nil)
			rep, err := v.Sync(SyncOptions{Home: home, Now: now})
			if err != nil || rep.New+rep.Changed != 0 {
				b.Fatalf("%+v %v", rep, err)
			}
		}
	})
	b.Run("state", func(b *testing.B) {
		for b.Loop() {
			if _, err := v.loadState(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			var probs []model.Problem
			stamps, _ := v.loadFolders()
			fw := &folderWalk{stamps: stamps}
			walkHome(home.FS, "", &probs, fw, nil)
		}
	})
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			if _, err := v.loadIndex(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSyncFirst is a first sync of the bench home
// ($MEMSCOPE_BENCH_HOME, else the generated 64 MB home) into an empty
// vault: what issue 31's "first sync ÷ cat" measures, in process (run it
// with -cpuprofile or -memprofile to see where the CPU goes).
func BenchmarkSyncFirst(b *testing.B) {
	home := enginetest.BenchHome(b)
	now := time.Now()
	var raw int64
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		b.StartTimer()
		var rep SyncReport
		var err error
		// A region for scripts/vault-timeline.sh (go test -trace).
		trace.WithRegion(context.Background(), "vault.Sync", func() {
			rep, err = Open(dir, model.DirFS("/"), nil).Sync(SyncOptions{Home: home, Now: now})
		})
		if err != nil || rep.New == 0 {
			b.Fatalf("%+v %v", rep, err)
		}
		raw = rep.BytesRead
	}
	b.SetBytes(raw)
}
