//go:build unix

package secrets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/leftover"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/secretgen"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// The kill test's child: the test binary run again with these set
// scrubs the home and is killed (SIGKILL, by itself) at the write call
// numbered killAtVar.
const (
	killHomeVar = "MEMSCOPE_TEST_SCRUB_KILL_HOME"
	killAtVar   = "MEMSCOPE_TEST_SCRUB_KILL_AT"
)

func TestMain(m *testing.M) {
	if home := os.Getenv(killHomeVar); home != "" {
		at, _ := strconv.Atoi(os.Getenv(killAtVar))
		if err := scrubKilledAt(home, at); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	testenv.MainRaisedGC(m)
}

// killWriter is the production writer (without fsync: a kill, not a
// power cut) that kills its own process at the call numbered at (0:
// never) and counts the calls.
func killWriter(at int, calls *int) model.WriteFS {
	return store.WithOSExchange(&faultfs.FS{Base: faultfs.NoSync{}, OnCall: func(faultfs.Step, string) {
		*calls++
		if *calls == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Minute)
		}
	}})
}

// scrubKilledAt plans and applies the scrub of every secret of the home
// at dir through killWriter(at).
func scrubKilledAt(dir string, at int) error {
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		return err
	}
	calls := 0
	busy := BusyOptions{Now: now}
	o := Options{Home: h}
	p := PlanScrub(o, Scan(o), nil, busy)
	_, err = Apply(ApplyOptions{Home: h, Write: killWriter(at, &calls), Busy: busy, Now: now}, p)
	return err
}

// A scrub killed (kill -9) at each of its write calls leaves no unseen
// copy of a secret: every file of the home that holds a planted secret
// is one the secrets scan reports (a hidden copy as a leftover), every
// hidden file is one the leftover search (lint's) finds; once they are
// removed and the scrub restored, the home is as it was, with no hidden
// file left. Every call with MEMSCOPE_LONG=1, eight spread over them
// otherwise.
func TestScrubKilledAtEachStep(t *testing.T) {
	t.Parallel()
	// The calls a whole scrub makes.
	_, h := plantedHome(t)
	calls := 0
	o := Options{Home: h}
	if _, err := Apply(ApplyOptions{Home: h, Write: killWriter(0, &calls), Busy: BusyOptions{Now: now}, Now: now}, PlanScrub(o, Scan(o), nil, BusyOptions{Now: now})); err != nil {
		t.Fatal(err)
	}
	var ks []int
	step := 1
	if !testenv.Long() {
		step = max(1, calls/8)
		t.Logf("killing at every %dth of %d calls (%s=1 kills at each)", step, calls, testenv.Var)
	}
	for k := 1; k <= calls; k += step {
		ks = append(ks, k)
	}
	if ks[len(ks)-1] != calls {
		ks = append(ks, calls)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range ks {
		t.Run(strconv.Itoa(k), func(t *testing.T) {
			t.Parallel()
			l, h := plantedHome(t)
			original := snapshot(t, h.Dir)
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), killHomeVar+"="+h.Dir, killAtVar+"="+strconv.Itoa(k))
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the scrub was not killed at call %d: %v %s", k, err, out)
			}
			checkNoUnseenCopies(t, l.Planted, h)
			root := os.DirFS("/")
			found := leftover.Find(leftover.Input{Root: root, HomeDir: h.Dir, Now: now})
			if _, err := leftover.Remove(model.OSWriteFS{}, found.Items, nil, nil); err != nil {
				t.Fatal(err)
			}
			cs, probs := Copies(h)
			if len(probs) > 0 {
				t.Fatalf("the copies: %v", probs)
			}
			for _, c := range cs {
				if _, err := Restore(ApplyOptions{Home: h, Now: now}, c.ID); err != nil {
					t.Fatalf("restore %s: %v", c.ID, err)
				}
			}
			sameState(t, "killed, cleaned and restored", snapshot(t, h.Dir), original)
			if left, _ := hiddenFiles(h.Dir); len(left) > 0 {
				t.Errorf("hidden files left: %v", left)
			}
		})
	}
}

// checkNoUnseenCopies fails when a file of the home holds a planted
// secret and the scan (given the leftover search's copies) does not
// report it, or when a hidden file is not found by the leftover search.
func checkNoUnseenCopies(t *testing.T, planted []secretgen.Planted, h *model.Home) {
	t.Helper()
	root := os.DirFS("/")
	found := leftover.Find(leftover.Input{Root: root, HomeDir: h.Dir, Now: now})
	seen := map[string]bool{}
	for _, it := range found.Items {
		seen[it.Path] = true
	}
	hidden, _ := hiddenFiles(h.Dir)
	for _, p := range hidden {
		if !seen[p] {
			t.Errorf("the leftover search misses %s", p)
		}
	}
	r := Scan(Options{Home: h, Leftovers: leftover.HomeCopies(root, h.Dir, now)})
	reported := map[string]bool{}
	for _, f := range r.Findings {
		reported[f.File] = true
	}
	filepath.WalkDir(h.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(h.Dir, p)
		rel = filepath.ToSlash(rel)
		for _, s := range planted {
			if strings.Contains(string(data), s.Secret) && !reported[rel] {
				t.Errorf("%s holds a secret (%s) the scan does not report", rel, s.Rule)
				break
			}
		}
		return nil
	})
}
