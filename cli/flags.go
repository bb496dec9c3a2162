package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlags is the flag set of a command that reads a Claude home: with
// --home and --demo, and --json into asJSON unless it is nil.
func newFlags(name string, h *homeFlags, asJSON *bool) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	h.add(fs)
	if asJSON != nil {
		fs.BoolVar(asJSON, "json", false, "print JSON")
	}
	return fs
}

// newBareFlags is the flag set of a command that reads no home.
func newBareFlags(name string) *flag.FlagSet {
	return flag.NewFlagSet(name, flag.ContinueOnError)
}

// errHelpShown ends a command whose --help was printed: exit 0.
var errHelpShown = errors.New("help shown")

// parseFlags parses args. A wrong flag is a usage error (exit 2) in
// memscope's words: the flag as the user typed it (--name), the
// command's usage line, and where its flags are listed; the flag
// package's own report (single-dash flags, "Usage of …") is not printed.
// --help prints the command's help and flags.
func parseFlags(e *env, fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	if sinkFlags(e, fs) {
		return errHelpShown
	}
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		printCommandHelp(e, fs)
		return errHelpShown
	}
	msg := doubleDash(err.Error()) + "\nusage: " + e.usage()
	if e.command != nil {
		msg += "\n(memscope help " + e.command.name + " lists its flags)"
	}
	return badUsage(errors.New(msg))
}

// doubleDash writes the flag package's "-name" as "--name", the way
// memscope's help writes flags (both forms are accepted).
func doubleDash(msg string) string {
	for _, p := range []string{"defined: -", "argument: -", " for flag -"} {
		msg = strings.Replace(msg, p, p+"-", 1)
	}
	return msg
}

// usage is the usage line of the command running (the terminal app's
// when none).
func (e *env) usage() string {
	if e.command != nil {
		return e.command.usage
	}
	return appUsage
}

// printCommandHelp prints the running command's usage, summary and flags.
func printCommandHelp(e *env, fs *flag.FlagSet) {
	summary := appSummary
	if e.command != nil {
		summary = e.command.summary
	}
	fmt.Fprintf(e.stdout, "usage: %s\n\n%s\n", withFlags(e.usage(), fs), summary)
	printFlags(e.stdout, fs)
}

// printFlags lists a flag set's flags as --name VALUE, with what each
// does and its default.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "\nflags:")
	printFlagList(w, fs)
}

// printFlagList lists fs's flags, one a line.
func printFlagList(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flagPlaceholder(f)
		head := "  --" + f.Name
		if name != "" {
			head += " " + name
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "-1" {
			usage += " (default " + f.DefValue + ")"
		}
		fmt.Fprintf(w, "%-24s %s\n", head, usage)
	})
}

// parseFlagsOnly is parseFlags for a command that takes no argument
// besides its flags: a stray one is a usage error.
func parseFlagsOnly(e *env, fs *flag.FlagSet, args []string) error {
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badUsage(fmt.Errorf("unexpected argument %q\nusage: %s", fs.Arg(0), e.usage()))
	}
	return nil
}

// parseInterspersed parses flags that may come before or after the
// positional arguments (flag stops at the first non-flag) and returns the
// positional ones.
func parseInterspersed(e *env, fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(e, fs, args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// setNegative reports whether the integer flag name was given a value
// below 0 (its default may be negative: "not set").
func setNegative(fs *flag.FlagSet, name string) bool {
	neg := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			if g, ok := f.Value.(flag.Getter); ok {
				if n, ok := g.Get().(int); ok && n < 0 {
					neg = true
				}
			}
		}
	})
	return neg
}

// stringsFlag collects a repeatable string flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ", ") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

// sinkFlags hands fs to the flag sink when one is set (commandFlags) and
// reports whether it did: the command must then stop, as after --help.
func sinkFlags(e *env, fs *flag.FlagSet) bool {
	if e.flagSink == nil {
		return false
	}
	e.flagSink(fs)
	return true
}
