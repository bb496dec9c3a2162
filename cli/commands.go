package cli

// command is one subcommand.
type command struct {
	name    string
	usage   string
	summary string
	// run parses the arguments after the command's name, does the work
	// and prints the result (steps builds it). A nil error is exit code 0;
	// see exitCode for the others.
	run func(e *env, args []string) error
}

// commands are memscope's subcommands, in the order help lists them
// (alphabetical). Each is defined in its cmd_<name>.go file; adding one
// means adding it here.
var commands = []*command{
	archiveCommand,
	cleanupCommand,
	compactCommand,
	completionCommand,
	configCommand,
	doctorCommand,
	exportCommand,
	extractCommand,
	filesCommand,
	gateCommand,
	hookCommand,
	hooksCommand,
	lintCommand,
	loadsCommand,
	manCommand,
	originCommand,
	overviewCommand,
	promptCommand,
	pruneCommand,
	replayCommand,
	reviewCommand,
	searchCommand,
	secretsCommand,
	sessionsCommand,
	statCommand,
	statuslineCommand,
	trashCommand,
	undoCommand,
	vaultCommand,
	watchCommand,
}

// steps makes a command's run out of its three steps: parse fills the
// options from the arguments, run does the work and returns a result,
// show prints it (as text or --json) and says how the command ends.
func steps[O, R any](parse func(*env, []string) (O, error), run func(*env, O) (R, error), show func(*env, O, R) error) func(*env, []string) error {
	return func(e *env, args []string) error {
		opts, err := parse(e, args)
		if err != nil {
			return err
		}
		res, err := run(e, opts)
		if err != nil {
			return err
		}
		return show(e, opts, res)
	}
}

// lookup finds the subcommand called name, or nil.
func (e *env) lookup(name string) *command {
	for _, c := range e.commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// commands is the command list this run uses: the one above, which run
// puts in env, so that the commands describing the list (completion,
// man) can read it without an initialization cycle.
func (e *env) commands() []*command {
	return e.table
}
