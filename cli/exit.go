package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/memscope/memscope/model"
)

// Exit codes, the same for every command (help and the README list
// them):
//
//	0  done
//	1  findings or a refusal: lint's errors, a change refused (the
//	   scan, a conflict, an archive destination holding other files), a
//	   failed write
//	2  the command line is wrong, or its input cannot be read (a home
//	   that is missing, not a folder or unreadable; a session not found)
//
// With --json, a failure is also printed on stdout as
// {"error": "…", "exitCode": N}.
const (
	exitOK       = 0
	exitRefused  = 1
	exitBadInput = 2
)

// exitCodesHelp is what help says of the exit codes.
const exitCodesHelp = `exit codes: 0 done; 1 findings or a refusal (lint errors, a change refused by
the scan or a conflict, a failed write); 2 a wrong command line or input that
cannot be read (a missing or unreadable home, a session not found). With
--json a failure is also printed as {"error": "…", "exitCode": N} on stdout.`

// errFlags is returned when what is wrong with the command line has
// already been printed: exit code 2, nothing more to say.
var errFlags = errors.New("invalid flags")

// usageError is a wrong command line answered with a usage line, printed
// as it is: exit code 2.
type usageError string

func (u usageError) Error() string { return string(u) }

// exitError is an error with an exit code other than 1. A nil err prints
// nothing: the command has already reported (lint's findings, a refused
// restore, the writes that failed).
type exitError struct {
	code int
	err  error
}

func (x *exitError) Error() string {
	if x.err == nil {
		return fmt.Sprintf("exit status %d", x.code)
	}
	return x.err.Error()
}

func (x *exitError) Unwrap() error { return x.err }

// badUsage is err as a wrong command line: "memscope NAME: err", exit 2.
func badUsage(err error) error { return &exitError{code: exitBadInput, err: err} }

// badUsagef is badUsage with a message.
func badUsagef(format string, a ...any) error { return badUsage(fmt.Errorf(format, a...)) }

// badInput is err as input that cannot be read (a home, a session):
// exit 2.
func badInput(err error) error { return &exitError{code: exitBadInput, err: err} }

// exitStatus ends a command that has printed its report with code.
func exitStatus(code int) error { return &exitError{code: code} }

// exitCode says err on stderr under the command's name ("" for the
// terminal app), and as JSON on stdout when asJSON, and returns the
// process exit code for it.
func exitCode(e *env, name string, err error, asJSON bool) int {
	var usage usageError
	var x *exitError
	code, msg := exitRefused, ""
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errHelpShown):
		return exitOK
	case errors.Is(err, errFlags):
		return exitBadInput
	case errors.As(err, &usage):
		fmt.Fprintln(e.stderr, string(usage))
		code, msg = exitBadInput, string(usage)
	case errors.As(err, &x):
		code = x.code
		if x.err != nil {
			msg = sayError(e, name, x.err)
		}
	default:
		msg = sayError(e, name, err)
	}
	if asJSON && msg != "" {
		writeJSON(e.stdout, map[string]any{"error": msg, "exitCode": code})
	}
	return code
}

// sayError prints "memscope NAME: err" and returns the message. Errors
// quote paths and content from the home, so the message is made safe for
// a terminal before it is framed (stderr sanitizes again as a whole,
// which changes nothing). An error that already starts with the
// command's name ("archive: …") does not say it twice.
func sayError(e *env, name string, err error) string {
	prefix := "memscope"
	msg := model.SanitizeForTerminal(err.Error())
	if name != "" {
		prefix += " " + name
		for strings.HasPrefix(msg, name+": ") {
			msg = strings.TrimPrefix(msg, name+": ")
		}
	}
	fmt.Fprintf(e.stderr, "%s: %s\n", prefix, msg)
	return msg
}
