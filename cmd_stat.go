package main

import "fmt"

func init() {
	register(command{
		name:    "stat",
		usage:   "memscope stat [--home DIR] [--json]",
		summary: "inventory of the Claude home: projects, memory, history, pastes, transcripts",
		run:     runStat,
	})
}

func runStat(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "memscope stat: being built")
	return 1
}
