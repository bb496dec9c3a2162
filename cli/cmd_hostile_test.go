package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/scripts/memscope-hostile/hostilehome"
)

// hostileCommands are the read-only invocations of every subcommand on a
// hostile home: project pointed at the home's normal and odd projects,
// session at its transcript. Writing commands are covered by the symlink
// tests.
func hostileCommands(home string, res *hostilehome.Result, oddProject string) [][]string {
	p, s := res.Project, res.SessionID
	return [][]string{
		{"stat", "--home", home},
		{"doctor", "--home", home},
		{"lint", "--home", home, "--project", p},
		{"lint", "--home", home, "--project", oddProject},
		{"sessions", "--home", home},
		{"sessions", "--home", home, "--project", oddProject},
		{"prompt", "--home", home, "--project", p},
		{"prompt", "--home", home, "--project", oddProject},
		{"loads", "--home", home, "--project", p},
		{"loads", "--home", home, "--project", oddProject},
		{"replay", s, "--home", home},
		{"compact", s, "--home", home},
		{"compact", s, "--home", home, "--manual"},
		{"extract", s, "--home", home, "--project", p},
		{"prune", "--home", home, "--project", p, "--dry-run"},
		{"undo", "--home", home, "--project", p, "--list"},
		{"trash", "--home", home, "--project", p},
		{"cleanup", "--forecast", "--home", home},
		{"export", s, "--home", home, "--format", "md"},
		{"export", "--memory", "--home", home, "--project", p},
		{"files", "--home", home},
		{"files", s, "--home", home},
		{"watch", "--once", "--home", home},
		{"secrets", "--home", home},
		{"secrets", "--home", home, "--project", oddProject},
		{"secrets", "--home", home, "--scrub", "--idle", "0"},
		{"statusline", "--home", home}, // stdin: hostileStatusInput
		{"hook", "pre-tool-use"},       // stdin: not a tool event: decides nothing
		{"hooks", "status", "--home", home, "--project", oddProject},
		{"gate", "log"},
		{"origin", "--home", home, "--project", p},
		{"origin", "--home", home, "--project", oddProject},
		{"review", "--home", home, "--project", p},
		{"overview", "--home", home, "--project", p},
		{"overview", "--home", home, "--project", oddProject},
		{"completion", "values", "projects", "--home", home},
		{"completion", "values", "sessions", "--home", home},
		{"search", "e", "--home", home},
		{"search", "--regex", "(?s).", "--home", home, "--project", oddProject},
		{"vault", "sync", "--home", home, "--vault", home + "-vault"},
		{"vault", "list", "--home", home, "--vault", home + "-vault"},
		{"vault", "restore", s, "--home", home, "--vault", home + "-vault", "--dry-run"},
	}
}

// hostileStatusInput is the status line's stdin on a hostile home: the
// client's JSON naming its session's transcript and project.
func hostileStatusInput(home string, res *hostilehome.Result) string {
	tr, _ := filepath.Glob(filepath.Join(home, "projects", "*", res.SessionID+".jsonl"))
	in, _ := json.Marshal(map[string]any{"session_id": res.SessionID, "transcript_path": strings.Join(tr, ""), "cwd": res.Project,
		"workspace": map[string]string{"project_dir": res.Project}})
	return string(in)
}

// oddProjects are the startup directories of a hostile home's second
// project, as its transcripts and history name them.
func oddProject(sc hostilehome.Scenario) string {
	switch sc {
	case hostilehome.Escapes:
		return "/home/me/odd" + prefixBytes(hostilehome.Joined(hostilehome.EscapePayloads), 120)
	case hostilehome.Bidi:
		return "/home/me/odd" + prefixBytes(hostilehome.Joined(hostilehome.BidiPayloads), 120)
	}
	return "/home/me/new\nline\x1b]0;PWNED\x07"
}

// prefixBytes mirrors hostilehome's cut: at most n bytes at a rune start.
func prefixBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := 0
	for i := range s {
		if i > n {
			break
		}
		cut = i
	}
	return s[:cut]
}

// TestHostileCoversEveryCommand keeps hostileCommands in step with the
// registered subcommands (archive writes a copy of the home, so it is
// left to its own tests; man and config read no home).
func TestHostileCoversEveryCommand(t *testing.T) {
	covered := map[string]bool{"archive": true, "man": true, "config": true}
	for _, args := range hostileCommands("h", &hostilehome.Result{}, "p") {
		covered[args[0]] = true
	}
	for _, c := range commands {
		if !covered[c.name] {
			t.Errorf("command %s is not driven on hostile homes", c.name)
		}
	}
}

// Every command's text output (stdout and stderr) on a home full of
// escapes, bidi controls and odd names holds no byte a terminal would act
// on, and its --json output is valid JSON that escapes them all.
func TestHostileCommandOutput(t *testing.T) {
	t.Parallel()
	for _, sc := range []hostilehome.Scenario{hostilehome.Escapes, hostilehome.Bidi, hostilehome.NewlineNames} {
		home := filepath.Join(t.TempDir(), "home")
		res, err := hostilehome.Write(home, sc, hostilehome.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range hostileCommands(home, res, oddProject(sc)) {
			name := string(sc) + " " + strings.Join(args[:1], " ")
			e, out, errb := testEnv(t)
			e.stdin = strings.NewReader(hostileStatusInput(home, res))
			code := run(e, args)
			if code != 0 && code != 1 {
				t.Errorf("%s: exit %d: %s", name, code, errb)
			}
			checkTerminalSafe(t, name+" (stdout)", out.String())
			checkRowsWhole(t, name+" (stdout)", rowsPart(args[0], out.String()))
			checkTerminalSafe(t, name+" (stderr)", errb.String())

			e, out, errb = testEnv(t)
			e.stdin = strings.NewReader(hostileStatusInput(home, res))
			run(e, append(args, "--json"))
			checkJSONSafe(t, name+" --json", out.Bytes())
			checkTerminalSafe(t, name+" --json (stderr)", errb.String())
		}
	}
}

// checkTerminalSafe fails when out holds a control a terminal would act on.
func checkTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	if off, r, ok := hostilehome.ForbiddenInOutput(out); !ok {
		t.Errorf("%s: %U at byte %d: …%q…", what, r, off, out[max(0, off-40):min(len(out), off+20)])
	}
}

// checkJSONSafe fails unless out is a stream of valid JSON values whose
// raw bytes hold no control a terminal would act on: the content's
// controls must all be \u escapes.
func checkJSONSafe(t *testing.T, what string, out []byte) {
	t.Helper()
	if len(bytes.TrimSpace(out)) == 0 {
		return // the command reported an error on stderr instead
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Errorf("%s: not JSON: %v", what, err)
			return
		}
	}
	if !utf8.Valid(out) {
		t.Errorf("%s: not valid UTF-8", what)
	}
	checkTerminalSafe(t, what, string(out))
}

// The odd names of the newlinenames home come back exact in --json: the
// sanitizing is for terminals only.
func TestHostileNamesExactInJSON(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	res, err := hostilehome.Write(home, hostilehome.NewlineNames, hostilehome.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, out, errb := testEnv(t)
	if code := run(e, []string{"lint", "--home", home, "--project", res.Project, "--json"}); code > 1 {
		t.Fatalf("lint: exit %d: %s", code, errb)
	}
	got := collectStrings(t, out.Bytes())
	for _, odd := range hostilehome.OddNames {
		want := "odd_" + odd + ".md"
		if !got[want] && !containsSuffix(got, "/"+want) {
			t.Errorf("lint --json lost the exact name %q", want)
		}
	}

	e, out, errb = testEnv(t)
	if code := run(e, []string{"sessions", "--home", home, "--json"}); code > 1 {
		t.Fatalf("sessions: exit %d: %s", code, errb)
	}
	got = collectStrings(t, out.Bytes())
	for _, want := range []string{"sess1on\nbreak-\x1b[2J", "/home/me/new\nline\x1b]0;PWNED\x07"} {
		if !got[want] && !containsSuffix(got, want) {
			keys := make([]string, 0, len(got))
			for k := range got {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			t.Errorf("sessions --json lost the exact value %q (has %q)", want, keys)
		}
	}
}

// collectStrings gathers every string value of a JSON document.
func collectStrings(t *testing.T, data []byte) map[string]bool {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	out := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out[x] = true
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// containsSuffix reports whether some collected string ends with suffix.
func containsSuffix(set map[string]bool, suffix string) bool {
	for s := range set {
		if strings.HasSuffix(s, suffix) {
			return true
		}
	}
	return false
}

// splitNames are the odd names' parts on either side of their newline:
// wherever the first part is printed, the second must be on the same line.
var splitNames = [][2]string{{"odd_line", "break.md"}, {"sess1on", "break-"}, {"me/new", "line"}, {"dir", "name/inner"}}

// rowsPart is the part of a command's text output made of rows that name
// things. prompt and prune go on to print file text (the assembled prompt,
// a diff), where a newline the file holds is shown as a newline.
func rowsPart(cmd, out string) string {
	if cmd == "prompt" || cmd == "prune" {
		if i := strings.Index(out, "\n\n"); i >= 0 {
			return out[:i]
		}
	}
	return out
}

// checkRowsWhole fails when a name with a newline was printed across two
// lines of out.
func checkRowsWhole(t *testing.T, what, out string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		for _, sp := range splitNames {
			if strings.HasSuffix(line, sp[0]) || strings.HasSuffix(strings.TrimRight(line, " "), sp[0]) {
				t.Errorf("%s: a name was broken after %q: %q", what, sp[0], line)
			}
		}
	}
}

// Through the CLI, prune --apply and undo on a memory folder that links
// outside the home fail with a clear message and leave the targets as
// they were.
func TestHostileSymlinkCLIWrites(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	res, err := hostilehome.Write(home, hostilehome.SymlinksOut, hostilehome.Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := map[string][]byte{}
	for p := range res.Targets {
		before[p] = readFile(t, p)
	}
	for _, args := range [][]string{
		{"prune", "--home", home, "--project", hostilehome.LinkedProject, "--apply"},
		{"undo", "--home", home, "--project", hostilehome.LinkedProject},
	} {
		e, out, errb := testEnv(t)
		code := run(e, args)
		if args[0] == "prune" && (code == 0 || !strings.Contains(errb.String(), "symbolic link")) {
			t.Errorf("%v: exit %d, stderr %q, stdout %q", args, code, errb, out)
		}
		checkTerminalSafe(t, args[0]+" (stderr)", errb.String())
	}
	for p, data := range before {
		if got := readFile(t, p); !bytes.Equal(got, data) {
			t.Errorf("outside target %s changed", p)
		}
	}
}

// readFile is os.ReadFile that fails the test on error.
func readFile(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A memory folder of 100 000 tiny files (500 unless MEMSCOPE_LONG=1:
// still twice the 250 the index lists, and each file costs about a
// millisecond of system time to create on a busy ext4):
// stat, lint, prompt and prune --dry-run count every one of them, and
// their times are logged (scripts/memscope-hostile writes a million for the chaos
// script).
func TestHostileManyFiles(t *testing.T) {
	t.Parallel()
	n := testenv.Size(t, 100_000, 500)
	home := filepath.Join(t.TempDir(), "home")
	res, err := hostilehome.Write(home, hostilehome.ManyFiles, hostilehome.Options{N: n})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"stat", "--home", home, "--json"},
		{"lint", "--home", home, "--project", res.Project, "--json"},
		{"prompt", "--home", home, "--project", res.Project, "--json"},
		{"prune", "--home", home, "--project", res.Project, "--dry-run", "--json"},
	} {
		e, out, errb := testEnv(t)
		start := time.Now()
		code := run(e, args)
		t.Logf("%s on %d memory files: %v", args[0], n, time.Since(start).Round(time.Millisecond))
		if code > 1 {
			t.Fatalf("%s: exit %d: %s", args[0], code, errb)
		}
		var v map[string]any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", args[0], err)
		}
		if args[0] == "stat" && v["memoryFiles"] != float64(res.MemoryFiles) {
			t.Errorf("stat counts %v memory files, the home has %d", v["memoryFiles"], res.MemoryFiles)
		}
	}
}
