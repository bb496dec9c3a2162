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
	Panes    [13]key.Binding
	Undo     key.Binding
	Reload   key.Binding
	// LastError opens the last error in full: the status line has room
	// for one line, and a long error is cut at the terminal's width.
	LastError key.Binding

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

// PaneNames are the panes in focus-ring order; the keys 1–9, 0, L, R and
// S jump to them (PaneKey).
var PaneNames = [13]string{"Projects", "Index", "Memories", "History", "Pastes", "Replay", "Prompt", "Health", "Retention", "Files", "Live", "Review", "Security"}

// PaneShort are the panes' names in three letters, all different, for a
// tab bar too narrow for the names (13 tabs at 80 columns).
var PaneShort = [13]string{"Prj", "Idx", "Mem", "His", "Pst", "Rpl", "Pmt", "Hlt", "Ret", "Fil", "Liv", "Rev", "Sec"}

// PaneKey is the key of pane i: 1–9, then 0 for the tenth, L for Live,
// the eleventh (the number keys ran out; l steps in Replay, so the
// capital is Live's), R for Review, the twelfth (r renames in Memories),
// and S for Security, the thirteenth.
func PaneKey(i int) string {
	switch i {
	case 9:
		return "0"
	case 10:
		return "L"
	case 11:
		return "R"
	case 12:
		return "S"
	}
	return string(rune('1' + i))
}

// Default returns the standard bindings.
func Default() KeyMap {
	km := KeyMap{
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		NextPane:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "prev pane")),
		Undo:      key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "undo last change")),
		Reload:    key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "reload")),
		LastError: key.NewBinding(key.WithKeys("!"), key.WithHelp("!", "last error in full")),

		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),

		Edit:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit in $EDITOR")),
		New:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new memory")),
		Retype: key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "change type")),
		Rename: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "rename")),
		Delete: key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "delete to trash")),
		Expand: key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "expand pastes")),

		Confirm: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		Cancel:  key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "no")),

		StepNext:     key.NewBinding(key.WithKeys("l", "right"), key.WithHelp("→/l", "next step")),
		StepPrev:     key.NewBinding(key.WithKeys("h", "left"), key.WithHelp("←/h", "previous step")),
		NextBoundary: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next compaction")),
		PrevBoundary: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous compaction")),
		Pipeline:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pipeline at this step")),
		Window:       key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "try another window")),

		Query: key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "recall query")),

		Toggle: key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "select action")),
		Apply:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "apply selected")),

		Export:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "export as Markdown")),
		ExportHTML: key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "export as HTML")),

		LiveCompaction: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "replay the last compaction")),

		Search:      key.NewBinding(key.WithKeys("ctrl+f"), key.WithHelp("ctrl+f", "search everything")),
		SearchRegex: key.NewBinding(key.WithKeys("alt+r"), key.WithHelp("alt+r", "regex on/off")),
		SearchCase:  key.NewBinding(key.WithKeys("alt+c"), key.WithHelp("alt+c", "match case on/off")),
		SearchScope: key.NewBinding(key.WithKeys("alt+p"), key.WithHelp("alt+p", "whole home / this project")),
		NextHit:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next search hit")),
		PrevHit:     key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous search hit")),
		NextStore:   key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "next store")),
		Origin:      key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "jump to origin in Replay")),
		Accept:      key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "accept (mark reviewed)")),
		Reject:      key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "reject to trash")),

		RemoveLeftovers: key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "remove memscope's leftovers")),
		DetailDown:      key.NewBinding(key.WithKeys("J", "shift+down"), key.WithHelp("J", "scroll detail down")),
		DetailUp:        key.NewBinding(key.WithKeys("K", "shift+up"), key.WithHelp("K", "scroll detail up")),
		Zoom:            key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "zoom detail")),

		NextField:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next field")),
		PrevField:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous field")),
		ChoiceNext: key.NewBinding(key.WithKeys("right", "space"), key.WithHelp("→", "next type")),
		ChoicePrev: key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous type")),
	}
	for i, name := range PaneNames {
		k := PaneKey(i)
		km.Panes[i] = key.NewBinding(key.WithKeys(k), key.WithHelp(k, name))
	}
	return km
}

// Global returns the bindings the root handles for every pane.
func (k KeyMap) Global() []key.Binding {
	return []key.Binding{k.NextPane, k.PrevPane, k.Search, k.Undo, k.Reload, k.LastError, k.Help, k.Quit}
}

// SearchKeys are the search's own keys: the prompt's switches, and n/N,
// which step through the hits while a search has some.
func (k KeyMap) SearchKeys() []key.Binding {
	return []key.Binding{k.SearchRegex, k.SearchCase, k.SearchScope, k.NextHit, k.PrevHit}
}

// Navigation returns the list bindings every list pane shares.
func (k KeyMap) Navigation() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.Filter, k.Open, k.Back}
}

// ShortHelp is the one-line help's shared keys after the pane's own, most
// important first: when the line is too narrow the help line drops keys
// from the end, and never drops Pinned.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.NextPane, k.Filter, k.Undo, k.Up, k.Down}
}

// Pinned are the keys the help line always ends with, at any width: how to
// learn the rest, and how to leave.
func (k KeyMap) Pinned() []key.Binding {
	return []key.Binding{k.Help, k.Quit}
}

// FullHelp is the help overlay: global keys, navigation, the number keys,
// the search's keys. Panes add their own column with their pane-specific
// bindings.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.Global(), k.Navigation(), k.Panes[:], k.SearchKeys()}
}
