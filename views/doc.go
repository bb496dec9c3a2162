// Package views holds the panes of the TUI, one sub-package per pane
// (projects, index, memories, history, pastes, replay, prompt, health,
// retention, files). Each pane owns its state, its keys and its View, and
// does no I/O: it asks the root model (package ui) for data with the
// request messages of views/msgs or of its own package, and the root
// hands back what its commands read.
//
// Two sub-trees are not panes:
//
//	views/component/  pieces every pane shares: the list, styles, text
//	                  formatting and the Markdown renderer
//	views/msgs/       the requests any pane may send the root
//
// Imports point down: ui → views/<pane> → views/component, views/msgs →
// {keymap, engine, model}. No pane imports another pane.
package views
