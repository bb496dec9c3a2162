package cli

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/model"
)

// homeFlags are the flags of every command that reads a Claude home.
type homeFlags struct {
	dir  string
	demo bool
}

// add defines --home and --demo on fs.
func (h *homeFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&h.dir, "home", "", "Claude home folder `DIR`, or a .tar.gz from memscope archive (default $CLAUDE_CONFIG_DIR, else ~/.claude)")
	fs.BoolVar(&h.demo, "demo", false, "use the embedded demo home")
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
		root = model.MountFS(root, demoRoot, model.DirFS(demoRoot))
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
		dir, src, err := e.resolveHome(h.dir)
		if err != nil {
			return nil, err
		}
		if model.IsTarHome(dir) {
			return e.openArchiveHome(dir)
		}
		if model.HomeExists(dir) {
			if err := checkHomeReadable(e.root, dir); err != nil {
				return nil, err
			}
			home, err := model.OpenHome(dir, src)
			if err != nil {
				return nil, badInput(err)
			}
			// No reader follows a link out of the home (OpenHome gives
			// HomeFS; said again here, where the rule matters most).
			home.FS = model.HomeFS(dir)
			return &opened{home: home, close: func() {}, root: mountHome(e.root, home, "")}, nil
		}
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			return nil, badInput(fmt.Errorf("%s (from %s) is not a folder: the Claude home is a folder (or a .tar.gz written by memscope archive)", dir, src))
		}
		if src != model.HomeFromDefault {
			return nil, badInput(fmt.Errorf("no Claude home at %s (from %s)", dir, src))
		}
		fmt.Fprintf(e.stderr, "memscope: no Claude home at %s; showing the embedded demo home\n", dir)
	}
	l, remove, err := e.materializeDemo()
	if err != nil {
		return nil, fmt.Errorf("demo home: %w", err)
	}
	home, err := model.OpenHome(l.Home, model.HomeFromDemo)
	if err != nil {
		remove()
		return nil, err
	}
	return &opened{home: home, demo: &l, close: remove, root: mountHome(e.root, home, l.Root)}, nil
}

// materializeDemo writes the embedded demo into a new temporary folder
// and returns its layout and the removal of the folder (or what
// e.demoHome gives).
func (e *env) materializeDemo() (demo.Layout, func(), error) {
	if e.demoHome != nil {
		return e.demoHome(e.now())
	}
	root, err := os.MkdirTemp("", "memscope-demo-")
	if err != nil {
		return demo.Layout{}, nil, err
	}
	l, err := demo.Materialize(root, e.now())
	if err != nil {
		os.RemoveAll(root)
		return demo.Layout{}, nil, err
	}
	return l, func() { os.RemoveAll(root) }, nil
}

// checkHomeReadable refuses a home folder memscope cannot list (a mode
// 000 folder, a folder of another user): read as it is, it would look
// empty. It reads through root, the machine as the command line was
// given it; a root that does not show the folder leaves the answer to
// the folder itself.
func checkHomeReadable(root fs.FS, dir string) error {
	if root == nil {
		return nil
	}
	_, err := fs.ReadDir(root, model.RootName(dir))
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		// The path error names the folder relative to the root.
		err = pe.Err
	}
	return badInput(fmt.Errorf("cannot read the Claude home %s: %w", dir, err))
}

// openArchiveHome opens a .tar.gz written by memscope archive as a home:
// it is extracted read-only into a temporary folder that close removes.
// Skipped entries are said on stderr, so --json output stays clean.
func (e *env) openArchiveHome(archive string) (*opened, error) {
	home, closeHome, probs, err := model.OpenTarHome(archive)
	if err != nil {
		return nil, err
	}
	for _, p := range probs {
		fmt.Fprintf(e.stderr, "memscope: %s: %s\n", archive, model.SanitizeForTerminal(p.Error()))
	}
	fmt.Fprintf(e.stderr, "memscope: reading archive %s (extracted read-only to %s)\n", archive, home.Dir)
	return &opened{home: home, root: mountHome(e.root, home, ""), close: func() {
		if err := closeHome(); err != nil {
			fmt.Fprintf(e.stderr, "memscope: %v\n", err)
		}
	}}, nil
}

// resolveHome picks the Claude home folder: --home, else
// $CLAUDE_CONFIG_DIR, else the settings file's home, else ~/.claude.
func (e *env) resolveHome(flagDir string) (string, model.HomeSource, error) {
	return model.ResolveHomeDirWith(flagDir, e.settings().Home, e.getenv, e.userHome)
}
