// Package model holds what Claude Code keeps on disk: typed values for every
// store (memory index, typed memory files, history, paste cache,
// transcripts, CLAUDE.md files, settings), their parsers, and the single
// atomic writer memscope uses for everything it writes.
//
// Readers take an io/fs.FS so tests can use fstest.MapFS and real homes
// alike. Parsers never panic and never drop input silently: a line or file
// that cannot be read is skipped and reported as a Problem naming the file,
// the line and the reason.
package model
