package cli

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/memscope/memscope/config"
	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// tuiOptions are the flags of memscope without a subcommand.
type tuiOptions struct {
	home homeFlags
	// project is the project to open; "" for the current folder's.
	project string
	noWatch bool
	cache   cacheFlags
}

// runTerminalApp opens the terminal app. When stdout is not a terminal (a
// pipe, CI) it runs `memscope stat` instead, so `go run .` is useful
// everywhere.
func runTerminalApp(e *env, args []string) error {
	var opts tuiOptions
	fs := newFlags("memscope", &opts.home, nil)
	fs.StringVar(&opts.project, "project", "", "project folder to open (default: the current folder's project, else the newest)")
	fs.BoolVar(&opts.noWatch, "no-watch", false, "do not reload when files change")
	opts.cache.add(fs)
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	if !isTerminal(os.Stdout) || !isTerminal(os.Stdin) {
		var statArgs []string
		if opts.home.dir != "" {
			statArgs = append(statArgs, "--home", opts.home.dir)
		}
		if opts.home.demo {
			statArgs = append(statArgs, "--demo")
		}
		// stat reports its own errors: pass on only its exit code.
		return &exitError{code: runCommand(e, e.lookup("stat"), statArgs)}
	}
	o, err := e.openHome(&opts.home)
	if err != nil {
		return err
	}
	defer o.close()
	proj := opts.project
	if proj == "" {
		proj = o.defaultProject(e)
	}
	// A lax collector while the start-up work runs, then appGCPercent
	// (gcphase.go).
	defer e.appGC()()
	if e.app == nil {
		return errors.New("this binary has no terminal app: run memscope")
	}
	return e.app(AppOptions{
		Home:      o.home,
		Project:   proj,
		Demo:      o.demo != nil,
		DemoAsked: opts.home.demo,
		Now:       e.now,
		Getenv:    e.getenv,
		Watch:     !opts.noWatch,
		ExportDir: exportDir(e, e.settings()),
		Root:      o.root,
		Cache:     e.cache(opts.cache, o),
		Settings:  e.settings(),
		Notice:    e.cfg.notice,
	})
}

// App opens the terminal app and returns when it quits. main gives it to
// the command line (Config.App; cli/app.Run), so that a binary without
// it (cmd/memscope-hook) links no terminal app.
type App func(AppOptions) error

// AppOptions are what the command line resolved for the terminal app:
// the opened home, the project, the clock and environment, the cache,
// and the settings file's values.
type AppOptions struct {
	Home *model.Home
	// Project is the folder to open on.
	Project string
	// Demo says Home is the embedded demo; DemoAsked that --demo asked
	// for it.
	Demo, DemoAsked bool
	Now             func() time.Time
	Getenv          func(string) string
	// Watch turns on live reload.
	Watch bool
	// ExportDir is where the panes' exports go.
	ExportDir string
	// Root is the machine's file system, the home mounted in it.
	Root  fs.FS
	Cache *diskcache.Store
	// Settings are memscope's settings file's values; Notice is a
	// problem with it, said at start.
	Settings config.Config
	Notice   string
}

// exportDir is where the panes' exports go: the settings file's
// export_dir, else the folder memscope was started in.
func exportDir(e *env, cfg config.Config) string {
	if cfg.ExportDir != "" {
		if d, err := absFrom(e, model.ExpandTilde(cfg.ExportDir, e.userHome)); err == nil {
			return d
		}
	}
	if wd, err := e.getwd(); err == nil {
		return wd
	}
	return "."
}
