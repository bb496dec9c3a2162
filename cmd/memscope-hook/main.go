// Command memscope-hook runs memscope's Claude Code hooks (the
// memory-write gate, `memscope-hook hook pre-tool-use`; the vault's sync,
// `memscope-hook vault sync --hook`) with the same code and output as
// `memscope hook pre-tool-use` and `memscope vault sync --hook`, in a
// binary without the terminal app: the client starts the gate before
// every Write and Edit, and memscope's start-up (the terminal app's
// packages, Markdown and code highlighting among them) would be most of
// its time. `memscope hooks install` runs it when it lies beside
// memscope; the release archives carry both.
package main

import (
	"os"

	"github.com/memscope/memscope/cli"
	"github.com/memscope/memscope/model"
)

// version is set at build time like memscope's (-X main.version=...).
var version = ""

func main() {
	os.Exit(cli.HookMain(os.Args[1:], cli.Config{Version: version, Root: model.DirFS("/")}))
}
