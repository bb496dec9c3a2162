package cli

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/memscope/memscope/ui"
)

// runDefault opens the terminal app. When stdout is not a terminal (a
// pipe, CI) it prints the stat report instead, so `go run .` is useful
// everywhere.
func runDefault(e *env, args []string) int {
	fs := flag.NewFlagSet("memscope", flag.ContinueOnError)
	hf := addHomeFlags(fs)
	project := fs.String("project", "", "project folder to open (default: the current folder's project, else the newest)")
	noWatch := fs.Bool("no-watch", false, "do not reload when files change")
	if !parseFlags(e, fs, args) {
		return 2
	}
	if !term.IsTerminal(os.Stdout.Fd()) || !term.IsTerminal(os.Stdin.Fd()) {
		var statArgs []string
		if hf.dir != "" {
			statArgs = append(statArgs, "--home", hf.dir)
		}
		if hf.demo {
			statArgs = append(statArgs, "--demo")
		}
		return runStat(e, statArgs)
	}
	o, err := e.openHome(hf)
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope: %v\n", err)
		return 1
	}
	defer o.close()
	proj := *project
	if proj == "" {
		proj = o.defaultProject(e)
	}
	m := ui.New(ui.Options{
		Home:      o.home,
		Project:   proj,
		Demo:      o.demo != nil,
		Now:       e.now,
		Getenv:    e.getenv,
		Watch:     !*noWatch,
		ExportDir: exportDir(e),
		Root:      o.root,
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
	if _, err := prog.Run(); err != nil {
		fmt.Fprintf(e.stderr, "memscope: %v\n", err)
		return 1
	}
	return 0
}

// exportDir is where the panes' exports go: the folder memscope was
// started in.
func exportDir(e *env) string {
	if wd, err := e.getwd(); err == nil {
		return wd
	}
	return "."
}
