package main

// runDefault runs memscope without a subcommand. Until the terminal app
// lands it prints the stat report.
func runDefault(e *env, args []string) int {
	return runStat(e, args)
}
