package cli

import (
	"flag"
	"fmt"
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

// parseFlags parses args, printing errors and usage to stderr. It returns
// errFlags when the command should stop (exit code 2).
func parseFlags(e *env, fs *flag.FlagSet, args []string) error {
	fs.SetOutput(e.stderr)
	if fs.Parse(args) != nil {
		return errFlags
	}
	return nil
}

// parseFlagsOnly is parseFlags for a command that takes no argument
// besides its flags: a stray one is reported under the flag set's name.
func parseFlagsOnly(e *env, fs *flag.FlagSet, args []string) error {
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "memscope %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return errFlags
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

// stringsFlag collects a repeatable string flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ", ") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }
