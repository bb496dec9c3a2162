package overview_test

import (
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/engine/projectmem"
	"github.com/memscope/memscope/model"
)

// BenchmarkColdSharedLines counts the lines that read every transcript
// (secrets, problems, doctor, dropped) on a cold cache, as a cold start
// does, on enginetest.BenchHome ($MEMSCOPE_BENCH_HOME, else a generated
// 64 MB home); MB/s is per transcript byte.
//
//	MEMSCOPE_BENCH_HOME=$PWD/.cache/bench/W go test ./engine/overview -run '^$' -bench ColdSharedLines -benchtime 1x -cpuprofile /tmp/cold.prof
func BenchmarkColdSharedLines(b *testing.B) {
	home := enginetest.BenchHome(b)
	dir := home.Dir
	files, _ := model.FindTranscripts(home.FS)
	var n int64
	for _, f := range files {
		n += f.Size
	}
	b.SetBytes(n)
	root := model.MountFS(model.DirFS("/"), filepath.ToSlash(dir), home.FS)
	for b.Loop() {
		c := diskcache.New(filepath.Join(b.TempDir(), "cache"), model.DirFS("/"), model.OSWriteFS{})
		env := projectmem.Env{Root: root, Home: home, UserHome: b.TempDir(), Getenv: func(string) string { return "" }, Now: now}
		s := &overview.Source{Env: env, Cache: c}
		for _, id := range []overview.ID{overview.Secrets, overview.Problems, overview.Doctor, overview.Dropped} {
			overview.Compute(s, id)
		}
	}
}
