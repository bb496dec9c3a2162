// Package testroot gives tests a file system rooted at "/" that shows only
// what the test names and its own temporary folders, so no test reads the
// machine it runs on: not a CLAUDE.md or settings file in a folder a
// fixture names, not the managed settings, not a git checkout around the
// repository. Production code never imports it; main opens model.DirFS("/").
package testroot

import (
	"io/fs"
	"path/filepath"
	"sync"
	"testing"

	"github.com/memscope/memscope/model"
)

// New returns an fs.FS rooted at "/" (names as model.RootName gives them)
// that shows t's temporary folders and dirs (absolute, or relative to the
// working folder, e.g. "testdata"), and nothing else: every other name is
// not found.
func New(t testing.TB, dirs ...string) fs.FS {
	t.Helper()
	all := append([]string{testDir(t)}, dirs...)
	var root fs.FS
	for _, d := range all {
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatalf("testroot: %v", err)
		}
		root = model.MountFS(root, filepath.ToSlash(abs), model.DirFS(abs))
	}
	return root
}

// BetaProject is the folder testdata/home's beta transcripts were
// recorded in (their cwd), so the fixture's beta project has this path.
// The folder may exist on a machine with a CLAUDE.md of its own; tests
// never read it, because the root New gives them hides it.
const BetaProject = "/tmp/rc/work/beta"

// testDirs holds each running test's testDir.
var testDirs sync.Map

// testDir is the folder t.TempDir makes each of t's temporary folders
// in, so showing (or allowing writes in) that folder covers the test's
// temporary folders, the ones it makes later included (a subtest has
// its own). It is found once per test: each t.TempDir call makes a new
// folder, and a test that builds many environments (New and Writer for
// each) made two folders for each one.
func testDir(t testing.TB) string {
	if d, ok := testDirs.Load(t); ok {
		return d.(string)
	}
	d := filepath.Dir(t.TempDir())
	if _, loaded := testDirs.LoadOrStore(t, d); !loaded {
		t.Cleanup(func() { testDirs.Delete(t) })
	}
	return d
}
