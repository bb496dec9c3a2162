package cli

import (
	"flag"
	"strconv"
	"strings"

	ctxwindow "github.com/memscope/memscope/engine/window"
)

// windowFlags are the context-window options of replay and compact.
type windowFlags struct {
	window, maxOutput int
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
	pct, _ := strconv.Atoi(strings.TrimSpace(e.getenv(envAutocompactPct)))
	c := ctxwindow.Config{ContextWindow: ctxwindow.Tokens(w.window), MaxOutputTokens: ctxwindow.Tokens(w.maxOutput), AutocompactPct: pct}
	if err := c.Validate(); err != nil {
		return c, badUsage(err)
	}
	return c, nil
}
