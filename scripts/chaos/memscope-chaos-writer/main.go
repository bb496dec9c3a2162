// Command writer runs the chaos writer (package chaos) against a home:
// it appends history and transcript lines, writes pastes and replaces
// memory files like Claude Code does, for a number of steps or a
// duration (or until SIGINT/SIGTERM), then prints what it wrote as JSON.
//
//	go run ./scripts/chaos/memscope-chaos-writer -home DIR -duration 5s -counts counts.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/memscope/memscope/scripts/chaos"
)

func main() {
	var cfg chaos.Config
	flag.StringVar(&cfg.Home, "home", "", "the Claude home to write (required)")
	flag.StringVar(&cfg.Project, "project", "/tmp/chaos-project", "the simulated startup directory")
	flag.StringVar(&cfg.SessionID, "session", "", "the session id (default: a fixed one)")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "random seed")
	flag.IntVar(&cfg.SplitEvery, "split-every", 7, "split every Nth line over two writes (0: never)")
	flag.DurationVar(&cfg.SplitPause, "split-pause", 2*time.Millisecond, "pause between the halves of a split line")
	flag.IntVar(&cfg.Topics, "topics", 12, "distinct memory topic files")
	flag.DurationVar(&cfg.Pause, "pause", 0, "pause after each step")
	steps := flag.Int("steps", 0, "stop after this many steps (0: use -duration)")
	dur := flag.Duration("duration", 3*time.Second, "stop after this long")
	countsFile := flag.String("counts", "", "also write the counts to this file")
	flag.Parse()
	w, err := chaos.New(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	stop := make(chan struct{})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-sig:
		case <-time.After(*dur):
		}
		close(stop)
	}()
	var c chaos.Counts
	if *steps > 0 {
		c, err = w.RunN(*steps)
	} else {
		c, err = w.Run(stop)
	}
	out, _ := json.MarshalIndent(c, "", "  ")
	out = append(out, '\n')
	os.Stdout.Write(out)
	if *countsFile != "" {
		if werr := os.WriteFile(*countsFile, out, 0o644); werr != nil {
			fmt.Fprintln(os.Stderr, werr)
			os.Exit(1)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
