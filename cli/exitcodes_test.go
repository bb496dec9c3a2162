package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// deniedRoot is a machine root that refuses to open the folders in
// deny, as a mode-000 folder does for anyone but root (tests may run as
// root, where chmod stops nothing).
type deniedRoot struct {
	fs.FS
	deny map[string]bool
}

func (d deniedRoot) Open(name string) (fs.File, error) {
	for n := name; ; n = filepath.Dir(n) {
		if d.deny[n] {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
		}
		if n == "." || n == "/" || !strings.Contains(n, "/") {
			return d.FS.Open(name)
		}
	}
}

// A home memscope cannot read is not an empty home: a clear error, exit
// 2, the path as given; --json says it as JSON.
func TestUnreadableHome(t *testing.T) {
	t.Parallel()
	e, out, errb := testEnv(t)
	home := filepath.Join(t.TempDir(), "claude")
	if err := os.MkdirAll(filepath.Join(home, "projects", "-w", "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.root = deniedRoot{FS: e.root, deny: map[string]bool{model.RootName(home): true}}
	for _, args := range [][]string{{"stat"}, {"lint"}, {"cleanup"}, {"sessions"}} {
		out.Reset()
		errb.Reset()
		code := run(e, append(args, "--home", home))
		if code != 2 || !strings.Contains(errb.String(), "cannot read the Claude home "+home) || strings.Contains(out.String(), "empty") {
			t.Errorf("%s on an unreadable home: exit %d, stdout %q, stderr %q; want exit 2 and the home named", args[0], code, out, errb)
		}
	}
	out.Reset()
	if code := run(e, []string{"stat", "--json", "--home", home}); code != 2 {
		t.Fatalf("stat --json: exit %d", code)
	}
	var je struct {
		Error    string `json:"error"`
		ExitCode int    `json:"exitCode"`
	}
	if err := json.Unmarshal(out.Bytes(), &je); err != nil || !strings.Contains(je.Error, home) || je.ExitCode != 2 {
		t.Errorf("stat --json on an unreadable home printed %q (%v); want {\"error\": …, \"exitCode\": 2}", out, err)
	}
}

// The same with a real mode-000 folder, for a user chmod stops.
func TestUnreadableHomeChmod(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: mode 000 does not stop root from reading (TestUnreadableHome injects the refusal instead)")
	}
	e, out, errb := testEnv(t)
	home := filepath.Join(t.TempDir(), "claude")
	if err := os.MkdirAll(filepath.Join(home, "projects"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(home, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(home, 0o755) })
	if code := run(e, []string{"stat", "--home", home}); code != 2 || !strings.Contains(errb.String(), home) || strings.Contains(out.String(), "empty") {
		t.Errorf("stat on a mode-000 home: exit %d, stdout %q, stderr %q", code, out, errb)
	}
}

// The command line's own mistakes: exit 2, said in memscope's words.
func TestCommandLineMistakes(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "not-a-home")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	emptyHome := t.TempDir()
	if err := os.MkdirAll(filepath.Join(emptyHome, "projects"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		// want must be in stderr; never must not be in stdout nor stderr.
		want  []string
		never []string
	}{
		{"help for no such command", []string{"help", "nosuch"}, 2, []string{"unknown command", "nosuch"}, nil},
		{"home is a file", []string{"stat", "--home", file}, 2, []string{file, "not a folder"}, []string{"no Claude home"}},
		{"negative days", []string{"cleanup", "--days", "-3", "--home", emptyHome}, 2, []string{"--days"}, nil},
		{"negative older-than", []string{"archive", "--older-than", "-3", "--to", filepath.Join(t.TempDir(), "a"), "--home", emptyHome}, 2, []string{"--older-than"}, nil},
		{"archive into the home", []string{"archive", "--to", filepath.Join(emptyHome, "x"), "--home", emptyHome}, 1, []string{"inside the Claude home"}, []string{"archive: archive:"}},
		{"bad flag", []string{"replay", "--bogus", "x"}, 2, []string{"--bogus", "usage: memscope replay"}, []string{"Usage of", "  -home", ": -bogus"}},
		{"bad flag of the app", []string{"--bogus"}, 2, []string{"--bogus", "--no-watch"}, []string{"Usage of", "  -no-watch"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, out, errb := testEnv(t)
			code := run(e, tc.args)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errb)
			}
			for _, w := range tc.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr does not say %q:\n%s", w, errb)
				}
			}
			for _, n := range tc.never {
				if strings.Contains(errb.String()+out.String(), n) {
					t.Errorf("output says %q:\n%s%s", n, out, errb)
				}
			}
		})
	}
}

// With --json a failure is JSON on stdout, {"error": …, "exitCode": N},
// whatever failed: the flags, the input, the work.
func TestJSONErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"stat", "--json", "--bogus"},
		{"stat", "--json", "--home", "/nonexistent/memscope-home"},
		{"cleanup", "--json", "--days", "-3"},
		{"replay", "nosuch-session", "--json", "--home", "/nonexistent/memscope-home"},
	} {
		e, out, _ := testEnv(t)
		code := run(e, args)
		var je struct {
			Error    string `json:"error"`
			ExitCode int    `json:"exitCode"`
		}
		if err := json.Unmarshal(out.Bytes(), &je); err != nil || je.Error == "" || je.ExitCode != code || code == 0 {
			t.Errorf("%q: exit %d, stdout %q (%v); want {\"error\": …, \"exitCode\": %d}", args, code, out, err, code)
		}
	}
}

// --help lists every command with its usage and the whole first
// paragraph of its summary (never cut mid-sentence: the rest is for
// memscope help COMMAND), the exit codes and the app's flags.
func TestHelpIsWhole(t *testing.T) {
	t.Parallel()
	e, out, _ := testEnv(t)
	if code := run(e, []string{"--help"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	flat := strings.Join(strings.Fields(out.String()), " ")
	for _, c := range commands {
		h := headline(c.summary)
		if strings.Contains(h, "\n") {
			t.Errorf("the summary of %s runs on over a line break before its first blank line: %q", c.name, h)
		}
		if !strings.Contains(flat, strings.Join(strings.Fields(h), " ")) {
			t.Errorf("help cuts the summary of %s; want all of %q", c.name, h)
		}
		e2, out2, _ := testEnv(t)
		if code := run(e2, []string{"help", c.name}); code != 0 || !strings.Contains(out2.String(), c.summary) {
			t.Errorf("help %s: exit %d, does not print the whole summary", c.name, code)
		}
	}
	for _, w := range []string{"exit codes: 0 done; 1 ", "; 2 ", "--no-watch"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("help does not say %q:\n%s", w, out)
		}
	}
}
