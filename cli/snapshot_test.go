package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// snapshotNow is the present of every snapshot run: the generated homes'
// "now" (scripts/memscope-gen's baseTime), so ages come out as they were written.
var snapshotNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// snapshotVersion is the version the commands are told they are; the
// snapshots show it as $VERSION.
const snapshotVersion = "0.0.0-snapshot"

// snapshotRootLen is the length of the folder every snapshot home lives
// in. Outputs show it as $ROOT, but sizes and column widths count its
// real characters (prompt counts the "Contents of PATH" lines), so it is
// padded to the same length on every machine.
const snapshotRootLen = 120

// snapCase is one command line whose output is kept as a snapshot.
type snapCase struct {
	// name is the snapshot's file name under testdata/snapshot/<home>/.
	name string
	args []string
}

// snapHome is a home the commands run on, and the command lines for it.
type snapHome struct {
	name string
	// ro run in order on the home at roDir (and on fresh --demo homes),
	// which must come out of them unchanged; rw run in order on a copy at
	// rwDir and may write.
	ro, rw       []snapCase
	roDir, rwDir string
	// after has what to do after some rw cases, by name.
	after map[string]func(t *testing.T)
	// stdin has what some ro cases read on stdin, by name.
	stdin map[string]string
}

// TestCommandSnapshot runs every command, as text and --json, on the
// demo home, testdata/home and a generated home, and compares what each
// prints (stdout, stderr, exit code) with testdata/snapshot. Moving code
// must leave these byte-identical; a deliberate change regenerates them
// with `go test -run TestCommandSnapshot -update` in the same commit.
func TestCommandSnapshot(t *testing.T) {
	r := newSnapRunner(t)
	// --demo homes are materialized under os.MkdirTemp(""): keep them
	// under the root so they are normalized like the rest.
	t.Setenv("TMPDIR", filepath.Join(r.base, "tmp"))
	for _, dir := range []string{"tmp", "user", "cwd"} {
		mkdirAll(t, filepath.Join(r.base, dir))
	}
	// Text reports print local times (trash): pin the zone.
	local := time.Local
	time.Local = time.UTC
	t.Cleanup(func() { time.Local = local })

	homes := []snapHome{demoSnapHome(t, r), testdataSnapHome(t, r), genSnapHome(t, r), provSnapHome(t, r)}
	checkCoverage(t, homes)
	want := map[string]bool{}
	check := func(name string, args []string, stdin string) {
		want[name] = true
		t.Run(strings.TrimPrefix(name, "snapshot/"), func(t *testing.T) {
			golden.RequireEqual(goldenTB{t, name}, r.run(t, args, stdin))
		})
	}
	for _, h := range homes {
		before := treeDigest(t, h.roDir)
		for _, c := range h.ro {
			check("snapshot/"+h.name+"/"+c.name, c.args, h.stdin[c.name])
		}
		sameTree(t, h.name+": after the read-only commands", before, treeDigest(t, h.roDir))
		for _, c := range h.rw {
			before := modTimes(t, h.rwDir)
			check("snapshot/"+h.name+"/"+c.name, c.args, "")
			stampWrites(t, h.rwDir, before)
			if after := h.after[c.name]; after != nil {
				after(t)
			}
		}
	}
	if r.demoFlag.Root == "" {
		t.Error("no case ran with --demo")
	} else {
		sameTree(t, "the --demo home: after the --demo commands", r.demoFlagTree, treeDigest(t, r.demoFlag.Root))
	}
	for _, c := range globalSnapCases() {
		check("snapshot/global/"+c.name, c.args, "")
	}
	checkStaleSnapshots(t, want)
}

// globalSnapCases are the command lines that read no home: help, the
// help of every command, the version and an unknown command.
func globalSnapCases() []snapCase {
	c := []snapCase{
		{"help", []string{"help"}},
		{"help.flag", []string{"--help"}},
		{"version", []string{"--version"}},
		{"unknown", []string{"no-such-command"}},
		{"completion.bash", []string{"completion", "bash"}},
		{"completion.zsh", []string{"completion", "zsh"}},
		{"completion.fish", []string{"completion", "fish"}},
		{"man", []string{"man"}},
		{"config.path", []string{"config", "path"}},
		{"config.show", []string{"config", "show"}},
		{"config.show.json", []string{"config", "show", "--json"}},
	}
	for _, n := range sortedCommandNames() {
		c = append(c, snapCase{"help." + n, []string{"help", n}})
	}
	return c
}

func sortedCommandNames() []string {
	names := make([]string, 0, len(commands))
	for _, c := range commands {
		names = append(names, c.name)
	}
	sort.Strings(names)
	return names
}

// goldenTB names a golden file after the snapshot instead of the test.
type goldenTB struct {
	testing.TB
	name string
}

func (g goldenTB) Name() string { return g.name }

// newSnapRunner makes the root: a new folder whose path is
// snapshotRootLen long, the test's temporary folder padded with a
// folder named x...x.
func newSnapRunner(t *testing.T) *snapRunner {
	base, root := testroot.Padded(t, snapshotRootLen)
	r := &snapRunner{base: base, hashes: map[string]string{}, rootRE: root}
	tmp := filepath.Dir(base)
	r.slugRE = regexp.MustCompile(regexp.QuoteMeta(model.Slug(tmp)) + "-x+")
	return r
}

// snapRunner runs command lines in the fake environment under base.
type snapRunner struct {
	base           string
	rootRE, slugRE *regexp.Regexp
	// hashes names the file-history path hashes of the files the homes'
	// sessions track: they hash absolute paths, which are under base.
	hashes map[string]string
	// fresh are ids a command made up (the records compact --out
	// appends), in the order it made them.
	fresh []string
	// demoFiles are the files of a materialized demo, relative to its
	// root, whose hashes a --demo run may show.
	demoFiles []string
	// demoFlag is the home --demo runs read (demoFlagHome), and what it
	// held when written; demoUsed says the last run opened it.
	demoFlag     demo.Layout
	demoFlagTree map[string]string
	demoUsed     bool
}

// env is the fake outside world of a snapshot run: a fixed clock, no
// environment variables, a user home and working folder that hold
// nothing, and --demo's home (demoFlagHome).
func (r *snapRunner) env(t *testing.T, stdout, stderr *bytes.Buffer) *env {
	user := filepath.Join(r.base, "user")
	cwd := filepath.Join(r.base, "cwd")
	e := &env{
		stdout:  stdout,
		stderr:  stderr,
		version: snapshotVersion,
		// hooks names the memscope it installs.
		executable: func() (string, error) { return "/usr/local/bin/memscope", nil },
		getenv:     func(string) string { return "" },
		userHome:   func() (string, error) { return user, nil },
		getwd:      func() (string, error) { return cwd, nil },
		// The generated home's first process file is a client running
		// now; every other pid is gone, whatever runs on the machine.
		alive:    func(pid int) bool { return pid == 41001 },
		now:      func() time.Time { return snapshotNow },
		demoHome: func(now time.Time) (demo.Layout, func(), error) { return r.demoFlagHome(t, now), func() {}, nil },
	}
	// Nothing outside base is read: a project path a fixture names
	// (testdata/home's beta project, scripts/memscope-gen's /home/dev/work/...)
	// may exist on the machine with its own CLAUDE.md.
	e.root = model.MountFS(nil, filepath.ToSlash(r.base), os.DirFS(r.base))
	return e
}

// demoFlagDigits stand for the random part of a --demo home's folder
// name (os.MkdirTemp's "memscope-demo-" and 1 to 10 digits): its
// length shows in sizes and widths like the root's, so the snapshots
// are taken with 10 digits.
const demoFlagDigits = "4000000000"

// demoFlagHome is the home every --demo run reads: the demo
// materialized once, where the command itself would write it (the
// temporary folder under the root) and as it would (with the run's
// clock, its folders left at the wall clock's time). The --demo cases
// only read (TestCommandSnapshot checks the folder is unchanged after
// them), so they share it instead of writing a demo each; the command's
// own materializing is TestStatFallsBackToDemoHome's and
// TestStatDemoBannerDoesNotClaimAMissingHome's.
func (r *snapRunner) demoFlagHome(t *testing.T, now time.Time) demo.Layout {
	t.Helper()
	r.demoUsed = true
	if r.demoFlag.Root == "" {
		l, err := demo.Materialize(filepath.Join(r.base, "tmp", "memscope-demo-"+demoFlagDigits), now)
		if err != nil {
			t.Fatal(err)
		}
		r.demoFlag = l
		r.demoFlagTree = treeDigest(t, l.Root)
	}
	return r.demoFlag
}

// run runs one command line and renders what it did, normalized.
func (r *snapRunner) run(t *testing.T, args []string, stdin string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := r.env(t, &stdout, &stderr)
	e.stdin = strings.NewReader(stdin)
	r.demoUsed = false
	code := run(e, args)
	digits := ""
	if r.demoUsed {
		digits = demoFlagDigits
	} else if slices.Contains(args, "--demo") {
		t.Fatalf("memscope %s: no --demo home was opened", quoteArgs(args))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "$ memscope %s\nexit %d\n--- stdout\n%s--- stderr\n%s", quoteArgs(args), code, stdout.String(), stderr.String())
	return r.normalize(b.String(), digits)
}

// quoteArgs prints args as a shell would need them.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " \t\"'$\\?") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// fingerprintRE finds a file-restore plan's fingerprint, which hashes the
// targets' absolute paths.
var fingerprintRE = regexp.MustCompile(`("fingerprint": "|--plan |fingerprint )[0-9a-f]{16}`)

// secretIDRE matches the ids of secrets findings (a hash of the file's
// path, which holds the root) and of scrubs (which end in the plan's
// fingerprint).
var secretIDRE = regexp.MustCompile(`\bs[0-9a-f]{9}\b|\b(\d{8}-\d{6}-)[0-9a-f]{6}\b`)

// mayHoldSecretID reports whether s may hold a match of secretIDRE: an
// s and nine hex digits, or eight digits, a dash, six digits and a dash.
// The expression has no literal to look for first, so run on every
// output it was two thirds of normalize; this loop is a condition of a
// match (never false where the expression matches), not the match.
func mayHoldSecretID(s string) bool {
	isHex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
	all := func(t string, ok func(byte) bool) bool {
		for i := range len(t) {
			if !ok(t[i]) {
				return false
			}
		}
		return true
	}
	for i := range len(s) {
		switch {
		case s[i] == 's' && i+10 <= len(s) && all(s[i+1:i+10], isHex):
			return true
		case s[i] == '-' && i >= 15 && s[i-7] == '-' && all(s[i-6:i], isDigit) && all(s[i-15:i-7], isDigit):
			return true
		}
	}
	return false
}

// vaultPackedRE matches the vault's compressed sizes: the home's bytes
// hold the temporary root, whose letters change what flate makes of them.
var vaultPackedRE = regexp.MustCompile(`("(?:packBytes|stored|ratio)": )[0-9.e+-]+`)

// normalize replaces what changes from run to run and nothing else: the
// root (as a path and inside project slugs), the random digits of a
// --demo home, the path hashes and restore fingerprints derived from
// those, the ids compact --out makes up, the vault's compressed sizes,
// and the version.
func (r *snapRunner) normalize(s, demoDigits string) string {
	if demoDigits != "" {
		root := filepath.Join(r.base, "tmp", "memscope-demo-"+demoDigits)
		for _, rel := range r.demoFiles {
			s = strings.ReplaceAll(s, model.FileHistoryPathHash(filepath.Join(root, rel)), "#{demo/"+filepath.ToSlash(rel)+"}")
		}
		s = strings.ReplaceAll(s, demoDigits, "NNNNNNNNNN")
	}
	for i, id := range r.fresh {
		// The whole id, then its first block, which tables show.
		s = strings.ReplaceAll(s, id, fmt.Sprintf("new-id-%d", i+1))
		s = strings.ReplaceAll(s, format.ShortID(id), fmt.Sprintf("newid%03d", i+1))
	}
	for h, name := range r.hashes {
		s = strings.ReplaceAll(s, h, name)
	}
	// Each expression runs only where its literal part is: they have no
	// literal prefix, so each would otherwise scan every output.
	if strings.Contains(s, "fingerprint") || strings.Contains(s, "--plan ") {
		s = fingerprintRE.ReplaceAllString(s, "${1}$$FINGERPRINT")
	}
	if mayHoldSecretID(s) {
		s = secretIDRE.ReplaceAllString(s, "${1}$$ID")
	}
	if strings.Contains(s, `"packBytes": `) || strings.Contains(s, `"stored": `) || strings.Contains(s, `"ratio": `) {
		s = vaultPackedRE.ReplaceAllString(s, "${1}$$PACKED")
	}
	s = r.rootRE.ReplaceAllLiteralString(s, "$ROOT")
	s = r.slugRE.ReplaceAllLiteralString(s, "-$ROOT")
	return strings.ReplaceAll(s, snapshotVersion, "$VERSION")
}

// trackHashes names the path hashes of root/rel for each rel.
func (r *snapRunner) trackHashes(root string, rels []string) {
	for _, rel := range rels {
		abs := filepath.Join(root, rel)
		name, _ := filepath.Rel(r.base, abs)
		r.hashes[model.FileHistoryPathHash(abs)] = "#{" + filepath.ToSlash(name) + "}"
	}
}

// trackContentHashes names the SHA-256 of each file under home whose
// content holds the root's path (a transcript's cwd): it changes with
// the temporary folder. The name is the file's path in its home, so a
// command that prints another file's hash (or a wrong one) still fails.
func (r *snapRunner) trackContentHashes(t *testing.T, home string) {
	t.Helper()
	err := filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(data, []byte(r.base)) {
			return err
		}
		rel, _ := filepath.Rel(home, p)
		sum := sha256.Sum256(data)
		r.hashes[hex.EncodeToString(sum[:])] = "#sha256{" + filepath.ToSlash(rel) + "}"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkCoverage fails for a registered command some home does not run
// both as text and as JSON.
func checkCoverage(t *testing.T, homes []snapHome) {
	t.Helper()
	for _, name := range sortedCommandNames() {
		for _, h := range homes {
			var text, js bool
			for _, c := range append(slices.Clip(h.ro), h.rw...) {
				if len(c.args) == 0 || c.args[0] != name {
					continue
				}
				if isJSONCase(c.args) {
					js = true
				} else {
					text = true
				}
			}
			if !hasJSONFlag(name) {
				// A command without --json (man, completion) is
				// covered by its text alone.
				js = true
			}
			if homeless(name) {
				// It reads no home: the global cases cover it.
				text, js = true, true
			}
			if !text || !js {
				t.Errorf("command %q is not in the %s snapshot as text and as JSON (text %v, json %v): add it to snapshot_homes_test.go", name, h.name, text, js)
			}
		}
	}
}

// hasJSONFlag reports whether command name takes --json.
func hasJSONFlag(name string) bool {
	e := &env{table: commands}
	return commandFlags(e, e.lookup(name)).Lookup("json") != nil
}

// homeless reports whether command name reads no home (it has no
// --home flag): the global snapshot cases cover it.
func homeless(name string) bool {
	e := &env{table: commands}
	return commandFlags(e, e.lookup(name)).Lookup("home") == nil
}

func isJSONCase(args []string) bool {
	for i, a := range args {
		if a == "--json" || a == "--format" && i+1 < len(args) && args[i+1] == "json" {
			return true
		}
	}
	return false
}

// checkStaleSnapshots fails for a stored snapshot no case produces (a
// renamed or dropped case); -update removes them.
func checkStaleSnapshots(t *testing.T, want map[string]bool) {
	t.Helper()
	var stale []string
	err := filepath.WalkDir(filepath.Join("testdata", "snapshot"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel("testdata", p)
		if err != nil {
			return err
		}
		if name, ok := strings.CutSuffix(filepath.ToSlash(rel), ".golden"); !ok || !want[name] {
			stale = append(stale, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(stale)
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		for _, p := range stale {
			if err := os.Remove(p); err != nil {
				t.Error(err)
			}
		}
		return
	}
	if len(stale) > 0 {
		t.Errorf("snapshots no case produces (rerun with -update to remove them):\n%s", strings.Join(stale, "\n"))
	}
}

// treeDigest maps every file and link under dir to its content (a link
// to its target), to check that read-only commands wrote nothing.
func treeDigest(t *testing.T, dir string) map[string]string {
	t.Helper()
	m, err := digestTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// modTimes maps every file and folder under dir to its modification time.
func modTimes(t *testing.T, dir string) map[string]time.Time {
	t.Helper()
	m := map[string]time.Time{}
	walkDeepestFirst(t, dir, func(p string, d fs.DirEntry) {
		info, err := d.Info()
		if err != nil {
			t.Fatal(err)
		}
		m[p] = info.ModTime()
	})
	return m
}

// stampWrites gives what a command wrote under dir (new files and
// folders, changed times) the time of the run, snapshotNow, instead of the
// wall clock's: later commands judge ages by them (a memory put back by
// undo is fresh).
func stampWrites(t *testing.T, dir string, before map[string]time.Time) {
	t.Helper()
	for p, mt := range modTimes(t, dir) {
		if old, ok := before[p]; !ok || !old.Equal(mt) {
			if err := os.Chtimes(p, snapshotNow, snapshotNow); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func mkdirAll(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// mayHoldSecretID is never false where secretIDRE matches: random
// strings of the pieces the expression reads (an s, runs of hex digits
// and of digits, dashes, spaces), many of them matches, and the two
// forms themselves.
func TestMayHoldSecretIDIsAConditionOfTheMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	run := func(digits string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = digits[rng.IntN(len(digits))]
		}
		return string(b)
	}
	matched := 0
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(8) {
			switch rng.IntN(8) {
			case 6:
				b.WriteString("s" + run("0123456789abcdef", 9))
			case 7:
				b.WriteString(run("0123456789", 8) + "-" + run("0123456789", 6) + "-" + run("0123456789abcdef", 6))
			case 0:
				b.WriteString("s")
			case 1:
				b.WriteString(run("0123456789abcdef", 8+rng.IntN(3)))
			case 2:
				b.WriteString(run("0123456789", []int{6, 8, 7}[rng.IntN(3)]))
			case 3:
				b.WriteString("-")
			case 4:
				b.WriteString(" ")
			default:
				b.WriteString(run("sx-_", 1))
			}
		}
		s := b.String()
		if secretIDRE.MatchString(s) {
			matched++
			if !mayHoldSecretID(s) {
				t.Fatalf("secretIDRE matches %q, mayHoldSecretID says no", s)
			}
		}
	}
	for _, s := range []string{"id s0123abcde here", "20261122-120000-abcdef"} {
		if !secretIDRE.MatchString(s) || !mayHoldSecretID(s) {
			t.Errorf("%q: match %v, may %v", s, secretIDRE.MatchString(s), mayHoldSecretID(s))
		}
	}
	if matched < 1000 {
		t.Errorf("only %d of the random strings matched: the test checks too little", matched)
	}
	if mayHoldSecretID("no id in this output at all, 2026-11-22") {
		t.Error("mayHoldSecretID is true for a text that holds no id")
	}
}
