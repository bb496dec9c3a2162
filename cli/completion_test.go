package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// helpFlags are the flags `memscope help NAME` prints (the --help
// output people read), by command; "" is the terminal app.
func helpFlags(t *testing.T) map[string][]string {
	t.Helper()
	flagLine := regexp.MustCompile(`^  --([a-z0-9-]+)`)
	read := func(args ...string) []string {
		e, out, errb := testEnv(t)
		if code := run(e, args); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb)
		}
		var names []string
		_, list, _ := strings.Cut(out.String(), "flags:\n")
		if len(args) == 1 {
			_, list, _ = strings.Cut(out.String(), "flags of the terminal app (memscope without a command):\n")
		}
		for _, l := range strings.Split(list, "\n") {
			if m := flagLine.FindStringSubmatch(l); m != nil {
				names = append(names, m[1])
			}
		}
		sort.Strings(names)
		return names
	}
	got := map[string][]string{"": read("--help")}
	for _, c := range commands {
		got[c.name] = read("help", c.name)
	}
	return got
}

// output runs memscope args and returns stdout.
func output(t *testing.T, args ...string) string {
	t.Helper()
	e, out, errb := testEnv(t)
	if code := run(e, args); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb)
	}
	return out.String()
}

// The completion scripts and the man page list, for every command, the
// flags its --help lists: read from each output and compared, so a flag
// added to a command and missing from one of them fails here.
func TestCompletionAndManAgreeWithHelp(t *testing.T) {
	want := helpFlags(t)
	if len(want) != len(commands)+1 {
		t.Fatalf("help covers %d commands, want %d", len(want), len(commands)+1)
	}
	bash := output(t, "completion", "bash")
	zsh := output(t, "completion", "zsh")
	fish := output(t, "completion", "fish")
	man := output(t, "man")

	// bash: each command's case arm lists its flags in compgen -W.
	for name, flags := range want {
		var arm string
		if name == "" {
			arm = between(t, bash, "if [[ -z $cmd ]]; then", "case $cmd in")
		} else {
			arm = between(t, bash, "\t"+name+")\n", "\t\t;;\n")
		}
		m := regexp.MustCompile(`if \[\[ \$cur == -\* \]\]; then\n\t+COMPREPLY=\(\$\(compgen -W '([^']*)'`).FindStringSubmatch(arm)
		if m == nil {
			t.Errorf("bash: no flag list for %q", name)
			continue
		}
		compare(t, "bash "+name, strings.Fields(strings.ReplaceAll(m[1], "--", "")), flags)
	}
	// zsh: each command's _arguments block.
	zshFlag := regexp.MustCompile(`'--([a-z0-9-]+)=?\[`)
	for name, flags := range want {
		var block string
		if name == "" {
			block = between(t, zsh, "_arguments -C -s", "'1: :->command'")
		} else {
			block = between(t, zsh, "\t\t"+name+")\n\t\t\t_arguments", ";;")
		}
		compare(t, "zsh "+name, submatches(zshFlag, block), flags)
	}
	// fish: the complete lines under each command's condition.
	for name, flags := range want {
		cond := "-n '__fish_seen_subcommand_from " + name + "' -l "
		if name == "" {
			cond = "-n __fish_use_subcommand -l "
		}
		var got []string
		for _, l := range strings.Split(fish, "\n") {
			if i := strings.Index(l, cond); i >= 0 {
				got = append(got, strings.Fields(l[i+len(cond):])[0])
			}
		}
		compare(t, "fish "+name, got, flags)
	}
	// man: each command's .SS section lists its flags as .TP items.
	manFlag := regexp.MustCompile(`(?m)^\.B \\-\\-([a-z0-9\\-]+)`)
	for name, flags := range want {
		var sec string
		if name == "" {
			sec = between(t, man, ".SH DESCRIPTION", ".SH COMMANDS")
		} else {
			sec = between(t, man, ".SS "+roffEscape(name)+"\n", "\n.S")
		}
		var got []string
		for _, f := range submatches(manFlag, sec) {
			got = append(got, strings.ReplaceAll(f, `\-`, "-"))
		}
		compare(t, "man "+name, got, flags)
	}
}

// Every command is offered as the first word by each shell's script, and
// by the man page's synopsis.
func TestCompletionListsEveryCommand(t *testing.T) {
	bash := output(t, "completion", "bash")
	zsh := output(t, "completion", "zsh")
	fish := output(t, "completion", "fish")
	man := output(t, "man")
	top := regexp.MustCompile(`else\n\t+COMPREPLY=\(\$\(compgen -W '([^']*)'`).FindStringSubmatch(between(t, bash, "if [[ -z $cmd ]]; then", "case $cmd in"))
	if top == nil {
		t.Fatal("bash: no command list")
	}
	bashCmds := strings.Fields(top[1])
	for _, c := range commands {
		if !contains(bashCmds, c.name) {
			t.Errorf("bash does not offer %q: %v", c.name, bashCmds)
		}
		if !strings.Contains(zsh, "\t\t'"+c.name+":") {
			t.Errorf("zsh does not describe %q", c.name)
		}
		if !strings.Contains(fish, "-n __fish_use_subcommand -a "+c.name+" -d ") {
			t.Errorf("fish does not offer %q", c.name)
		}
		if !strings.Contains(man, ".SS "+roffEscape(c.name)+"\n") || !strings.Contains(man, roffEscape(c.usage)+"\n") {
			t.Errorf("man has no section or synopsis for %q", c.name)
		}
	}
}

// The scripts are valid in their shells. bash is always there; zsh and
// fish are installed by .ci/run (scripts/shells.sh) and skipped, saying
// so, on a machine without them.
func TestCompletionScriptsParse(t *testing.T) {
	dir := t.TempDir()
	for _, sh := range []struct{ shell, check string }{
		{"bash", "-n"},
		{"zsh", "-n"},
		{"fish", "--no-execute"},
	} {
		t.Run(sh.shell, func(t *testing.T) {
			bin, err := exec.LookPath(sh.shell)
			if err != nil {
				t.Skipf("%s is not installed (.ci/run installs it): the script's syntax is not checked here", sh.shell)
			}
			file := filepath.Join(dir, "memscope."+sh.shell)
			if err := os.WriteFile(file, []byte(output(t, "completion", sh.shell)), 0o600); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(bin, sh.check, file).CombinedOutput(); err != nil {
				t.Fatalf("%s %s rejects the script: %v\n%s", sh.shell, sh.check, err, out)
			}
		})
	}
}

// In bash, the script completes commands, a command's flags, a flag's
// choices and, through memscope completion values, session ids: run with
// a stand-in memscope that answers the values call.
func TestBashCompletionCompletes(t *testing.T) {
	bin, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "memscope.bash")
	if err := os.WriteFile(script, []byte(output(t, "completion", "bash")), 0o600); err != nil {
		t.Fatal(err)
	}
	// The stand-in prints what it was asked, so the test sees --home
	// passed along too.
	stub := "#!/bin/sh\n[ \"$1 $2\" = \"completion values\" ] && echo \"sess-$3-$5\"\n"
	if err := os.WriteFile(filepath.Join(dir, "memscope"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	complete := func(line string) []string {
		words := strings.Fields(line)
		if strings.HasSuffix(line, " ") {
			words = append(words, "")
		}
		prog := `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _memscope; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bin, append([]string{"--norc", "--noprofile", "-c", prog, "bash", script}, words...)...)
		cmd.Env = []string{"PATH=" + dir + ":/usr/bin:/bin"}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%q: %v\n%s", line, err, out.String())
		}
		return strings.Fields(out.String())
	}
	if got := complete("memscope re"); !equalSets(got, []string{"replay", "review"}) {
		t.Errorf("memscope re<TAB> = %v, want [replay review]", got)
	}
	if got := complete("memscope export --format "); !equalSets(got, []string{"md", "html", "json"}) {
		t.Errorf("export --format <TAB> = %v", got)
	}
	if got := complete("memscope replay --w"); !equalSets(got, []string{"--window"}) {
		t.Errorf("replay --w<TAB> = %v", got)
	}
	if got := complete("memscope replay --home /h "); !equalSets(got, []string{"sess-sessions-/h"}) {
		t.Errorf("replay SESSION<TAB> = %v, want the session ids memscope completion values lists for --home /h", got)
	}
	if got := complete("memscope completion "); !equalSets(got, []string{"bash", "zsh", "fish"}) {
		t.Errorf("completion <TAB> = %v", got)
	}
}

// man renders the page without a warning (groff's -ww through man).
func TestManPageRenders(t *testing.T) {
	bin, err := exec.LookPath("man")
	if err != nil {
		t.Skip("man is not installed: the page is not rendered here")
	}
	cmd := exec.Command(bin, "--warnings=all", "-l", "-")
	cmd.Stdin = strings.NewReader(output(t, "man"))
	cmd.Env = append(os.Environ(), "MANWIDTH=80", "MANPAGER=cat", "PAGER=cat")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("man -l: %v\n%s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("man warns:\n%s", stderr.String())
	}
	text := stdout.String()
	for _, want := range []string{"NAME", "SYNOPSIS", "COMMANDS", "EXIT STATUS", "memscope replay SESSION"} {
		if !strings.Contains(text, want) {
			t.Errorf("rendered page lacks %q", want)
		}
	}
}

// completion values lists the home's project paths and session ids,
// newest session first, and nothing (not an error) without a home.
func TestCompletionValues(t *testing.T) {
	sessions := strings.Fields(output(t, "completion", "values", "sessions", "--home", "../testdata/home"))
	if len(sessions) == 0 {
		t.Fatal("no session ids from testdata/home")
	}
	for _, s := range sessions {
		matches, _ := filepath.Glob(filepath.Join("../testdata/home/projects/*", s+".jsonl"))
		if len(matches) != 1 {
			t.Errorf("session %q has %d transcripts in testdata/home", s, len(matches))
		}
	}
	// Project paths: each is a project of the home (its projects/ folder
	// is the path's slug).
	projects := strings.Split(strings.TrimSpace(output(t, "completion", "values", "projects", "--home", "../testdata/home")), "\n")
	if len(projects) == 0 || projects[0] == "" {
		t.Fatal("no project paths from testdata/home")
	}
	for _, p := range projects {
		if st, err := os.Stat(filepath.Join("../testdata/home/projects", model.Slug(p))); !filepath.IsAbs(p) || err != nil || !st.IsDir() {
			t.Errorf("project %q is not a project folder of testdata/home (%v)", p, err)
		}
	}
	if got := output(t, "completion", "values", "projects", "--home", filepath.Join(t.TempDir(), "none")); got != "" {
		t.Errorf("values without a home = %q, want nothing", got)
	}
	e, _, _ := testEnv(t)
	if code := run(e, []string{"completion", "tcsh"}); code != exitBadInput {
		t.Errorf("completion tcsh: exit %d, want %d", code, exitBadInput)
	}
}

func between(t *testing.T, s, from, to string) string {
	t.Helper()
	i := strings.Index(s, from)
	if i < 0 {
		t.Fatalf("no %q in output", from)
	}
	s = s[i+len(from):]
	if j := strings.Index(s, to); j >= 0 {
		return s[:j]
	}
	return s
}

func submatches(re *regexp.Regexp, s string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

func compare(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !equalSets(got, want) {
		t.Errorf("%s: flags %v, --help lists %v", what, got, want)
	}
}

func equalSets(a, b []string) bool {
	a, b = append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(a)
	sort.Strings(b)
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
