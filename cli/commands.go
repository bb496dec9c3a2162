package cli

// command is one subcommand.
type command struct {
	name    string
	usage   string
	summary string
	// run parses the arguments after the command's name, does the work
	// and prints the result. A nil error is exit code 0; see exitCode for
	// the others.
	run func(e *env, args []string) error
}

// commands are memscope's subcommands, in the order help lists them
// (alphabetical). Each is defined in its cmd_<name>.go file; adding one
// means adding it here.
var commands = []*command{
	archiveCommand,
	cleanupCommand,
	compactCommand,
	exportCommand,
	extractCommand,
	filesCommand,
	lintCommand,
	promptCommand,
	pruneCommand,
	replayCommand,
	sessionsCommand,
	statCommand,
	trashCommand,
	undoCommand,
}

// lookup finds the subcommand called name, or nil.
func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}
