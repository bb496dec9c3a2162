package cli

import (
	"flag"
	"io"
	"sort"
	"strings"
)

// commandFlags is the flag set command c parses (nil: the terminal app),
// taken from the command itself: its parse step runs with a flag sink
// that receives the flag set and stops there. Help, completion and the
// man page all list flags from here, so they cannot disagree.
func commandFlags(e *env, c *command) *flag.FlagSet {
	var got *flag.FlagSet
	ce := *e
	ce.command = c
	ce.stdout, ce.stderr = io.Discard, io.Discard
	ce.flagSink = func(fs *flag.FlagSet) { got = fs }
	if c == nil {
		_ = runTerminalApp(&ce, nil)
	} else {
		_ = c.run(&ce, nil)
	}
	if got == nil {
		got = flag.NewFlagSet(commandName(c), flag.ContinueOnError)
	}
	return got
}

// commandName is c's name, "memscope" for the terminal app.
func commandName(c *command) string {
	if c == nil {
		return "memscope"
	}
	return c.name
}

// flagInfo is one flag as completion and the man page show it.
type flagInfo struct {
	name string
	// arg is the value's placeholder ("" for a switch).
	arg   string
	usage string
	// choices are the values the flag accepts, when the usage lists them
	// as a|b|c.
	choices []string
}

// flagList is fs's flags, sorted by name, with their placeholders as
// help prints them.
func flagList(fs *flag.FlagSet) []flagInfo {
	var out []flagInfo
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flagPlaceholder(f)
		fi := flagInfo{name: f.Name, arg: arg, usage: usage}
		if arg != "" {
			fi.choices = choicesOf(arg)
		}
		out = append(out, fi)
	})
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// flagPlaceholder is the value placeholder and usage text of f, as
// printFlags writes them ("" placeholder for a boolean switch).
func flagPlaceholder(f *flag.Flag) (string, string) {
	name, usage := flag.UnquoteUsage(f)
	switch {
	case f.Name == "project":
		name = "PATH"
	case name == "int":
		name = "N"
	case name == "string" || name == "value":
		name = "VALUE"
	}
	return name, usage
}

// choicesOf splits a placeholder written as a|b|c into its choices; nil
// when it is a name like DIR.
func choicesOf(arg string) []string {
	if !strings.Contains(arg, "|") {
		return nil
	}
	parts := strings.Split(arg, "|")
	for _, p := range parts {
		if p == "" || strings.ToLower(p) != p {
			return nil
		}
	}
	return parts
}

// positional is what a command takes besides flags, read from its usage
// line: "SESSION" when its first argument is a session.
func positional(c *command) string {
	if c == nil {
		return ""
	}
	f := strings.Fields(c.usage)
	if len(f) > 2 && !strings.HasPrefix(f[2], "[") && !strings.HasPrefix(f[2], "-") {
		return strings.Trim(f[2], "[]")
	}
	return ""
}

// completionSpec is the command table as the completion scripts and the
// man page need it.
type completionSpec struct {
	// app is the terminal app's flags (memscope without a command).
	app      []flagInfo
	commands []commandSpec
}

// commandSpec is one command: its name, one-line summary, flags, and
// what its first argument is ("SESSION", "bash|zsh|fish", or "").
type commandSpec struct {
	name, usage, summary string
	flags                []flagInfo
	positional           string
}

// completionSpecOf reads every command's flags from the command itself.
func completionSpecOf(e *env) completionSpec {
	spec := completionSpec{app: flagList(commandFlags(e, nil))}
	for _, c := range e.commands() {
		spec.commands = append(spec.commands, commandSpec{
			name:       c.name,
			usage:      c.usage,
			summary:    c.summary,
			flags:      flagList(commandFlags(e, c)),
			positional: positional(c),
		})
	}
	return spec
}
