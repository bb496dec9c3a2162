// Command gen writes the provenance test home of package provgen into a
// folder, for trying memscope origin, memscope review and the Review
// pane by hand (and for scripts/e2e-tmux.sh):
//
//	go run ./internal/provgen/memscope-provgen DIR
//	memscope origin --home DIR/home --project DIR/project
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/memscope/memscope/internal/provgen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	l, err := provgen.Write(os.Args[1], time.Now())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("home    %s\nproject %s\n", l.Home, l.Project)
}
