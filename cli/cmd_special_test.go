package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/guard"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/scripts/memscope-hostile/hostilehome"
)

// childVar makes the test binary run memscope itself (see TestMain):
// commands that could hang or run away are run in their own process,
// under internal/guard's limits, never in the test's.
const childVar = "MEMSCOPE_TEST_CHILD_ROOT"

// TestMain runs memscope when childVar is set: the value is the only
// folder the child's root shows (as testroot does), and its user home.
func TestMain(m *testing.M) {
	if dir := os.Getenv(childVar); dir != "" {
		home := func() (string, error) { return dir, nil }
		childEnv := func(stdout, stderr io.Writer) *env {
			return &env{
				stdout:   stdout,
				stderr:   stderr,
				getenv:   func(string) string { return "" },
				userHome: home,
				getwd:    home,
				now:      func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
				root:     model.MountFS(nil, filepath.ToSlash(dir), model.DirFS(dir)),
				version:  "0.0.0-test",
			}
		}
		if batch := os.Getenv(batchVar); batch != "" {
			os.Exit(runBatchChild(batch, childEnv))
		}
		os.Exit(run(childEnv(os.Stdout, os.Stderr), os.Args[1:]))
	}
	// The tests run many commands in process, each making short-lived
	// garbage: at GOGC 400 (unless the environment sets one) the
	// collector runs a quarter as often. Heap bounds are measured at the
	// default (testenv.PeakHeap); the guarded children are processes of
	// their own, at the default too.
	testenv.RaiseGC(400)
	// The temporary folders (the guarded children's too) go where
	// testenv.Main puts them.
	before := os.Getenv("TMPDIR")
	doneTemp := testenv.UseTemp()
	var err error
	if os.Getenv("TMPDIR") != before {
		// testenv's folder is this binary's alone: a short name of one
		// length there (replay --lost cuts paths over 100 characters,
		// and TestReplayLostGoldens shows the shared demo's).
		shared.dir = filepath.Join(os.TempDir(), "s")
		err = os.Mkdir(shared.dir, 0o700)
	} else {
		shared.dir, err = os.MkdirTemp("", "memscope-cli-shared-")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if msg := checkSharedDemo(); msg != "" {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		code = max(code, 1)
	}
	os.RemoveAll(shared.dir)
	doneTemp()
	os.Exit(code)
}

// batchVar holds, as JSON, the commands a child runs one after the other
// (runGuardedBatch): one process for many commands, so a test that runs
// every command on many homes does not start a process for each.
const batchVar = "MEMSCOPE_TEST_CHILD_BATCH"

// batchMark starts the lines a batch child writes between its commands.
const batchMark = "\x1ememscope-batch "

// runBatchChild runs the commands of batch (JSON), each with its output
// (stdout and stderr) between a begin line and an end line that gives
// its exit code and how long it ran.
func runBatchChild(batch string, childEnv func(stdout, stderr io.Writer) *env) int {
	var cmds [][]string
	if err := json.Unmarshal([]byte(batch), &cmds); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	for i, args := range cmds {
		// A large heap the command before left is collected, so the
		// next command reuses its pages: the child's peak RSS is then
		// about its largest command's (154 MiB in the huge-files test;
		// 229 without), as if each ran alone. Collected, not given
		// back to the system (debug.FreeOSMemory: the same peak, but
		// each command faulted its pages in again, 1.1 of that test's
		// 4 s of system time). Not a small heap: a forced collection
		// and sweep before each command doubled the CPU of the special
		// files' batches.
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapSys-ms.HeapReleased > 64<<20 {
			runtime.GC()
		}
		fmt.Printf("\n%sbegin %d\n", batchMark, i)
		start := time.Now()
		code := run(childEnv(os.Stdout, os.Stdout), args)
		fmt.Printf("\n%send %d %d %d\n", batchMark, i, code, time.Since(start))
	}
	return 0
}

// batchResult is what one command of a batch did: guard's Result of
// it (Code, Elapsed; Killed is why the child was stopped while it ran,
// or "exit" for a child that died: a panic; PeakRSS is the peak of the
// child that ran it: at least the command's own) and what it printed.
type batchResult struct {
	guard.Result
	Out string
}

// runGuardedBatch runs the commands cmds in child processes that see
// only dir, as many in each as run to their end: l.Timeout bounds each
// command (as runGuarded's does) and l.MaxRSS each child, whose peak is
// at least every command's. A command that outgrows either, or kills its
// child, is the one that began and did not end; the commands after it
// run in a new child.
func runGuardedBatch(t *testing.T, dir string, l guard.Limits, cmds [][]string) []batchResult {
	t.Helper()
	var out []batchResult
	for len(out) < len(cmds) {
		part := runBatchOnce(t, dir, l, cmds[len(out):])
		for _, r := range part {
			out = append(out, r)
			if r.Killed != "" {
				break
			}
		}
	}
	return out
}

// runBatchOnce runs cmds in one child: the results up to the first
// command that did not end.
func runBatchOnce(t *testing.T, dir string, l guard.Limits, cmds [][]string) []batchResult {
	t.Helper()
	js, err := json.Marshal(cmds)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childVar+"="+dir, batchVar+"="+string(js))
	whole := l
	whole.Timeout = l.Timeout * time.Duration(min(len(cmds), 3))
	res, err := guard.Run(cmd, whole)
	if err != nil {
		t.Fatalf("batch: %v", err)
	}
	var out []batchResult
	cur := -1
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(res.Stdout), "\n") {
		rest, ok := strings.CutPrefix(line, batchMark)
		if !ok {
			b.WriteString(line)
			continue
		}
		var i, code int
		var d time.Duration
		switch {
		case strings.HasPrefix(rest, "begin "):
			if _, err := fmt.Sscanf(rest, "begin %d", &i); err == nil && i == len(out) {
				cur = i
				b.Reset()
			}
		case strings.HasPrefix(rest, "end "):
			if _, err := fmt.Sscanf(rest, "end %d %d %d", &i, &code, &d); err == nil && i == cur {
				r := batchResult{Result: guard.Result{Code: code, Elapsed: d, PeakRSS: res.PeakRSS}, Out: b.String()}
				if d > l.Timeout {
					r.Killed = "timeout"
				}
				out = append(out, r)
				cur = -1
			}
		}
	}
	if len(out) < len(cmds) {
		// The command that began and did not end (or the first, when
		// the child ended before it began).
		r := batchResult{Result: guard.Result{Code: res.Code, Elapsed: res.Elapsed, Killed: res.Killed, PeakRSS: res.PeakRSS}, Out: b.String() + string(res.Stderr)}
		if r.Killed == "" {
			r.Killed = "exit"
		}
		out = append(out, r)
	}
	return out
}

// runGuarded runs memscope args in a child process that sees only dir,
// within l.
func runGuarded(t *testing.T, dir string, l guard.Limits, args ...string) guard.Result {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childVar+"="+dir)
	res, err := guard.Run(cmd, l)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return res
}

// specialNamedBy is, for each place hostilehome's special scenario can
// spoil, a command whose output must name the file and its kind.
var specialNamedBy = map[string]string{
	"memory-index":  "lint",
	"memory-file":   "lint",
	"team-memory":   "stat",
	"journal":       "undo",
	"settings":      "prompt",
	"history":       "stat",
	"transcript":    "stat",
	"subagent":      "stat",
	"paste":         "stat",
	"claude-md":     "prompt",
	"rule":          "prompt",
	"file-history":  "files",
	"tool-result":   "",
	"trash":         "",
	"live-session":  "",
	"config-backup": "",
}

// Where memscope expects a regular file, a named pipe or a link to
// /dev/zero or /dev/urandom makes no command hang or grow: each finishes
// within seconds and bounded memory, exits 0 or 1, and the command that
// reads the file names it and its kind as a problem. Every place is
// spoiled in its own home, so an earlier one cannot hide a later one.
//
// By default a sample runs: each place spoiled once, by a named pipe or
// a link to /dev/zero in turn (each kind at half the places), and in
// each home the command that must name the place and every third of the
// others, shifted by place and kind, so each command meets each kind at
// about a sixth of the places; MEMSCOPE_LONG=1 runs every command in
// every home, of every kind (a home is about 80 files and folders).
func TestHostileSpecialFiles(t *testing.T) {
	t.Parallel()
	kinds := hostilehome.SpecialKinds
	if !testenv.Long() {
		kinds = kinds[:2]
		t.Logf("kinds %v at alternate places (%s=1 runs each at every place, and %v)", kinds, testenv.Var, hostilehome.SpecialKinds[2:])
	}
	limits := guard.Limits{Timeout: 10 * time.Second, MaxRSS: 400 << 20}
	for ki, kind := range kinds {
		for pi, place := range hostilehome.SpecialPlaces() {
			if !testenv.Long() && pi%len(kinds) != ki {
				continue
			}
			t.Run(kind+"/"+place, func(t *testing.T) {
				dir := t.TempDir()
				home := filepath.Join(dir, "home")
				res, err := hostilehome.Write(home, hostilehome.Special, hostilehome.Options{Kind: kind, Place: place})
				if err != nil {
					t.Fatal(err)
				}
				rel := res.Special[place]
				// A link to a device is named by its kind where memscope
				// reads the file, and as a link out of the home where it
				// walks a folder (model.StatInside).
				want := []string{"named pipe"}
				if kind != hostilehome.KindFIFO {
					want = []string{"character device", "outside the home (not followed)"}
				}
				named := map[string]bool{}
				var cmds [][]string
				for ci, args := range hostileCommands(home, res, oddProject(hostilehome.Special)) {
					if testenv.Long() || args[0] == specialNamedBy[place] || (ci+pi+ki)%3 == 0 {
						cmds = append(cmds, args)
					}
				}
				results := runGuardedBatch(t, dir, limits, cmds)
				for i, args := range cmds {
					r := results[i]
					out := r.Out
					if r.Killed != "" || r.Code < 0 || r.Code > 2 || strings.Contains(out, "panic:") {
						t.Errorf("%s: exit %d in %v, %s\noutput: %s", strings.Join(args, " "), r.Code, r.Elapsed, r.Killed, out)
						continue
					}
					for _, w := range want {
						if strings.Contains(out, w) && strings.Contains(out, filepath.Base(rel)) {
							named[args[0]] = true
						}
					}
				}
				if cmd := specialNamedBy[place]; cmd != "" && !named[cmd] {
					t.Errorf("%s does not name %s as %q (named by %v)", cmd, rel, want, named)
				}
			})
		}
	}
}

// On a home where a transcript line, a history line, MEMORY.md, a memory
// file, a paste, CLAUDE.md and a tool result are each a run of NUL bytes
// (1 GiB with MEMSCOPE_LONG=1, else 33 MiB: past the line and document
// limits, model.MaxLineBytes and MaxDocumentBytes; the 64 MiB limits of
// backups, journals and the disk cache only in long mode)
// and a frontmatter nests 3 000 deep, every command finishes within
// seconds, its memory stays bounded, and the lines after the runs are
// still read. Each command's time and its child's peak RSS are logged.
func TestHostileHugeFilesBoundedMemory(t *testing.T) {
	t.Parallel()
	size := int64(testenv.Size(t, 1<<30, model.MaxLineBytes+1<<20))
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	res, err := hostilehome.Write(home, hostilehome.Huge, hostilehome.Options{Size: size})
	if err != nil {
		t.Fatal(err)
	}
	limits := guard.Limits{Timeout: 60 * time.Second, MaxRSS: 250 << 20}
	// One child runs every command (runGuardedBatch): a child's peak
	// RSS is at least each of its commands', so the limit still holds
	// each, and the commands share one process's start and heap instead
	// of each faulting in its own (45 children: about 1 of the test's 7
	// CPU-s went to starting them and clearing their fresh pages). The
	// child collects what a command left before the next one starts,
	// so its peak is about its largest command's (154 MiB; 229 without).
	// compact --out copies the transcript (NUL run and all) and appends
	// its records, streaming: memory stays bounded whatever its size.
	// The record after the transcript's NUL line is the session's last.
	//
	// By default the commands run once each: not again on the second
	// project (oddProject, a project this home does not have, so only
	// the home-wide reads repeat: overview's alone was 1 CPU-s), unless
	// that is the command's only form; MEMSCOPE_LONG=1 runs both.
	out := filepath.Join(dir, "compacted.jsonl")
	odd := oddProject(hostilehome.Huge)
	all := hostileCommands(home, res, odd)
	var cmds [][]string
	for _, args := range all {
		if !testenv.Long() && slices.Contains(args, odd) && slices.ContainsFunc(all, func(other []string) bool {
			return other[0] == args[0] && !slices.Contains(other, odd)
		}) {
			continue
		}
		cmds = append(cmds, args)
	}
	cmds = append(cmds,
		[]string{"compact", res.SessionID, "--home", home, "--out", out},
		[]string{"sessions", "--home", home, "--json"})
	results := runGuardedBatch(t, dir, limits, cmds)
	for i, args := range cmds {
		r := results[i]
		t.Logf("%-40s %v", strings.Join(args[:min(2, len(args))], " "), r)
		if r.Killed != "" || r.Code < 0 || r.Code > 2 || strings.Contains(r.Out, "panic:") {
			t.Errorf("%s: %v\noutput: %s", strings.Join(args, " "), r, r.Out)
		}
	}
	tr, _ := filepath.Glob(filepath.Join(home, "projects", "*", res.SessionID+".jsonl"))
	src, serr := os.Stat(strings.Join(tr, ""))
	dst, derr := os.Stat(out)
	if r := results[len(cmds)-2]; r.Code != 0 || serr != nil || derr != nil || dst.Size() < src.Size() {
		t.Errorf("compact --out: %v (%v, %v)\noutput: %s", r, serr, derr, r.Out)
	}
	if r := results[len(cmds)-1]; !strings.Contains(r.Out, "too-large") || !strings.Contains(r.Out, `"last": "2026-11-22T12:00:11Z"`) {
		t.Errorf("sessions --json does not report the NUL line as too large, or lost the record after it:\n%s", r.Out)
	}
}

// hostilehome's tarbomb: a small .tar.gz whose one entry expands past the
// archive limits. Opened with --home, it is refused before it fills the
// temporary folder: the command ends within seconds and bounded memory,
// names the entry, and leaves nothing extracted behind.
func TestHostileTarBomb(t *testing.T) {
	t.Parallel()
	size := int64(testenv.Size(t, 2<<30, int(model.DefaultTarLimits.Entry)+1<<20))
	dir := t.TempDir()
	res, err := hostilehome.Write(filepath.Join(dir, "home"), hostilehome.TarBomb, hostilehome.Options{Size: size})
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(res.Archive)
	if err != nil || st.Size() > size/100 {
		t.Fatalf("the bomb is %v bytes on disk for a %d-byte entry (%v)", st, size, err)
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "stat", "--home", res.Archive)
	cmd.Env = append(os.Environ(), childVar+"="+dir, "TMPDIR="+tmp)
	r, err := guard.Run(cmd, guard.Limits{Timeout: 60 * time.Second, MaxRSS: 250 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("stat --home bomb: %v", r)
	if r.Killed != "" || r.Code == 0 || !strings.Contains(string(r.Stderr), res.Bomb) {
		t.Errorf("stat --home on the bomb: %v\nstderr: %s", r, r.Stderr)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in the temporary folder: %v", left)
	}
}
