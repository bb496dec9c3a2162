// Package cli is memscope's command line: flag parsing, the subcommands
// and their text and --json reports. With no subcommand it opens the
// terminal app (package ui).
//
// The subcommands are listed, in help's order, in commands.go. Each lives
// in its own cmd_<name>*.go files and is built the same way:
// parse<Name> fills a <name>Options from the arguments, run<Name> does the
// work and returns a result, show<Name> prints it as --json or, through
// print functions, as text. What more than one command needs lives in a
// file named for what it holds (home.go, session.go, memory.go,
// output.go, ...); no command file uses another command's file
// (layout_test.go checks).
package cli

import (
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// Config is what the process gives the command line besides its
// arguments.
type Config struct {
	// Version is what --version and help print.
	Version string
	// Root is the machine's file system from "/": main opens it, so
	// nothing else in memscope reads the real machine by itself.
	Root fs.FS
}

// Main runs the memscope command line args (without the program name) in
// the real environment and returns the process exit code.
func Main(args []string, c Config) int {
	e := osEnv(c.Root)
	e.version = c.Version
	return run(e, args)
}

// run runs one command line and returns its exit code.
func run(e *env, args []string) int {
	// stderr only carries messages for people, and they quote paths and
	// content from the home: strip terminal controls once, here.
	safe := *e
	safe.stderr = humanOutput(e.stderr)
	e = &safe
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" && args[0] != "--version" && args[0] != "-version" {
		return exitCode(e, "", runTerminalApp(e, args))
	}
	switch args[0] {
	case "help", "-h", "--help":
		if len(args) > 1 {
			if c := lookup(args[1]); c != nil {
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
	c := lookup(args[0])
	if c == nil {
		fmt.Fprintf(e.stderr, "memscope: unknown command %q (see memscope help)\n", args[0])
		return 2
	}
	return runCommand(e, c, args[1:])
}

// runCommand runs subcommand c and turns what it returns into messages
// and an exit code.
func runCommand(e *env, c *command, args []string) int {
	return exitCode(e, c.name, c.run(e, args))
}

// printHelp lists the subcommands in the order of the command list.
func printHelp(w io.Writer, version string) {
	fmt.Fprintf(w, "memscope %s — see and fix what Claude Code remembers\n\n", version)
	fmt.Fprintln(w, "usage:")
	fmt.Fprintln(w, "  memscope [--home DIR] [--project PATH] [--demo]   open the terminal app")
	for _, c := range commands {
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
