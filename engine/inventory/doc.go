// Package inventory counts every store of a Claude home for memscope
// stat: projects, memory, history, pastes, sessions, file history, and
// every malformed line with its file and line.
package inventory
