// Package feed holds the TUI's feeds: one per store the terminal app
// reads. A feed owns its request, its in-flight state (one read at a
// time, later requests merged behind it), what it keeps of the last read,
// and what a file change means to it; it does the reading in tea.Cmds
// and hands its pane the data as the pane's typed message. The shell
// (package ui) holds the feeds by pointer and routes their messages; a
// feed never imports the shell (internal/archtest).
package feed
