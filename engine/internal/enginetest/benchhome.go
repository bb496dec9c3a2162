package enginetest

import (
	"os"
	"path/filepath"
	"strconv"
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

// BenchTranscripts are transcripts for the per-line benchmarks to read
// from memory: those of $MEMSCOPE_BENCH_HOME (a generated home, W) up to
// $MEMSCOPE_BENCH_MB megabytes (default 16), else those of the
// repository's testdata/home (root, relative to the benchmark's package
// folder, names the repository). n is their size.
func BenchTranscripts(b *testing.B, root string) (data [][]byte, n int64) {
	b.Helper()
	dir, limit := filepath.Join(root, "testdata", "home"), int64(16<<20)
	if h := os.Getenv("MEMSCOPE_BENCH_HOME"); h != "" {
		dir = h
	}
	if mb, err := strconv.Atoi(os.Getenv("MEMSCOPE_BENCH_MB")); err == nil && mb > 0 {
		limit = int64(mb) << 20
	}
	files, _ := model.FindTranscripts(model.DirFS(dir))
	for _, t := range files {
		if n >= limit {
			break
		}
		d, err := os.ReadFile(filepath.Join(dir, t.Path))
		if err != nil {
			b.Fatal(err)
		}
		data, n = append(data, d), n+int64(len(d))
	}
	if n == 0 {
		b.Fatal("no transcripts to read")
	}
	return data, n
}
