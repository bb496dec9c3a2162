package enginetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/memscope/memscope/model"
)

// BenchHome is the home the sessions benchmarks read: $MEMSCOPE_BENCH_HOME
// (for example .cache/bench/W from scripts/bench.sh), else a 64 MB home
// that scripts/gen writes once into the user's cache folder and later
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

var genOnce struct {
	sync.Once
	dir string
	err error
}

func generatedBenchHome(b *testing.B) string {
	genOnce.Do(func() {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		genOnce.dir = filepath.Join(cache, "memscope", "bench-64M-seed7")
		if _, err := os.Stat(filepath.Join(genOnce.dir, "manifest.json")); err == nil {
			return
		}
		// A run cut short leaves a partial home: start it again.
		if err := os.RemoveAll(genOnce.dir); err != nil {
			genOnce.err = err
			return
		}
		genOnce.err = RunGen(genOnce.dir, "64M", "7")
	})
	if genOnce.err != nil {
		b.Skipf("cannot generate a bench home (set MEMSCOPE_BENCH_HOME): %v", genOnce.err)
	}
	return genOnce.dir
}

// RunGen writes a synthetic home of size bytes into dir with scripts/gen.
func RunGen(dir, size, seed string) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "run", "./scripts/gen", "-out", dir, "-size", size, "-seed", seed)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("scripts/gen: %w\n%s", err, out)
	}
	return nil
}

// moduleRoot is the folder of go.mod, found upwards from here.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod above the test folder")
		}
		dir = up
	}
}
