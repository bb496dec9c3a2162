package cli

import (
	"flag"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	ctxwindow "github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// windowFlags are the context-window options of replay and compact.
type windowFlags struct {
	window, maxOutput int
	// given says --window or --max-output was on the command line: the
	// window is then the flags', not the session's resolved one.
	given bool
}

// add defines --window and --max-output on fs.
func (w *windowFlags) add(fs *flag.FlagSet) {
	fs.IntVar(&w.window, "window", 200000, "context window in tokens (1000000 for 1M models)")
	fs.IntVar(&w.maxOutput, "max-output", 32000, "the model's max output tokens (min(it, 20000) is reserved)")
}

// envAutocompactPct is the client's variable that lowers the autocompact
// threshold to a percentage of the effective window.
const envAutocompactPct = "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"

// config is the window the flags describe, with the user's
// CLAUDE_AUTOCOMPACT_PCT_OVERRIDE applied as the client applies it (a
// whole number from 1 to 99; anything else is ignored). A window that
// makes no sense is a wrong command line.
func (w *windowFlags) config(e *env) (ctxwindow.Config, error) {
	w.given = false
	pct, _ := strconv.Atoi(strings.TrimSpace(e.getenv(envAutocompactPct)))
	c := ctxwindow.Config{ContextWindow: ctxwindow.Tokens(w.window), MaxOutputTokens: ctxwindow.Tokens(w.maxOutput), AutocompactPct: pct}
	if err := c.Validate(); err != nil {
		return c, badUsage(err)
	}
	return c, nil
}

// noteGiven records whether fs (parsed) had --window or --max-output.
func (w *windowFlags) noteGiven(fs *flag.FlagSet) {
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "window" || f.Name == "max-output" {
			w.given = true
		}
	})
}

// sessionLimits resolves a session's window and thresholds
// (timeline.Limits) from memscope's environment (a command runs where
// the client ran, as far as memscope can tell) and the client's settings
// files for the session's project; homeDir "" (a transcript given by
// path) reads the project's files only.
func sessionLimits(e *env, root fs.FS, homeDir, project string, limits func(ctxwindow.Input) ctxwindow.Resolved) ctxwindow.Resolved {
	in := ctxwindow.Input{Getenv: e.getenv, EnvFrom: "memscope's environment"}
	if project != "" && root != nil {
		in.Settings, _ = model.LoadSettings(root, homeDir, project, model.ManagedDir)
		if homeDir == "" {
			in.Settings = slices.DeleteFunc(in.Settings, func(s model.Settings) bool { return s.Source == model.SettingsUser })
		}
	}
	return limits(in)
}
