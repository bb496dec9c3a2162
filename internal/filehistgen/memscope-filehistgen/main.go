// Command gen writes the file-history test home of package filehistgen
// into a folder, for trying memscope files and the Files pane by hand:
//
//	go run ./internal/filehistgen/memscope-filehistgen DIR
//	memscope files --home DIR/home
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/memscope/memscope/internal/filehistgen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	l, err := filehistgen.Write(os.Args[1], time.Now().Add(-time.Hour))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("home %s\ncwd  %s\nsession %s\n", l.Home, l.CWD, filehistgen.SessionID)
}
