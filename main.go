// Command memscope shows, edits and explains everything Claude Code
// remembers on disk: the MEMORY.md index and typed memory files, history
// and pastes, session transcripts and their compactions, and CLAUDE.md.
//
// With no subcommand it opens the terminal app; subcommands print the same
// information as text or --json for scripts and CI. The commands live in
// package cli; this file hands them the process.
package main

import (
	"os"

	"github.com/memscope/memscope/cli"
	"github.com/memscope/memscope/cli/app"
	"github.com/memscope/memscope/model"
)

// version can be set at build time with -ldflags "-X main.version=...";
// left empty, memscope --version reads the module version, commit and
// commit date from the Go build info.
var version = ""

func main() {
	// The machine's file system is opened here and only here: everything
	// below reads it through this fs.FS, so tests can hide the machine.
	// model.DirFS never blocks on a named pipe nor reads a device.
	os.Exit(cli.Main(os.Args[1:], cli.Config{Version: version, Root: model.DirFS("/"), App: app.Run}))
}
