package cli

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/memscope/memscope/engine/export"
	ctxwindow "github.com/memscope/memscope/engine/window"
)

// sessionFile is a transcript named on the command line, opened for
// reading.
type sessionFile struct {
	fsys fs.FS
	// name is the path inside fsys; disk the file on disk.
	name, disk string
	size       int64
	// home is the home the session was found in; nil for a path.
	home  *opened
	close func()
}

// openSession finds SESSION: a path to a .jsonl file, or a session id (or
// a unique prefix of one) looked up among the home's transcripts.
func openSession(e *env, hf *homeFlags, arg string) (*sessionFile, error) {
	if strings.HasSuffix(arg, ".jsonl") || strings.ContainsRune(arg, filepath.Separator) {
		abs, err := filepath.Abs(arg)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("transcript %s: %w", arg, err)
		}
		return &sessionFile{fsys: os.DirFS(filepath.Dir(abs)), name: filepath.Base(abs), disk: abs, size: st.Size(), close: func() {}}, nil
	}
	o, err := e.openHome(hf)
	if err != nil {
		return nil, err
	}
	f, err := export.FindSession(o.home.FS, arg)
	if err != nil {
		o.close()
		return nil, fmt.Errorf("%w (%s)", err, o.home.Dir)
	}
	return &sessionFile{fsys: o.home.FS, name: f.Path, disk: o.home.Abs(f.Path), size: f.Size, home: o, close: o.close}, nil
}

// parseInterspersed parses flags that may come before or after the
// positional arguments (flag stops at the first non-flag) and returns the
// positional ones. It returns false when the command should stop.
func parseInterspersed(e *env, fs *flag.FlagSet, args []string) ([]string, bool) {
	var pos []string
	for {
		if !parseFlags(e, fs, args) {
			return nil, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// windowFlags are the window options of replay and compact.
type windowFlags struct {
	window, maxOutput int
}

func addWindowFlags(fs *flag.FlagSet) *windowFlags {
	w := &windowFlags{}
	fs.IntVar(&w.window, "window", 200000, "context window in tokens (1000000 for 1M models)")
	fs.IntVar(&w.maxOutput, "max-output", 32000, "the model's max output tokens (min(it, 20000) is reserved)")
	return w
}

// envAutocompactPct is the client's variable that lowers the autocompact
// threshold to a percentage of the effective window.
const envAutocompactPct = "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"

// config is the window the flags describe, with the user's
// CLAUDE_AUTOCOMPACT_PCT_OVERRIDE applied as the client applies it (a
// whole number from 1 to 99; anything else is ignored).
func (w *windowFlags) config(e *env) ctxwindow.Config {
	pct, _ := strconv.Atoi(strings.TrimSpace(e.getenv(envAutocompactPct)))
	return ctxwindow.Config{ContextWindow: ctxwindow.Tokens(w.window), MaxOutputTokens: ctxwindow.Tokens(w.maxOutput), AutocompactPct: pct}
}
