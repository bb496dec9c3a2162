package enginetest

import (
	"os"
	"testing"

	"github.com/memscope/memscope/internal/genhome"
	"github.com/memscope/memscope/model"
)

// BenchHome is the home the sessions benchmarks read: $MEMSCOPE_BENCH_HOME
// (for example .cache/bench/W from scripts/bench.sh), else a 64 MB home
// that scripts/memscope-gen writes once into the user's cache folder and later
// runs reuse.
func BenchHome(b *testing.B) *model.Home {
	b.Helper()
	dir := os.Getenv("MEMSCOPE_BENCH_HOME")
	if dir == "" {
		dir = generatedBenchHome(b)
	}
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		b.Fatal(err)
	}
	return h
}

func generatedBenchHome(b *testing.B) string {
	dir, err := genhome.Cached("64M", "7")
	if err != nil {
		b.Skipf("cannot generate a bench home (set MEMSCOPE_BENCH_HOME): %v", err)
	}
	return dir
}

// RunGen writes a synthetic home of size bytes into dir with scripts/memscope-gen.
func RunGen(dir, size, seed string) error { return genhome.Run(dir, size, seed) }

// moduleRoot is the folder of go.mod, found upwards from here.
func moduleRoot() (string, error) { return genhome.ModuleRoot() }
