// Package projectmem is a project's memory opened as memscope's commands
// (and the Overview built on them) open it: the home and the machine it
// is read in (Env), the memory folder resolved the client's way and read
// through one store (Target), and the inputs the checks on it start from
// (lint's input with memscope's leftovers and the transcripts' loads,
// the next session's prompt options, the provenance scan's options).
// `memscope lint`, `loads`, `review`, `origin`, `prompt` and
// engine/overview all assemble them here, so none of them can look at a
// different folder or with different options.
package projectmem
