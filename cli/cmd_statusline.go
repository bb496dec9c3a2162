package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/model"
)

var statuslineCommand = &command{
	name:  "statusline",
	usage: "memscope statusline [--home DIR] [--json]",
	summary: "one line for Claude Code's statusLine setting: context fill, turns until autocompact, MEMORY.md's load state\n\n" +
		"Reads the session's JSON on stdin (at most 1 MiB), reads only the end of its transcript and the head of\n" +
		"MEMORY.md, and always exits 0: on input it cannot use it prints an empty line and the reason on stderr.\n" +
		`In ~/.claude/settings.json: {"statusLine": {"type": "command", "command": "memscope statusline"}}`,
	run: steps(parseStatusline, runStatusline, showStatusline),
}

// maxStatusInput bounds what statusline reads from stdin: the client's
// JSON is a few hundred bytes.
const maxStatusInput = 1 << 20

// statuslineOptions are statusline's flags; bad is why they could not be
// read (the status line still prints, empty).
type statuslineOptions struct {
	home string
	json bool
	bad  error
}

// parseStatusline never fails: a status line must not show an error, so
// a wrong command line becomes the reason of an empty line.
func parseStatusline(e *env, args []string) (statuslineOptions, error) {
	var opts statuslineOptions
	fs := flag.NewFlagSet("statusline", flag.ContinueOnError)
	fs.StringVar(&opts.home, "home", "", "Claude home folder (default $CLAUDE_CONFIG_DIR, else ~/.claude)")
	fs.BoolVar(&opts.json, "json", false, "print what the line was made from as JSON")
	if sinkFlags(e, fs) {
		return opts, errHelpShown
	}
	var msg strings.Builder
	fs.SetOutput(&msg)
	switch err := fs.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		// Asked for help (memscope help statusline): the help, not a line.
		printCommandHelp(e, fs)
		return opts, errHelpShown
	case err != nil:
		opts.bad = fmt.Errorf("command line: %s", doubleDash(strings.TrimSpace(firstLine(msg.String()))))
	case fs.NArg() > 0:
		opts.bad = fmt.Errorf("command line: unexpected argument %q", fs.Arg(0))
	}
	return opts, nil
}

// runStatusline reads stdin and answers from the transcript it names.
func runStatusline(e *env, opts statuslineOptions) (live.Status, error) {
	if opts.bad != nil {
		return live.Status{Reason: opts.bad.Error()}, nil
	}
	input, err := readStatusInput(e.stdin)
	if err != nil {
		return live.Status{Reason: err.Error()}, nil
	}
	dir, _, err := e.resolveHome(opts.home)
	if err != nil {
		return live.Status{Reason: err.Error()}, nil
	}
	user, _ := e.userHome()
	st := live.Statusline(input, live.StatusOptions{HomeDir: dir, UserHome: user, Root: e.root, Getenv: e.getenv})
	addLostRules(e, &st)
	return st, nil
}

// statusInputWait bounds how long statusline waits for one complete JSON
// value on stdin. The client writes its object and closes the pipe; a
// writer that keeps the pipe open (`sleep 30 | memscope statusline`)
// gets its answer as soon as the object is complete, and one that never
// completes it gets an empty line after this wait, never a hang.
const statusInputWait = 2 * time.Second

// readStatusInput reads the first JSON value on stdin, at most
// maxStatusInput bytes, within statusInputWait.
func readStatusInput(r io.Reader) ([]byte, error) {
	return readStatusInputWithin(r, statusInputWait)
}

// readStatusInputWithin is readStatusInput with the wait given.
func readStatusInputWithin(r io.Reader, wait time.Duration) ([]byte, error) {
	if r != nil && isTerminal(r) {
		return nil, errors.New("stdin is a terminal: Claude Code pipes the session's JSON to this command")
	}
	return readClientJSON(r, maxStatusInput, wait)
}

// showStatusline prints the line (empty when there is nothing to say)
// and the reason, if any, on stderr. It never fails.
func showStatusline(e *env, opts statuslineOptions, st live.Status) error {
	if st.Reason != "" {
		fmt.Fprintf(e.stderr, "memscope statusline: %s\n", st.Reason)
	}
	if opts.json {
		if err := writeJSON(e.stdout, st); err != nil {
			fmt.Fprintf(e.stderr, "memscope statusline: %v\n", err)
		}
		return nil
	}
	fmt.Fprintln(humanOutput(e.stdout), model.SanitizeLine(st.Line))
	return nil
}
