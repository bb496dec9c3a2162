package cli

import (
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/memscope/memscope/config"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/ui"
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
	if !term.IsTerminal(os.Stdout.Fd()) || !term.IsTerminal(os.Stdin.Fd()) {
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
	if e.getenv("GOGC") == "" {
		// The app holds the home and follows it for hours: with the
		// collector's default the heap may double between cycles, and the
		// RSS grows by a third beside a writing session (scripts/
		// live-bench.sh on W: +14 to +25 %, 4.1 % of a core); at 50 it
		// stays near its size after load (+1.5 %, 3.8 % of a core).
		debug.SetGCPercent(50)
	}
	cfg := e.settings()
	m := ui.New(ui.Options{
		Home:             o.home,
		Project:          proj,
		Demo:             o.demo != nil,
		DemoAsked:        opts.home.demo,
		Now:              e.now,
		Getenv:           e.getenv,
		Watch:            !opts.noWatch,
		ExportDir:        exportDir(e, cfg),
		Root:             o.root,
		Cache:            e.cache(opts.cache, o),
		Keys:             &cfg.Keys,
		Theme:            cfg.Theme,
		MouseOff:         !cfg.Mouse,
		Staleness:        cfg.Staleness,
		LiveWarnPercent:  cfg.Live.WarnPercent,
		LiveAlertPercent: cfg.Live.AlertPercent,
		Notice:           e.cfg.notice,
	})
	prog := tea.NewProgram(m)
	// A closed terminal (SIGHUP) should still quit cleanly, so a demo home
	// is removed; bubbletea itself handles SIGINT and SIGTERM.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		if _, ok := <-hup; ok {
			prog.Quit()
		}
	}()
	final, err := prog.Run()
	if fm, ok := final.(ui.Model); ok {
		fm.Close() // the file watcher
	}
	return err
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
