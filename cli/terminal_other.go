//go:build !unix

package cli

import "github.com/charmbracelet/x/term"

// isTerminalFd reports whether fd is a terminal.
func isTerminalFd(fd uintptr) bool { return term.IsTerminal(fd) }
