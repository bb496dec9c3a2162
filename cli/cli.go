package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/charmbracelet/x/term"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/model"
)

// homeFlags are the flags of every command that reads a Claude home.
type homeFlags struct {
	dir  string
	demo bool
}

func addHomeFlags(fs *flag.FlagSet) *homeFlags {
	h := &homeFlags{}
	fs.StringVar(&h.dir, "home", "", "Claude home folder (default $CLAUDE_CONFIG_DIR, else ~/.claude)")
	fs.BoolVar(&h.demo, "demo", false, "use the embedded demo home")
	return h
}

// opened is a home ready to read, and how to let it go.
type opened struct {
	home *model.Home
	// demo is set when the embedded demo home is in use.
	demo *demo.Layout
	// close removes a materialized demo home.
	close func()
	// root is env.root with the home (and a materialized demo's project
	// folders) mounted at their paths: the tree that CLAUDE.md, settings,
	// git-root and memory lookups walk.
	root fs.FS
}

// mountHome returns root with home's files at home.Dir, and with the
// folder demoRoot (a materialized demo, "" for none) at its path.
func mountHome(root fs.FS, home *model.Home, demoRoot string) fs.FS {
	if demoRoot != "" {
		root = model.MountFS(root, demoRoot, os.DirFS(demoRoot))
	}
	return model.MountFS(root, home.Dir, home.FS)
}

// defaultProject is the project a command looks at without --project: the
// current folder, or the demo's main project when the demo is in use.
func (o *opened) defaultProject(e *env) string {
	if o.demo != nil {
		return o.demo.Project("shop-api")
	}
	wd, err := e.getwd()
	if err != nil {
		return ""
	}
	return wd
}

// openHome resolves and opens the home: --home, $CLAUDE_CONFIG_DIR,
// ~/.claude; the embedded demo when asked for or when none of those
// exists (said on stderr, so --json output stays clean).
func (e *env) openHome(h *homeFlags) (*opened, error) {
	if !h.demo {
		dir, src, err := model.ResolveHomeDir(h.dir, e.getenv, e.userHome)
		if err != nil {
			return nil, err
		}
		if model.IsTarHome(dir) {
			return e.openArchiveHome(dir)
		}
		if model.HomeExists(dir) {
			home, err := model.OpenHome(dir, src)
			if err != nil {
				return nil, err
			}
			return &opened{home: home, close: func() {}, root: mountHome(e.root, home, "")}, nil
		}
		if src != model.HomeFromDefault {
			return nil, fmt.Errorf("no Claude home at %s (from %s)", dir, src)
		}
		fmt.Fprintf(e.stderr, "memscope: no Claude home at %s; showing the embedded demo home\n", dir)
	}
	root, err := os.MkdirTemp("", "memscope-demo-")
	if err != nil {
		return nil, fmt.Errorf("demo home: %w", err)
	}
	l, err := demo.Materialize(root, e.now())
	if err != nil {
		os.RemoveAll(root)
		return nil, fmt.Errorf("demo home: %w", err)
	}
	home, err := model.OpenHome(l.Home, model.HomeFromDemo)
	if err != nil {
		os.RemoveAll(root)
		return nil, err
	}
	return &opened{home: home, demo: &l, close: func() { os.RemoveAll(root) }, root: mountHome(e.root, home, l.Root)}, nil
}

// parseFlags parses args, printing errors and usage to stderr. It returns
// false when the command should stop (exit code 2).
func parseFlags(e *env, fs *flag.FlagSet, args []string) bool {
	fs.SetOutput(e.stderr)
	return fs.Parse(args) == nil
}

// parseFlagsOnly is parseFlags for a command that takes no argument
// besides its flags: a stray one is reported under the flag set's name.
func parseFlagsOnly(e *env, fs *flag.FlagSet, args []string) bool {
	if !parseFlags(e, fs, args) {
		return false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "memscope %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return false
	}
	return true
}

// writeJSON prints v as indented JSON, with terminal controls escaped.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeTerminalRunes(buf.Bytes()))
	return err
}

// sanitizingWriter strips terminal control sequences from what is written
// through it: text reports print content from transcripts, memory files
// and CLAUDE.md, which is untrusted. Each Fprintf is one Write, so a
// sequence inside one printed value is never split across writes.
type sanitizingWriter struct{ w io.Writer }

func (s sanitizingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, model.SanitizeForTerminal(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// humanOutput is w for a text report meant for people.
func humanOutput(w io.Writer) io.Writer { return sanitizingWriter{w: w} }

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
