// Package cli is memscope's command line: flag parsing, the subcommands
// and their text and --json reports. With no subcommand it opens the
// terminal app (package ui).
package cli

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/model"
)

// env is what a command may touch of the outside world, so tests can run
// commands without a real terminal, clock or environment.
type env struct {
	stdout   io.Writer
	stderr   io.Writer
	getenv   func(string) string
	userHome func() (string, error)
	getwd    func() (string, error)
	now      func() time.Time
	// writes is what memory writes go through; nil is the real OS, tests
	// inject faults (model.FaultFS).
	writes model.WriteFS
	// root is the machine's file system from "/" (names as model.RootName
	// gives them): every CLAUDE.md, settings file, git root and project
	// folder is read through it, so tests can hide the real machine. Only
	// osEnv opens the real one.
	root fs.FS
	// version is the build's version, printed by --version and help.
	version string
}

func osEnv() *env {
	return &env{
		stdout:   os.Stdout,
		stderr:   os.Stderr,
		getenv:   os.Getenv,
		userHome: os.UserHomeDir,
		getwd:    os.Getwd,
		now:      time.Now,
		root:     os.DirFS("/"),
	}
}

// command is one subcommand. run returns the process exit code.
type command struct {
	name    string
	usage   string
	summary string
	run     func(e *env, args []string) int
}

// commands is filled by the init functions of the cmd_*.go files, one file
// per subcommand, so subcommands can be added without touching this file.
var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

// Main runs the memscope command line args (without the program name)
// in the real environment and returns the process exit code. version is
// what --version and help print.
func Main(version string, args []string) int {
	e := osEnv()
	e.version = version
	return run(e, args)
}

func run(e *env, args []string) int {
	// stderr only carries messages for people, and they quote paths and
	// content from the home: strip terminal controls once, here.
	safe := *e
	safe.stderr = humanOutput(e.stderr)
	e = &safe
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" && args[0] != "--version" && args[0] != "-version" {
		return runDefault(e, args)
	}
	switch args[0] {
	case "help", "-h", "--help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				fmt.Fprintf(e.stdout, "usage: %s\n\n%s\n", c.usage, c.summary)
				return 0
			}
		}
		printHelp(e.stdout, e.version)
		return 0
	case "version", "--version", "-version":
		fmt.Fprintf(e.stdout, "memscope %s\n", e.version)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "memscope: unknown command %q (see memscope help)\n", args[0])
		return 2
	}
	return c.run(e, args[1:])
}

func printHelp(w io.Writer, version string) {
	fmt.Fprintf(w, "memscope %s — see and fix what Claude Code remembers\n\n", version)
	fmt.Fprintln(w, "usage:")
	fmt.Fprintln(w, "  memscope [--home DIR] [--project PATH] [--demo]   open the terminal app")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		fmt.Fprintf(w, "  %-50s %s\n", c.usage, firstLine(c.summary))
	}
	fmt.Fprintln(w, "  memscope help [COMMAND] | memscope --version")
	fmt.Fprintln(w, "\nThe home is --home DIR, else $CLAUDE_CONFIG_DIR, else ~/.claude; when none")
	fmt.Fprintln(w, "exists, the embedded demo home is used and memscope says so.")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
