package cli

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/model"
)

// env is what a command may touch of the outside world, so tests can run
// commands without a real terminal, clock or environment.
type env struct {
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	getenv   func(string) string
	userHome func() (string, error)
	getwd    func() (string, error)
	now      func() time.Time
	// writes is what memory writes go through; nil is the real OS, tests
	// inject faults (internal/faultfs).
	writes model.WriteFS
	// root is the machine's file system from "/" (names as model.RootName
	// gives them): every CLAUDE.md, settings file, git root and project
	// folder is read through it, so tests can hide the real machine. Only
	// main opens the real one.
	root fs.FS
	// version is the build's version, printed by --version and help.
	version string
	// build is what the Go build info says of the binary (--version).
	build buildInfo
	// alive reports whether a process exists (the running clients'
	// sessions/<pid>.json); nil asks the OS.
	alive func(pid int) bool
	// signals delivers the signals that stop a long-running command
	// (SIGINT, SIGTERM) until stop is called; nil delivers none.
	signals func() (sigs <-chan os.Signal, stop func())
	// command is the subcommand running, nil for the terminal app: flag
	// errors and --help quote its usage.
	command *command
	// flagSink, when set, receives a command's flag set instead of
	// parsing it: completion, the man page and help read each command's
	// flags from the command itself (commandFlags), so they cannot drift.
	flagSink func(*flag.FlagSet)
	// table is the command list (commands.go); set by run.
	table []*command
	// executable is this memscope's path (hooks install writes it into
	// settings.json); nil asks the OS.
	executable func() (string, error)
	// demoHome materializes the embedded demo for --demo (and for the
	// fallback when no home exists): its layout, and how to let it go
	// when the command ends. nil writes it into a new temporary folder
	// and removes it after (materializeDemo); a test that runs many
	// read-only commands on the demo gives one it materialized once.
	demoHome func(now time.Time) (demo.Layout, func(), error)
	// app opens the terminal app (Config.App); nil in a binary without it.
	app App
	// gc is the terminal app's start-up collector phase (appGC); nil is
	// the runtime's.
	gc *gcPhase
	// cfg is the settings file once read (settings); shared by the
	// copies of env a run makes.
	cfg *settingsState
}

// osEnv is the real process's environment, reading the machine through
// root.
func osEnv(root fs.FS) *env {
	return &env{
		stdin:    os.Stdin,
		stdout:   os.Stdout,
		stderr:   os.Stderr,
		getenv:   os.Getenv,
		userHome: os.UserHomeDir,
		getwd:    os.Getwd,
		now:      time.Now,
		root:     root,
		signals:  notifyStop,
	}
}

// notifyStop delivers SIGINT and SIGTERM.
func notifyStop() (<-chan os.Signal, func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	return c, func() { signal.Stop(c) }
}

// absFrom makes p absolute against the current folder.
func absFrom(e *env, p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	wd, err := e.getwd()
	if err != nil {
		return "", fmt.Errorf("current folder: %w", err)
	}
	return filepath.Join(wd, p), nil
}

// writer is what a command writes through: the injected writer, else the
// real OS. Every write of the CLI takes it, so tests can fail any of them.
func (e *env) writer() model.WriteFS {
	if e.writes == nil {
		return model.OSWriteFS{}
	}
	return e.writes
}

// raiseGC sets the collector's target to percent for a one-shot
// command's run, unless the environment sets GOGC, and returns what puts
// the old one back. A command that reads a home once and leaves makes
// garbage at a steady rate while its live heap stays small: at the
// default the collector runs at every doubling of that small heap.
func (e *env) raiseGC(percent int) (restore func()) {
	if e.getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(old) }
}
