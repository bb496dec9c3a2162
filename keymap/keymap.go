// Package keymap holds every key binding of the memscope app. Panes match
// keys with key.Matches against these bindings, and the help view is built
// from the same values, so what help shows and what keys do cannot drift.
package keymap

import "charm.land/bubbles/v2/key"

// KeyMap is the full set of bindings. Build it with Default.
type KeyMap struct {
	// Global keys, handled by the root model before the focused pane.
	Quit     key.Binding
	Help     key.Binding
	NextPane key.Binding
	PrevPane key.Binding
	Panes    [PaneCount]key.Binding
	Undo     key.Binding
	Reload   key.Binding
	// LastError opens the last error in full: the status line has room
	// for one line, and a long error is cut at the terminal's width.
	LastError key.Binding
	// Palette opens the command palette: every action by name, with
	// its key, and why it cannot run here when it cannot.
	Palette key.Binding

	// List navigation, shared by every list pane.
	Up       key.Binding
	Down     key.Binding
	Top      key.Binding
	Bottom   key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Filter   key.Binding
	Open     key.Binding
	Back     key.Binding

	// Editing memory.
	Edit   key.Binding
	New    key.Binding
	Retype key.Binding
	Rename key.Binding
	Delete key.Binding
	Expand key.Binding

	// Confirmation prompts.
	Confirm key.Binding
	Cancel  key.Binding

	// Replay stepping.
	StepNext     key.Binding
	StepPrev     key.Binding
	NextBoundary key.Binding
	PrevBoundary key.Binding
	Pipeline     key.Binding
	Window       key.Binding
	// The loss ledger at a compaction: select a lost item, open it at
	// its turn, keep it (as a memory, or in a place chosen).
	LostNext   key.Binding
	LostPrev   key.Binding
	OpenLost   key.Binding
	KeepLost   key.Binding
	KeepLostTo key.Binding
	// VaultRestore puts a vault-only session back into the home.
	VaultRestore key.Binding

	// Prompt preview.
	Query key.Binding

	// Health pane.
	Toggle key.Binding
	Apply  key.Binding

	// Export (Replay: the session; Memories: the project's memory).
	Export     key.Binding
	ExportHTML key.Binding

	// Live pane: replay the selected session's last compaction.
	LiveCompaction key.Binding

	// Search: ctrl+f opens it from every pane. In its prompt, alt+r,
	// alt+c and alt+p switch regex, case and scope; while a search has
	// hits, n and N step from hit to hit in their panes (only then: n is
	// "new memory" otherwise).
	Search      key.Binding
	SearchRegex key.Binding
	SearchCase  key.Binding
	SearchScope key.Binding
	NextHit     key.Binding
	PrevHit     key.Binding
	// Memories and Index panes: show the next memory store of the
	// project (its auto memory, then each agent's memory).
	NextStore key.Binding
	// Provenance (Memories, Review): open the turn that wrote the
	// selected memory in Replay.
	Origin key.Binding
	// Review pane: mark the selected memory reviewed; reject it (to the
	// trash, after a y/n).
	Accept key.Binding
	Reject key.Binding
	// RemoveLeftovers (Health pane) removes what interrupted memscope
	// writes left, after a y/n.
	RemoveLeftovers key.Binding
	// The detail beside or under a list (a diff, a file's text): scroll
	// it without moving the list, and zoom it to the whole pane (where
	// the list keys then scroll it).
	DetailDown key.Binding
	DetailUp   key.Binding
	Zoom       key.Binding

	// Forms (the new-memory form): move between fields, and pick among
	// a field's choices (the memory type) without typing into it.
	NextField  key.Binding
	PrevField  key.Binding
	ChoiceNext key.Binding
	ChoicePrev key.Binding
}

// Default returns the standard bindings, as the binding table
// (Actions) declares them.
func Default() KeyMap {
	var km KeyMap
	for _, a := range Actions() {
		*a.at(&km) = key.NewBinding(key.WithKeys(a.Keys...), key.WithHelp(a.HelpKey, a.Help))
	}
	return km
}

// Global returns the bindings the root handles for every pane.
func (k KeyMap) Global() []key.Binding {
	return k.InGroup(Global)
}

// SearchKeys are the search's own keys: the prompt's switches, and n/N,
// which step through the hits while a search has some.
func (k KeyMap) SearchKeys() []key.Binding {
	return k.InGroup(Search)
}

// Navigation returns the list bindings every list pane shares.
func (k KeyMap) Navigation() []key.Binding {
	return k.InGroup(Navigation)
}

// ShortHelp is the one-line help's shared keys after the pane's own, most
// important first: when the line is too narrow the help line drops keys
// from the end, and never drops Pinned.
func (k KeyMap) ShortHelp() []key.Binding {
	return k.footer(false)
}

// Pinned are the keys the help line always ends with, at any width: how to
// learn the rest, and how to leave.
func (k KeyMap) Pinned() []key.Binding {
	return k.footer(true)
}

// FullHelp is the help overlay: global keys, navigation, the number keys,
// the search's keys. Panes add their own column with their pane-specific
// bindings.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.Global(), k.Navigation(), k.InGroup(PaneJump), k.SearchKeys()}
}
