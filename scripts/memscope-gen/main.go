// Command memscope-gen writes a synthetic Claude home in the real on-disk
// formats, for memscope's benchmarks and scale tests (package gen).
//
//	go run ./scripts/memscope-gen -out DIR -size W|W/2|W/4|<bytes> -seed N [-work DIR]
package main

import (
	"os"

	"github.com/memscope/memscope/scripts/memscope-gen/gen"
)

func main() {
	os.Exit(gen.Run(os.Args[1:], os.Stdout, os.Stderr))
}
