package cli

import (
	"errors"
	"fmt"

	"github.com/memscope/memscope/model"
)

// Exit codes: 0 done, 1 failed (or found errors: lint, a refused
// restore, a failed write), 2 a wrong command line; archive exits 3 when
// the destination holds different files.

// errFlags is returned when the flag package has already printed what is
// wrong with the command line: exit code 2, nothing more to say.
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
func badUsage(err error) error { return &exitError{code: 2, err: err} }

// badUsagef is badUsage with a message.
func badUsagef(format string, a ...any) error { return badUsage(fmt.Errorf(format, a...)) }

// exitStatus ends a command that has printed its report with code.
func exitStatus(code int) error { return &exitError{code: code} }

// exitCode says err on stderr under the command's name ("" for the
// terminal app) and returns the process exit code for it.
func exitCode(e *env, name string, err error) int {
	var usage usageError
	var x *exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errFlags):
		return 2
	case errors.As(err, &usage):
		fmt.Fprintln(e.stderr, string(usage))
		return 2
	case errors.As(err, &x):
		if x.err != nil {
			sayError(e, name, x.err)
		}
		return x.code
	}
	sayError(e, name, err)
	return 1
}

// sayError prints "memscope NAME: err". Errors quote paths and content
// from the home, so the message is made safe for a terminal before it is
// framed (stderr sanitizes again as a whole, which changes nothing).
func sayError(e *env, name string, err error) {
	prefix := "memscope"
	if name != "" {
		prefix += " " + name
	}
	fmt.Fprintf(e.stderr, "%s: %s\n", prefix, model.SanitizeForTerminal(err.Error()))
}
