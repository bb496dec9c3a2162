// Package genhome writes synthetic Claude homes with scripts/memscope-gen for
// tests and benchmarks, and keeps generated ones in the user's cache
// folder so later runs reuse them.
package genhome

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/memscope/memscope/scripts/memscope-gen/gen"
)

// Run writes a home of size transcript bytes (as scripts/memscope-gen -size takes
// it: W, W/2, W/4, or a number with K, M or G) into dir. The generator
// runs in this process (package gen), not as a command built and started.
func Run(dir, size, seed string, flags ...string) error {
	var stderr bytes.Buffer
	args := append([]string{"-out", dir, "-size", size, "-seed", seed}, flags...)
	if code := gen.Run(args, io.Discard, &stderr); code != 0 {
		return fmt.Errorf("scripts/memscope-gen %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
	return nil
}

var cached struct {
	sync.Mutex
	dirs map[string]string
}

// Cached returns a home of this size and seed in the user's cache folder
// (memscope/bench-<size>-seed<seed>), generating it the first time. A
// home without its manifest (a run cut short) is generated again. Callers
// must not change it.
func Cached(size, seed string) (string, error) {
	cached.Lock()
	defer cached.Unlock()
	key := size + "/" + seed
	if dir, ok := cached.dirs[key]; ok {
		return dir, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "memscope", "bench-"+strings.ReplaceAll(size, "/", "-")+"-seed"+seed)
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		if err := os.RemoveAll(dir); err != nil {
			return "", err
		}
		if err := Run(dir, size, seed); err != nil {
			return "", err
		}
	}
	if cached.dirs == nil {
		cached.dirs = map[string]string{}
	}
	cached.dirs[key] = dir
	return dir, nil
}

// ModuleRoot is the folder of go.mod, found upwards from the working
// folder (a test's package folder).
func ModuleRoot() (string, error) {
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

// BenchSizes are the home sizes a benchmark runs on: those of
// MEMSCOPE_BENCH_SIZES (e.g. "W/4 W/2 W"), else defaults.
func BenchSizes(defaults ...string) []string {
	if sizes := strings.Fields(os.Getenv("MEMSCOPE_BENCH_SIZES")); len(sizes) > 0 {
		return sizes
	}
	return defaults
}
