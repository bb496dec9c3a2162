package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
)

// testEnvNow is the clock of testEnv's environments.
var testEnvNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// shared is the demo home the test binary materializes once
// (sharedDemo), in the folder TestMain makes (dir).
var shared struct {
	dir  string
	once sync.Once
	l    demo.Layout
	tree map[string]string
	err  error
}

// sharedDemo is the demo home materialized once for the test binary
// (at testEnvNow), for tests that only read it: writing a demo costs
// about 120 files and folders, which on ext4 with many recently
// deleted files cost about a millisecond of system time each. The
// environments testEnv makes show it, refuse any write into it (failing
// the test), and give it to --demo; TestMain fails the run when it
// changed.
func sharedDemo(t testing.TB) demo.Layout {
	t.Helper()
	shared.once.Do(func() {
		if shared.dir == "" {
			shared.err = fmt.Errorf("no folder for the shared demo home (made by TestMain)")
			return
		}
		shared.l, shared.err = demo.Materialize(filepath.Join(shared.dir, "demo"), testEnvNow)
		if shared.err == nil {
			shared.tree, shared.err = digestTree(shared.l.Root)
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.l
}

// sharedDemoHome is testEnv's --demo: the shared demo when the command
// runs at testEnvNow (else a demo of its own in a temporary folder of
// t), never removed by the command.
func sharedDemoHome(t testing.TB) func(now time.Time) (demo.Layout, func(), error) {
	return func(now time.Time) (demo.Layout, func(), error) {
		if !now.Equal(testEnvNow) {
			l, err := demo.Materialize(t.TempDir(), now)
			return l, func() {}, err
		}
		return sharedDemo(t), func() {}, nil
	}
}

// checkSharedDemo says what changed in the shared demo home since it was
// written ("" when nothing did, or it was never written).
func checkSharedDemo() string {
	if shared.tree == nil {
		return ""
	}
	now, err := digestTree(shared.l.Root)
	if err != nil {
		return err.Error()
	}
	for k, v := range shared.tree {
		if w, ok := now[k]; !ok || w != v {
			return fmt.Sprintf("the shared demo home (sharedDemo): %s changed or is missing", k)
		}
	}
	for k := range now {
		if _, ok := shared.tree[k]; !ok {
			return fmt.Sprintf("the shared demo home (sharedDemo): %s is new", k)
		}
	}
	return ""
}

// digestTree maps every file and link under dir to its content (a link
// to its target) and every folder to "dir".
func digestTree(dir string) (map[string]string, error) {
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			m[rel] = "link " + target
			return err
		case d.IsDir():
			m[rel+"/"] = "dir"
		default:
			data, err := os.ReadFile(p)
			m[rel] = string(data)
			return err
		}
		return nil
	})
	return m, err
}
