// Package cli is memscope's command line: flag parsing, the subcommands
// and their text and --json reports. With no subcommand it opens the
// terminal app (package ui), which main hands it (Config.App).
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
	"errors"
	"fmt"
	"io/fs"
	"runtime/debug"
	"slices"
	"strings"
)

// Config is what the process gives the command line besides its
// arguments.
type Config struct {
	// Version is what --version and help print; "" takes it from the
	// Go build info (the module version of a `go install`, else "devel").
	Version string
	// Root is the machine's file system from "/": main opens it, so
	// nothing else in memscope reads the real machine by itself.
	Root fs.FS
	// App is the terminal app memscope opens without a subcommand
	// (cli/app.Run); nil in a binary that has none.
	App App
}

// Main runs the memscope command line args (without the program name) in
// the real environment and returns the process exit code.
func Main(args []string, c Config) int {
	e := osEnv(c.Root)
	e.app = c.App
	e.build = readBuildInfo(debug.ReadBuildInfo)
	e.version = versionOf(c.Version, e.build)
	return run(e, args)
}

// appUsage and appSummary describe memscope without a subcommand.
const (
	appUsage   = "memscope [--home DIR] [--project PATH] [--demo] [--no-watch]"
	appSummary = "open the terminal app (--no-watch: do not reload when files change)"
)

// run runs one command line and returns its exit code.
func run(e *env, args []string) int {
	// stderr only carries messages for people, and they quote paths and
	// content from the home: strip terminal controls once, here.
	safe := *e
	safe.stderr = humanOutput(e.stderr)
	e = &safe
	if e.table == nil {
		e.table = commands
	}
	if e.cfg == nil {
		e.cfg = &settingsState{}
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" && args[0] != "--version" && args[0] != "-version" {
		return exitCode(e, "", runTerminalApp(e, args), false)
	}
	switch args[0] {
	case "help", "-h", "--help":
		if len(args) > 1 && args[1] != "-h" && args[1] != "--help" && args[1] != "help" {
			c := e.lookup(args[1])
			if c == nil {
				fmt.Fprintf(e.stderr, "memscope help: unknown command %q (see memscope help)\n", args[1])
				return exitBadInput
			}
			// The command's own --help: usage, summary and its flags.
			ce := *e
			ce.command = c
			if err := c.run(&ce, []string{"--help"}); !errors.Is(err, errHelpShown) {
				fmt.Fprintf(e.stdout, "usage: %s\n\n%s\n", c.usage, c.summary)
			}
			return exitOK
		}
		printHelp(e)
		return exitOK
	case "version", "--version", "-version":
		printVersion(e.stdout, e.version, e.build)
		return exitOK
	}
	c := e.lookup(args[0])
	if c == nil {
		fmt.Fprintf(e.stderr, "memscope: unknown command %q (see memscope help)\n", args[0])
		return exitBadInput
	}
	return runCommand(e, c, args[1:])
}

// runCommand runs subcommand c and turns what it returns into messages
// and an exit code.
func runCommand(e *env, c *command, args []string) int {
	ce := *e
	ce.command = c
	return exitCode(&ce, c.name, c.run(&ce, args), wantsJSON(args))
}

// wantsJSON reports whether a command line asks for --json, so an error
// is printed as JSON too, even one found before the flags were parsed.
func wantsJSON(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--json", "-json", "--json=true", "-json=true":
			return true
		}
	}
	return false
}

// printHelp lists the subcommands, the core ones first, each with its
// usage (every flag its --help lists) and the first paragraph of its
// summary, wrapped to the terminal's width, then the exit codes.
func printHelp(e *env) {
	w := e.stdout
	width := helpWidth(e)
	out := func(lines []string) {
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintf(w, "memscope %s — see and fix what Claude Code remembers\n\n", e.version)
	fmt.Fprintln(w, "usage:")
	out(wrapIndented(withFlags(appUsage, commandFlags(e, nil)), width, "  ", "  "))
	out(wrapIndented(appSummary, width, "      ", ""))
	list := func(c *command) {
		out(wrapIndented(withFlags(c.usage, commandFlags(e, c)), width, "  ", "  "))
		out(wrapIndented(headline(c.summary), width, "      ", ""))
	}
	fmt.Fprintln(w, "\ncore commands:")
	for _, name := range coreCommands {
		if c := e.lookup(name); c != nil {
			list(c)
		}
	}
	fmt.Fprintln(w, "\nmore commands:")
	for _, c := range e.commands() {
		if !slices.Contains(coreCommands, c.name) {
			list(c)
		}
	}
	fmt.Fprintln(w, "  memscope help [COMMAND] | memscope --version")
	fmt.Fprintln(w, "\nflags of the terminal app (memscope without a command):")
	printFlagList(w, commandFlags(e, nil))
	out(wrapIndented("The home is --home DIR, else $CLAUDE_CONFIG_DIR, else ~/.claude; when none exists, the embedded demo home is used and memscope says so.", width, "", ""))
	fmt.Fprintln(w)
	out(wrapIndented(exitCodesHelp, width, "", ""))
}

// headline is a summary's first paragraph (what memscope help lists;
// memscope help COMMAND prints the rest).
func headline(summary string) string {
	if i := strings.Index(summary, "\n\n"); i >= 0 {
		return summary[:i]
	}
	return summary
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// wrapWords breaks s into lines of at most width columns between words.
func wrapWords(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
