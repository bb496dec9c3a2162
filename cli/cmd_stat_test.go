package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/inventory"
	"github.com/memscope/memscope/internal/testroot"
)

// testEnv runs commands with captured output, no environment, a fixed
// clock, a root that shows only the test's temporary folders and the
// shared demo home (and the home a command opens), never the machine's,
// and a writer that refuses (and fails the test on) a write outside the
// temporary folders (a fake home's path or testdata) or in the shared
// demo home, which is --demo's (sharedDemo). The whole temporary folder
// is allowed, as a subtest writes where its parent made its folders.
func testEnv(t *testing.T) (*env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errb bytes.Buffer
	home := t.TempDir()
	return &env{
		stdout:   &out,
		stderr:   &errb,
		getenv:   func(string) string { return "" },
		userHome: func() (string, error) { return home, nil },
		getwd:    func() (string, error) { return home, nil },
		now:      func() time.Time { return testEnvNow },
		root:     testroot.New(t, shared.dir),
		writes:   testroot.ReadOnly(t, testroot.Writer(t, os.TempDir()), shared.dir),
		demoHome: sharedDemoHome(t),
		version:  "0.0.0-test",
	}, &out, &errb
}

// The numbers below were counted by hand from testdata/home (see the
// comments) and cross-checked with jq and python, not taken from stat.
func TestStatTestdataHome(t *testing.T) {
	e, out, errb := testEnv(t)
	if code := run(e, []string{"stat", "--home", "../testdata/home", "--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var r inventory.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("stat --json is not JSON: %v\n%s", err, out)
	}
	checks := []struct {
		name      string
		got, want int
	}{
		{"projects (-home-me-bad, -home-me-empty, -tmp-rc-work-beta)", r.Projects, 3},
		{"memoryDirs", r.MemoryDirs, 1},
		// prefers_terse, legacy_flat, bad_yaml, no_frontmatter, crlf; loop.md is a symlink loop (reported),
		// .trash/, logs/ and team/ are not topic files.
		{"memoryFiles", r.MemoryFiles, 5},
		{"invalidMemoryFiles (bad_yaml)", r.InvalidMemoryFiles, 1},
		{"teamMemoryFiles", r.TeamMemoryFiles, 1},
		{"indexLines", r.IndexLines, 6},
		{"indexEntries", r.IndexEntries, 3},
		// 5 current-format lines + 1 seed-format line; a broken line, a blank line and a partial tail are not entries.
		{"historyEntries", r.HistoryEntries, 6},
		{"pastes.referenced", r.Pastes.Referenced, 4},
		{"pastes.resolved (one paste-cache, one seed paste-store)", r.Pastes.Resolved, 2},
		{"pastes.missing", r.Pastes.Missing, 1},
		{"pastes.hashMismatch", r.Pastes.HashMismatch, 1},
		{"pastes.files", r.Pastes.Files, 4},
		{"pastes.orphans", r.Pastes.Orphans, 1},
		{"pastes.inline", r.Pastes.Inline, 1},
		{"transcripts (2 real + bad + empty)", r.Transcripts, 4},
		{"subagentTranscripts", r.SubagentTranscripts, 1},
		{"seedTranscripts", r.SeedTranscripts, 1},
		{"toolResultFiles", r.ToolResultFiles, 1},
		// 41 + 101 lines of the real transcripts, 9 good lines of the bad one, 2 subagent, 1 seed.
		{"records", r.Records, 154},
		{"compactBoundaries (2 real + 1)", r.CompactBoundaries, 3},
		{"microcompactBoundaries", r.MicrocompactBoundaries, 1},
		{"recordTypes[some-future-record] (unknown types are kept)", r.RecordTypes["some-future-record"], 1},
		{"recordTypes[api-request-blob] (jq: 2 + 9)", r.RecordTypes["api-request-blob"], 11},
		{"recordTypes[assistant] (3 + 4 + 2 + 1 subagent)", r.RecordTypes["assistant"], 10},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	// Every bad input is reported with its file and line.
	want := []string{
		"history.jsonl:5:",
		"history.jsonl:9:",
		"9d2c6a10-0000-4000-8000-000000000001.jsonl:4:",
		"9d2c6a10-0000-4000-8000-000000000001.jsonl:10:",
		"9d2c6a10-0000-4000-8000-000000000001.jsonl:11:",
		"9d2c6a10-0000-4000-8000-000000000001.jsonl:12:",
		"bad_yaml.md:3:", // the line of the unclosed "["
		"loop.md:",
	}
	var all []string
	for _, m := range r.Malformed {
		all = append(all, m.Error())
	}
	joined := strings.Join(all, "\n")
	for _, w := range want {
		if !strings.Contains(joined, w) {
			t.Errorf("malformed does not report %q; got:\n%s", w, joined)
		}
	}
	if len(r.Malformed) != len(want) {
		t.Errorf("%d problems reported, want %d:\n%s", len(r.Malformed), len(want), joined)
	}
	// The message counts duplicated usage once: the bad transcript writes
	// msg_1/req_1 twice with 10 input tokens each.
	if r.Usage.InputTokens == 0 {
		t.Error("usage not summed")
	}
}

func TestStatTextOutput(t *testing.T) {
	e, out, _ := testEnv(t)
	if code := run(e, []string{"stat", "--home", "../testdata/home"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"projects      3", "4 referenced: 2 resolved, 1 missing, 1 hash mismatch", "problems      8"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
}

func TestStatFallsBackToDemoHome(t *testing.T) {
	e, out, errb := testEnv(t)
	e.demoHome = nil // the command writes its own
	if code := run(e, []string{"stat", "--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if !strings.Contains(errb.String(), "embedded demo home") {
		t.Errorf("the demo fallback must be announced on stderr, got %q", errb)
	}
	var r inventory.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	// The demo: 3 projects, 2 memory folders, the checkout session's 4
	// compactions plus the notes session's 1.
	if !r.Demo || r.Projects != 3 || r.MemoryDirs != 2 || r.CompactBoundaries != 5 || r.MicrocompactBoundaries != 1 {
		t.Errorf("demo stat: demo=%v projects=%d memoryDirs=%d compact=%d micro=%d", r.Demo, r.Projects, r.MemoryDirs, r.CompactBoundaries, r.MicrocompactBoundaries)
	}
	if r.Pastes.Missing != 1 || r.Pastes.HashMismatch != 1 || r.Pastes.Orphans != 1 {
		t.Errorf("demo pastes: %+v", r.Pastes)
	}
}

func TestExplicitMissingHomeIsAnError(t *testing.T) {
	e, _, errb := testEnv(t)
	if code := run(e, []string{"stat", "--home", "/nonexistent/claude"}); code != 2 {
		t.Fatalf("exit %d, want 2 (input that cannot be read)", code)
	}
	if !strings.Contains(errb.String(), "/nonexistent/claude") {
		t.Errorf("error should name the folder: %q", errb)
	}
}

func TestVersionAndHelp(t *testing.T) {
	e, out, _ := testEnv(t)
	if run(e, []string{"--version"}) != 0 || out.String() != "memscope 0.0.0-test\n" {
		t.Errorf("--version: %q", out)
	}
	out.Reset()
	if run(e, []string{"help"}) != 0 || !strings.Contains(out.String(), "memscope stat") || !strings.HasPrefix(out.String(), "memscope 0.0.0-test ") {
		t.Errorf("help: %q", out)
	}
	// help about help is help (it exited 2: "unknown command --help").
	out.Reset()
	whole := ""
	if run(e, []string{"help"}) == 0 {
		whole = out.String()
	}
	for _, args := range [][]string{{"help", "--help"}, {"help", "-h"}, {"help", "help"}} {
		out.Reset()
		if code := run(e, args); code != 0 || out.String() != whole {
			t.Errorf("%v: exit %d, printed %q", args, code, out)
		}
	}
	out.Reset()
	if code := run(e, []string{"nope"}); code != 2 {
		t.Errorf("unknown command exit %d", code)
	}
}

// --demo was asked for: the banner must not say no home was found. The
// demo is written into a new temporary folder, removed when the command
// ends.
func TestStatDemoBannerDoesNotClaimAMissingHome(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	e, out, errb := testEnv(t)
	e.demoHome = nil // the command writes its own
	if code := run(e, []string{"stat", "--demo"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if !strings.Contains(out.String(), "embedded demo home") || strings.Contains(out.String(), "no Claude home") {
		t.Errorf("demo banner:\n%s", out)
	}
	if left, err := os.ReadDir(tmp); err != nil || len(left) != 0 {
		t.Errorf("left in the temporary folder: %v (%v)", left, err)
	}
}

// stat keeps its cache in the user's cache folder ($XDG_CACHE_HOME when
// set, else ~/.cache), never in the Claude home; --no-cache and the demo
// home write none; the second run prints what the first did.
func TestStatCacheFolder(t *testing.T) {
	cacheFiles := func(dir string) []string {
		m, _ := filepath.Glob(filepath.Join(dir, "memscope", "scan", "*.cache"))
		return m
	}
	home := "../testdata/home"
	e, out, errb := testEnv(t)
	user, _ := e.userHome()
	if code := run(e, []string{"stat", "--home", home, "--json", "--no-cache"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	first := out.String()
	if got := cacheFiles(filepath.Join(user, ".cache")); len(got) != 0 {
		t.Errorf("--no-cache wrote %v", got)
	}
	for i := range 2 {
		out.Reset()
		if code := run(e, []string{"stat", "--home", home, "--json"}); code != 0 || out.String() != first {
			t.Errorf("run %d with the cache: exit %d, output differs: %s (%s)", i+1, code, out, errb)
		}
	}
	if got := cacheFiles(filepath.Join(user, ".cache")); len(got) != 1 {
		t.Errorf("cache files in ~/.cache/memscope/scan: %v, want one", got)
	}
	xdg := t.TempDir()
	e.getenv = func(k string) string {
		if k == "XDG_CACHE_HOME" {
			return xdg
		}
		return ""
	}
	if code := run(e, []string{"stat", "--home", home}); code != 0 || len(cacheFiles(xdg)) != 1 {
		t.Errorf("with XDG_CACHE_HOME: exit %d, cache files %v", code, cacheFiles(xdg))
	}
	demoXDG := t.TempDir()
	e.getenv = func(k string) string {
		if k == "XDG_CACHE_HOME" {
			return demoXDG
		}
		return ""
	}
	if code := run(e, []string{"stat", "--demo"}); code != 0 || len(cacheFiles(demoXDG)) != 0 {
		t.Errorf("--demo: exit %d, cache files %v (a new temporary home each run: nothing to keep)", code, cacheFiles(demoXDG))
	}
	// A cache folder inside the Claude home is never written.
	claude := t.TempDir()
	os.MkdirAll(filepath.Join(claude, "projects"), 0o700)
	e.getenv = func(k string) string {
		if k == "XDG_CACHE_HOME" {
			return claude
		}
		return ""
	}
	if code := run(e, []string{"stat", "--home", claude}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if got := cacheFiles(claude); len(got) != 0 {
		t.Errorf("wrote a cache inside the Claude home: %v", got)
	}
}

// stat runs with the collector at statGCPercent unless GOGC is set (then
// the environment's stands), and puts the old target back when it is
// done. The target is read while the inventory runs, from the
// environment it asks (inventory.Options.Getenv).
func TestStatRaisesGCUnlessGOGCIsSet(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, gogc := range []string{"", "100"} {
		e, _, errb := testEnv(t)
		during := -1
		e.getenv = func(k string) string {
			if k == "GOGC" {
				return gogc
			}
			during = debug.SetGCPercent(100)
			debug.SetGCPercent(during)
			return ""
		}
		if code := run(e, []string{"stat", "--home", "../testdata/home", "--json", "--no-cache"}); code != 0 {
			t.Fatalf("exit %d: %s", code, errb)
		}
		checkRaisedGC(t, "stat", gogc, during, statGCPercent)
	}
}
