package cli

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/memscope/memscope/engine/gate"
)

// HookMain runs one of memscope's hooks, a command line gate.Hooks lists
// ("hook pre-tool-use", "vault sync --hook"), exactly as Main runs it:
// the same command, code and output. It is the whole of the hook binary
// (cmd/memscope-hook), which the client starts on every tool call, so
// it links no terminal app (Config.App is not used) and its start-up is
// memscope's packages alone. Any other command line is refused, naming
// memscope.
func HookMain(args []string, c Config) int {
	e := osEnv(c.Root)
	e.build = readBuildInfo(debug.ReadBuildInfo)
	e.version = versionOf(c.Version, e.build)
	return runHookLine(e, args)
}

// runHookLine runs args when they are one of gate.Hooks' command lines
// (more flags may follow), with only those commands in the table.
func runHookLine(e *env, args []string) int {
	if len(args) == 1 {
		switch args[0] {
		case "--version", "-version", "version":
			printVersion(e.stdout, e.version, e.build)
			return exitOK
		case "help", "-h", "--help":
			fmt.Fprintf(e.stdout, "%s runs memscope's Claude Code hooks, as memscope does, without the terminal app:\n", gate.HookBinaryName)
			for _, l := range hookLines() {
				fmt.Fprintf(e.stdout, "  %s %s\n", gate.HookBinaryName, l)
			}
			fmt.Fprintln(e.stdout, "memscope hooks install puts them in settings.json; everything else is memscope's (memscope help).")
			return exitOK
		}
	}
	for _, l := range hookLines() {
		if words := strings.Fields(l); len(args) >= len(words) && slices.Equal(args[:len(words)], words) {
			he := *e
			he.table = hookTable()
			return run(&he, args)
		}
	}
	fmt.Fprintf(e.stderr, "%s runs only memscope's hooks (%s); run memscope %s\n", gate.HookBinaryName, strings.Join(hookLines(), ", "), strings.Join(args, " "))
	return exitBadInput
}

// hookLines are gate.Hooks' command lines, once each.
func hookLines() []string {
	var lines []string
	for _, h := range gate.Hooks {
		if !slices.Contains(lines, h.Sub) {
			lines = append(lines, h.Sub)
		}
	}
	return lines
}

// hookTable is the commands gate.Hooks' command lines run.
func hookTable() []*command {
	var table []*command
	for _, c := range commands {
		if slices.ContainsFunc(gate.Hooks, func(h gate.Hook) bool { return strings.Fields(h.Sub)[0] == c.name }) {
			table = append(table, c)
		}
	}
	return table
}
