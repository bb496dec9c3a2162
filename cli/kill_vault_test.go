//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// memscope vault sync is killed (SIGKILL) at random points of a first
// sync of the demo home. Whatever the point, the vault verifies (a pack
// the kill left without its index is reported as a leftover, never
// used), the next sync completes, and a session deleted from the home
// then restores byte for byte. The home is never written.
func TestKill9DuringVaultSync(t *testing.T) {
	t.Parallel()
	rng := killRand(t, "kills memscope vault sync at random points")
	setup := func(dir string) (args []string, home string, l demo.Layout) {
		l, err := demo.Materialize(dir, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		return []string{"vault", "sync", "--home", l.Home, "--vault", filepath.Join(dir, "vault")}, l.Home, l
	}
	refDir := t.TempDir()
	args, _, _ := setup(refDir)
	start := time.Now()
	childRun(t, refDir, args...)
	took := time.Since(start)
	kills := testenv.Size(t, 20, 20)
	for i := range kills {
		dir := t.TempDir()
		args, home, l := setup(dir)
		before := readTree(home)
		killChild(t, dir, rng, took, args...)
		if !equalMaps(before, readTree(home)) {
			t.Fatalf("kill %d: the sync changed the home", i)
		}
		vflag := []string{"--home", home, "--vault", filepath.Join(dir, "vault")}
		if _, err := os.Stat(filepath.Join(dir, "vault", "VAULT")); err == nil {
			if out, code := childRun(t, dir, append([]string{"vault", "verify"}, vflag...)...); code != 0 {
				t.Fatalf("kill %d: verify of the killed vault:\n%s", i, out)
			}
		}
		childRun(t, dir, append([]string{"vault", "sync"}, vflag...)...)
		if out, code := childRun(t, dir, append([]string{"vault", "verify"}, vflag...)...); code != 0 {
			t.Fatalf("kill %d: verify after the next sync:\n%s", i, out)
		}
		tr := filepath.Join(home, "projects", model.Slug(l.Project("shop-api")), "7c0d5e92-1a3b-4f8c-b2d4-9e6f13a8c702.jsonl")
		want, err := os.ReadFile(tr)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(tr)
		childRun(t, dir, append([]string{"vault", "restore", "7c0d5e92-1a3b-4f8c-b2d4-9e6f13a8c702"}, vflag...)...)
		if got, _ := os.ReadFile(tr); string(got) != string(want) {
			t.Fatalf("kill %d: the restored transcript differs", i)
		}
	}
}
