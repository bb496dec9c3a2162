// Command memscope-screenshot is scripts/screenshot.sh's helper: it
// materializes the embedded demo home, dated from a fixed time, in a
// folder (`demo DIR`), and
// renders a terminal screen captured with `tmux capture-pane -e` (text
// with SGR colour sequences) as an SVG picture (`svg`), cell by cell on a
// fixed grid, with no font or tool beyond the standard library and the
// module's own dependencies.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/memscope/memscope/demo"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "demo":
		if len(os.Args) != 3 {
			usage()
		}
		// The demo's files are dated from a fixed time, so what a pane
		// derives from the records' dates is the same on every run.
		l, err := demo.Materialize(os.Args[2], demoNow)
		if err != nil {
			fmt.Fprintln(os.Stderr, "memscope-screenshot:", err)
			os.Exit(1)
		}
		fmt.Printf("%s\t%s\n", l.Home, l.Project("shop-api"))
	case "svg":
		fs := flag.NewFlagSet("svg", flag.ExitOnError)
		cols := fs.Int("cols", 120, "columns of the screen")
		rows := fs.Int("rows", 40, "rows of the screen")
		title := fs.String("title", "memscope", "the picture's title (for screen readers)")
		fs.Parse(os.Args[2:])
		in, err := io.ReadAll(bufio.NewReader(os.Stdin))
		if err != nil {
			fmt.Fprintln(os.Stderr, "memscope-screenshot:", err)
			os.Exit(1)
		}
		w := bufio.NewWriter(os.Stdout)
		Render(w, Parse(string(in), *cols, *rows), *title)
		if err := w.Flush(); err != nil {
			fmt.Fprintln(os.Stderr, "memscope-screenshot:", err)
			os.Exit(1)
		}
	default:
		usage()
	}
}

// demoNow is the time the demo home is materialized for (the command
// snapshots' clock).
var demoNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func usage() {
	fmt.Fprintln(os.Stderr, "usage: memscope-screenshot demo DIR | memscope-screenshot svg [-cols N] [-rows N] [-title T] < capture")
	os.Exit(2)
}
