//go:build unix

package cli

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/internal/filehistgen"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// killOp is one write memscope is killed during. setup makes a fresh
// home in dir and returns the command to kill, the user data it may
// change (read as a map: path → content or "<absent>"), the command that
// undoes it, and the common flags of the home.
type killOp struct {
	name  string
	setup func(t *testing.T, dir string) killCase
}

type killCase struct {
	args []string
	read func() map[string]string
	undo []string
	// lint finds and removes the leftovers (the next start).
	lint []string
	// roots are the folders leftovers may be in.
	roots []string
	// again says the killed command is finished by running it again (an
	// undo), not undone.
	again bool
	// absent are paths a failed command must not leave (a partial
	// archive's folder).
	absent []string
}

// childRun runs memscope args in a child that sees only dir and waits
// for it; it fails the test on a crash (not on exit 1).
func childRun(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childVar+"="+dir)
	out, err := cmd.CombinedOutput()
	code := cmd.ProcessState.ExitCode()
	if err != nil && code != 1 {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return string(out), code
}

// readTree reads every file under dir but memscope's own (.memscope/ and
// its hidden copies): the user's data.
func readTree(dir string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".memscope" {
			return filepath.SkipDir
		}
		if _, own := model.ParseOwnCopy(d.Name()); own || d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	return out
}

// memOp is a memory-folder operation on a fresh demo home; prepare runs
// (not killed) first.
func memOp(name string, prepare []string, op []string, again bool) killOp {
	return killOp{name: name, setup: func(t *testing.T, dir string) killCase {
		l, err := demo.Materialize(dir, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		mem := filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")), "memory")
		base := []string{"--home", l.Home, "--project", l.Project("shop-api")}
		if prepare != nil {
			childRun(t, dir, append(slices.Clone(prepare), base...)...)
		}
		return killCase{args: append(slices.Clone(op), base...), read: func() map[string]string { return readTree(mem) },
			undo: append([]string{"undo"}, base...), lint: append([]string{"lint", "--remove-leftovers"}, base...), roots: []string{dir}, again: again}
	}}
}

var killOps = []killOp{
	memOp("prune", nil, []string{"prune", "--apply"}, false),
	memOp("undo", []string{"prune", "--apply"}, []string{"undo"}, true),
	{name: "rewind", setup: func(t *testing.T, dir string) killCase {
		l, err := filehistgen.Write(dir, time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		read := func() map[string]string {
			out := map[string]string{}
			for p := range filehistgen.Disk {
				data, err := os.ReadFile(l.Abs(p))
				switch {
				case errors.Is(err, fs.ErrNotExist):
					out[p] = "<absent>"
				case err != nil:
					out[p] = "<unreadable>"
				default:
					out[p] = string(data)
				}
			}
			return out
		}
		sid := filehistgen.SessionID
		return killCase{args: []string{"files", "--home", l.Home, sid, "--rewind", filehistgen.U1, "--yes"}, read: read,
			undo: []string{"files", "--home", l.Home, sid, "--undo"},
			lint: []string{"lint", "--home", l.Home, "--project", l.CWD, "--remove-leftovers"}, roots: []string{dir}}
	}},
}

// memscope is killed (SIGKILL) at random points of a prune, an undo and
// a file-history rewind. Whatever the point: every file of the user's is
// exactly as before or as after (never torn); the next start (lint
// --remove-leftovers, in a new process) finds and removes every copy and
// empty folder the killed one left; and the journal still undoes what
// landed: one undo brings the data back exactly as before the killed
// command (an undo killed half way is finished by running it again).
func TestKill9DuringWrites(t *testing.T) {
	t.Parallel()
	rng := killRand(t, "kills memscope at random points of prune, undo and a rewind")
	kills := testenv.Size(t, 40, 40)
	for _, op := range killOps {
		t.Run(op.name, func(t *testing.T) {
			// The states before and after, and how long the command runs.
			ref := op.setup(t, t.TempDir())
			before := ref.read()
			start := time.Now()
			childRun(t, ref.roots[0], ref.args...)
			took := time.Since(start)
			after := ref.read()
			if equalMaps(before, after) {
				t.Fatalf("%v changes nothing to kill", ref.args)
			}
			var landedNone, landedAll, mixed int
			for i := range kills {
				dir := t.TempDir()
				c := op.setup(t, dir)
				killChild(t, dir, rng, took, c.args...)
				got := c.read()
				for p := range union(before, after) {
					g, b, a := orAbsent(got, p), orAbsent(before, p), orAbsent(after, p)
					if g != b && g != a {
						t.Fatalf("kill %d: %s is torn: neither before nor after\n%q", i, p, g)
					}
				}
				switch {
				case equalMaps(got, before):
					landedNone++
				case equalMaps(got, after):
					landedAll++
				default:
					mixed++
				}
				// The next start finds and removes what the killed one left.
				childRun(t, dir, c.lint...)
				if left := ownLeftovers(c.roots); len(left) > 0 {
					t.Fatalf("kill %d: after lint --remove-leftovers: %q", i, left)
				}
				// What landed can be undone exactly; a killed undo is
				// finished by running it again.
				switch {
				case c.again && !equalMaps(got, after):
					if out, _ := childRun(t, dir, c.args...); !equalMaps(c.read(), after) {
						t.Fatalf("kill %d: the undo run again does not finish it:\n%s", i, out)
					}
				case !c.again && !equalMaps(got, before):
					if out, _ := childRun(t, dir, c.undo...); !equalMaps(c.read(), before) {
						t.Fatalf("kill %d: undo does not bring back the state before:\n%s", i, out)
					}
				}
			}
			t.Logf("%d kills within %v: %d before anything landed, %d after all, %d part way", kills, took, landedNone, landedAll, mixed)
		})
	}
}

// killRand skips a kill test unless long tests are on (what says what
// it does), and returns its random source, the seed logged so a failing
// run can be repeated.
func killRand(t *testing.T, what string) *rand.Rand {
	t.Helper()
	if !testenv.Long() {
		t.Skipf("long test (%s=1): %s", testenv.Var, what)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	return rand.New(rand.NewPCG(seed, 1))
}

// killChild runs memscope args in a child that sees only dir and
// SIGKILLs it at a random point: up to half again took, the time a whole
// run took (a loaded machine starts the child later than it did the
// reference).
func killChild(t *testing.T, dir string, rng *rand.Rand, took time.Duration, args ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childVar+"="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Duration(rng.Int64N(int64(took)*3/2 + 1)))
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
}

func orAbsent(m map[string]string, k string) string {
	if v, ok := m[k]; ok {
		return v
	}
	return "<absent>"
}

func union(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func equalMaps(a, b map[string]string) bool {
	for k := range union(a, b) {
		if orAbsent(a, k) != orAbsent(b, k) {
			return false
		}
	}
	return true
}
