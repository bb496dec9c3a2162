// Package app runs memscope's terminal app (package ui) on what the
// command line resolved (cli.AppOptions). main hands Run to the command
// line (cli.Config.App), so package cli links no terminal app and the hook
// binary (cmd/memscope-hook), which shares cli's commands, links none of
// Bubble Tea, Lip Gloss or Glamour.
package app

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/cli"
	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/ui"
)

// Run opens the terminal app and returns when it quits.
func Run(o cli.AppOptions) error {
	defer startProfile(o.Getenv)()
	cfg := o.Settings
	// The folders a run before this one listed, unchanged since, are not
	// listed again (model.TrustedFolders); what this run listed is kept
	// when it quits.
	saveListings := diskcache.TrustFolders(o.Cache, o.Home, time.Now())
	defer saveListings()
	m := ui.New(ui.Options{
		Home:             o.Home,
		Project:          o.Project,
		Demo:             o.Demo,
		DemoAsked:        o.DemoAsked,
		Now:              o.Now,
		Getenv:           o.Getenv,
		Watch:            o.Watch,
		ExportDir:        o.ExportDir,
		Root:             o.Root,
		Cache:            o.Cache,
		Keys:             &cfg.Keys,
		Theme:            cfg.Theme,
		MouseOff:         !cfg.Mouse,
		Staleness:        cfg.Staleness,
		LiveWarnPercent:  cfg.Live.WarnPercent,
		LiveAlertPercent: cfg.Live.AlertPercent,
		Notice:           o.Notice,
	})
	prog := tea.NewProgram(timeKeys(newFrameViews(m, time.Now), o.Getenv))
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
	writeKeyLog(final)
	if fm, ok := unwrap(final).(ui.Model); ok {
		fm.Close() // the file watcher
	}
	return err
}
