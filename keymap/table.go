package keymap

import (
	"slices"
	"strings"
	"sync"
	"unsafe"

	"charm.land/bubbles/v2/key"
)

// PaneSpec is one row of the pane table: what identifies a pane to a
// person (its name, its three-letter name for a narrow tab bar, the key
// that jumps to it) and the group it belongs to. The ui shell's pane
// table adds the pane itself, row for row; a new pane is one row here
// and one there (ui.TestPaneTableMatchesKeymap holds them together).
type PaneSpec struct {
	Name  string
	Short string
	Key   string
	Group PaneGroup
}

// PaneGroup is what a pane is about, for a palette or a first screen
// that groups the panes.
type PaneGroup string

// The pane groups.
const (
	GroupHome     PaneGroup = "home"     // the whole home: projects, history, pastes, retention, secrets
	GroupProject  PaneGroup = "project"  // the open project's memory and prompt
	GroupSessions PaneGroup = "sessions" // sessions: replay, file history, live
)

// PaneID is a pane's place in Panes (its focus-ring position).
type PaneID int

// Panes is the pane table, in focus-ring order. Overview, the first
// screen, is 1. The keys 1–9 and 0 run out at the tenth pane; F, L, R
// and S are Files', Live's (l steps in Replay, so the capital), Review's
// (r renames in Memories) and Security's. The short
// names are all different (14 tabs at 80 columns).
var Panes = [...]PaneSpec{
	{"Overview", "Ovw", "1", GroupHome},
	{"Projects", "Prj", "2", GroupHome},
	{"Index", "Idx", "3", GroupProject},
	{"Memories", "Mem", "4", GroupProject},
	{"History", "His", "5", GroupHome},
	{"Pastes", "Pst", "6", GroupHome},
	{"Replay", "Rpl", "7", GroupSessions},
	{"Prompt", "Pmt", "8", GroupProject},
	{"Health", "Hlt", "9", GroupProject},
	{"Retention", "Ret", "0", GroupHome},
	{"Files", "Fil", "F", GroupSessions},
	{"Live", "Liv", "L", GroupSessions},
	{"Review", "Rev", "R", GroupProject},
	{"Security", "Sec", "S", GroupHome},
}

// PaneCount is the number of panes.
const PaneCount = len(Panes)

// PaneKey is the key that jumps to pane i.
func PaneKey(i int) string { return Panes[i].Key }

// PaneIndex returns the pane called name (in any case: the engine names
// panes in lower case), or -1.
func PaneIndex(name string) int {
	for i, p := range Panes {
		if strings.EqualFold(p.Name, name) {
			return i
		}
	}
	return -1
}

// Group is where an action's binding shows in the help overlay.
type Group int

// The action groups. Global, Navigation, Panes and Search are the
// overlay's shared columns (FullHelp), in that order; the others are the
// panes' own keys, which each pane's help lists for its modes.
const (
	Global Group = iota
	Navigation
	PaneJump
	Search
	Editing
	Confirmation
	ReplayKeys
	PaneKeys
	Detail
	Form
)

// Context is what the shell knows about the moment a key is pressed, for
// an action's availability.
type Context struct {
	// Pane is the focused pane.
	Pane PaneID
	// Stepping says a search has hits to step through (n, N).
	Stepping bool
	// HasError says an error was shown (! opens it).
	HasError bool
	// Asking says a y/n question waits for its answer.
	Asking bool
	// Typing says the focused pane has the keyboard (a filter, a form).
	Typing bool
	// VaultSession says the Replay pane's selected or open session is
	// one only the rescue vault holds.
	VaultSession bool
	// LostItem says the focused pane has a compaction's lost item
	// selected (Replay's { }).
	LostItem bool
}

// Action is one row of the binding table: the action's name (the
// settings file's key), its default keys and help, its group, the panes
// where it applies (none: every pane) and whether it is available now.
type Action struct {
	Name    string
	Group   Group
	Keys    []string
	HelpKey string
	Help    string
	// Panes are where the action applies; empty: everywhere.
	Panes []PaneID
	// Footer is the action's place in the footer's shared keys (1 first,
	// the most important; 0: not there): the footer drops keys from the
	// end when the line is narrow. Pinned actions end the footer at
	// every width.
	Footer int
	Pinned bool
	// Available says whether the action can run now and, when not, why
	// (what the status line says); nil: always.
	Available func(Context) (ok bool, why string)
	// at is the action's binding in a KeyMap.
	at func(*KeyMap) *key.Binding
}

// Binding is the action's binding in k.
func (a Action) Binding(k KeyMap) key.Binding { return *a.at(&k) }

// AvailableIn says whether the action runs in c (and why not).
func (a Action) AvailableIn(c Context) (bool, string) {
	if len(a.Panes) > 0 && !slices.Contains(a.Panes, c.Pane) {
		names := make([]string, len(a.Panes))
		for i, p := range a.Panes {
			names[i] = Panes[p].Name
		}
		return false, "not on this pane: only on " + strings.Join(names, ", ")
	}
	if a.Available == nil {
		return true, ""
	}
	return a.Available(c)
}

// on resolves pane names to their IDs; a name not in Panes is a
// mistake in the table (every test that reads it panics).
func on(names ...string) []PaneID {
	out := make([]PaneID, len(names))
	for i, n := range names {
		j := PaneIndex(n)
		if j < 0 {
			panic("keymap: no pane named " + n)
		}
		out[i] = PaneID(j)
	}
	return out
}

// Actions is the binding table: every action once. Default, Names,
// Rebind, the help overlay's groups and the footer's lists read it.
func Actions() []Action {
	a := []Action{
		// Global: handled by the shell before the focused pane, in the
		// overlay's order.
		{Name: "next_pane", Group: Global, Keys: []string{"tab"}, HelpKey: "tab", Help: "next pane", Footer: 1, at: func(k *KeyMap) *key.Binding { return &k.NextPane }},
		{Name: "prev_pane", Group: Global, Keys: []string{"shift+tab"}, HelpKey: "shift+tab", Help: "prev pane", at: func(k *KeyMap) *key.Binding { return &k.PrevPane }},
		{Name: "search", Group: Global, Keys: []string{"ctrl+f"}, HelpKey: "ctrl+f", Help: "search everything", at: func(k *KeyMap) *key.Binding { return &k.Search }},
		{Name: "undo", Group: Global, Keys: []string{"u"}, HelpKey: "u", Help: "undo last change", Footer: 3, at: func(k *KeyMap) *key.Binding { return &k.Undo }},
		{Name: "reload", Group: Global, Keys: []string{"ctrl+r"}, HelpKey: "ctrl+r", Help: "reload", at: func(k *KeyMap) *key.Binding { return &k.Reload }},
		{Name: "last_error", Group: Global, Keys: []string{"!"}, HelpKey: "!", Help: "last error in full", Available: func(c Context) (bool, string) {
			if !c.HasError {
				return false, "no error so far"
			}
			return true, ""
		}, at: func(k *KeyMap) *key.Binding { return &k.LastError }},
		{Name: "palette", Group: Global, Keys: []string{":", "ctrl+p"}, HelpKey: ":", Help: "command palette", at: func(k *KeyMap) *key.Binding { return &k.Palette }},
		{Name: "help", Group: Global, Keys: []string{"?"}, HelpKey: "?", Help: "help", Pinned: true, at: func(k *KeyMap) *key.Binding { return &k.Help }},
		{Name: "quit", Group: Global, Keys: []string{"q", "ctrl+c"}, HelpKey: "q", Help: "quit", Pinned: true, at: func(k *KeyMap) *key.Binding { return &k.Quit }},

		// Navigation: every list pane.
		{Name: "up", Group: Navigation, Keys: []string{"k", "up"}, HelpKey: "↑/k", Help: "up", Footer: 4, at: func(k *KeyMap) *key.Binding { return &k.Up }},
		{Name: "down", Group: Navigation, Keys: []string{"j", "down"}, HelpKey: "↓/j", Help: "down", Footer: 5, at: func(k *KeyMap) *key.Binding { return &k.Down }},
		{Name: "top", Group: Navigation, Keys: []string{"g", "home"}, HelpKey: "g", Help: "top", at: func(k *KeyMap) *key.Binding { return &k.Top }},
		{Name: "bottom", Group: Navigation, Keys: []string{"G", "end"}, HelpKey: "G", Help: "bottom", at: func(k *KeyMap) *key.Binding { return &k.Bottom }},
		{Name: "page_up", Group: Navigation, Keys: []string{"pgup", "ctrl+u"}, HelpKey: "pgup", Help: "page up", at: func(k *KeyMap) *key.Binding { return &k.PageUp }},
		{Name: "page_down", Group: Navigation, Keys: []string{"pgdown", "ctrl+d"}, HelpKey: "pgdn", Help: "page down", at: func(k *KeyMap) *key.Binding { return &k.PageDown }},
		{Name: "filter", Group: Navigation, Keys: []string{"/"}, HelpKey: "/", Help: "filter", Footer: 2, at: func(k *KeyMap) *key.Binding { return &k.Filter }},
		{Name: "open", Group: Navigation, Keys: []string{"enter"}, HelpKey: "enter", Help: "open", at: func(k *KeyMap) *key.Binding { return &k.Open }},
		{Name: "back", Group: Navigation, Keys: []string{"esc"}, HelpKey: "esc", Help: "back", at: func(k *KeyMap) *key.Binding { return &k.Back }},

		// Search: the prompt's switches, and n/N while a search has hits
		// (n is "new memory" otherwise).
		{Name: "search_regex", Group: Search, Keys: []string{"alt+r"}, HelpKey: "alt+r", Help: "regex on/off", at: func(k *KeyMap) *key.Binding { return &k.SearchRegex }},
		{Name: "search_case", Group: Search, Keys: []string{"alt+c"}, HelpKey: "alt+c", Help: "match case on/off", at: func(k *KeyMap) *key.Binding { return &k.SearchCase }},
		{Name: "search_scope", Group: Search, Keys: []string{"alt+p"}, HelpKey: "alt+p", Help: "whole home / this project", at: func(k *KeyMap) *key.Binding { return &k.SearchScope }},
		{Name: "next_hit", Group: Search, Keys: []string{"n"}, HelpKey: "n", Help: "next search hit", Available: stepping, at: func(k *KeyMap) *key.Binding { return &k.NextHit }},
		{Name: "prev_hit", Group: Search, Keys: []string{"N"}, HelpKey: "N", Help: "previous search hit", Available: stepping, at: func(k *KeyMap) *key.Binding { return &k.PrevHit }},

		// Editing memory (and the files the panes show).
		{Name: "edit", Group: Editing, Keys: []string{"e"}, HelpKey: "e", Help: "edit in $EDITOR", Panes: on("Index", "Memories", "Prompt", "Health", "Review"), at: func(k *KeyMap) *key.Binding { return &k.Edit }},
		{Name: "new", Group: Editing, Keys: []string{"n"}, HelpKey: "n", Help: "new memory", Panes: on("Memories"), Available: notStepping, at: func(k *KeyMap) *key.Binding { return &k.New }},
		{Name: "retype", Group: Editing, Keys: []string{"t"}, HelpKey: "t", Help: "change type", Panes: on("Memories"), at: func(k *KeyMap) *key.Binding { return &k.Retype }},
		{Name: "rename", Group: Editing, Keys: []string{"r"}, HelpKey: "r", Help: "rename", Panes: on("Memories"), at: func(k *KeyMap) *key.Binding { return &k.Rename }},
		{Name: "delete", Group: Editing, Keys: []string{"d"}, HelpKey: "d", Help: "delete to trash", Panes: on("Memories", "Security"), at: func(k *KeyMap) *key.Binding { return &k.Delete }},
		{Name: "expand", Group: PaneKeys, Keys: []string{"space"}, HelpKey: "space", Help: "expand pastes", Panes: on("History"), at: func(k *KeyMap) *key.Binding { return &k.Expand }},

		// Confirmation prompts.
		{Name: "confirm", Group: Confirmation, Keys: []string{"y"}, HelpKey: "y", Help: "yes", Available: asking, at: func(k *KeyMap) *key.Binding { return &k.Confirm }},
		{Name: "cancel", Group: Confirmation, Keys: []string{"n", "esc"}, HelpKey: "n/esc", Help: "no", Available: asking, at: func(k *KeyMap) *key.Binding { return &k.Cancel }},

		// Replay stepping.
		{Name: "step_next", Group: ReplayKeys, Keys: []string{"l", "right"}, HelpKey: "→/l", Help: "next step", Panes: on("Replay"), at: func(k *KeyMap) *key.Binding { return &k.StepNext }},
		{Name: "step_prev", Group: ReplayKeys, Keys: []string{"h", "left"}, HelpKey: "←/h", Help: "previous step", Panes: on("Replay"), at: func(k *KeyMap) *key.Binding { return &k.StepPrev }},
		{Name: "next_boundary", Group: ReplayKeys, Keys: []string{"]"}, HelpKey: "]", Help: "next compaction", Panes: on("Replay"), at: func(k *KeyMap) *key.Binding { return &k.NextBoundary }},
		{Name: "prev_boundary", Group: ReplayKeys, Keys: []string{"["}, HelpKey: "[", Help: "previous compaction", Panes: on("Replay"), at: func(k *KeyMap) *key.Binding { return &k.PrevBoundary }},
		{Name: "pipeline", Group: ReplayKeys, Keys: []string{"p"}, HelpKey: "p", Help: "pipeline at this step", Panes: on("Replay"), at: func(k *KeyMap) *key.Binding { return &k.Pipeline }},
		{Name: "window", Group: ReplayKeys, Keys: []string{"w"}, HelpKey: "w", Help: "try another window", Panes: on("Replay"), at: func(k *KeyMap) *key.Binding { return &k.Window }},
		{Name: "lost_next", Group: ReplayKeys, Keys: []string{"}"}, HelpKey: "}", Help: "next lost item", Panes: on("Replay"), Available: lostItem, at: func(k *KeyMap) *key.Binding { return &k.LostNext }},
		{Name: "lost_prev", Group: ReplayKeys, Keys: []string{"{"}, HelpKey: "{", Help: "previous lost item", Panes: on("Replay"), Available: lostItem, at: func(k *KeyMap) *key.Binding { return &k.LostPrev }},
		{Name: "open_lost", Group: ReplayKeys, Keys: []string{"o"}, HelpKey: "o", Help: "open the lost item at its turn", Panes: on("Replay"), Available: lostItem, at: func(k *KeyMap) *key.Binding { return &k.OpenLost }},
		// k is the shared "up" (vim): keeping is s, for "save"; t chooses
		// where (memory, a rules file, CLAUDE.md), t for --to (S is Security).
		{Name: "keep_lost", Group: ReplayKeys, Keys: []string{"s"}, HelpKey: "s", Help: "keep the lost rule (memory)", Panes: on("Replay"), Available: lostItem, at: func(k *KeyMap) *key.Binding { return &k.KeepLost }},
		{Name: "keep_lost_to", Group: ReplayKeys, Keys: []string{"t"}, HelpKey: "t", Help: "keep the lost rule to… (choose where)", Panes: on("Replay"), Available: lostItem, at: func(k *KeyMap) *key.Binding { return &k.KeepLostTo }},
		{Name: "vault_restore", Group: ReplayKeys, Keys: []string{"r"}, HelpKey: "r", Help: "put back from the vault", Panes: on("Replay"), Available: func(c Context) (bool, string) {
			if !c.VaultSession {
				return false, "needs a vault-only session selected"
			}
			return true, ""
		}, at: func(k *KeyMap) *key.Binding { return &k.VaultRestore }},

		// The panes' own keys.
		{Name: "query", Group: PaneKeys, Keys: []string{"i"}, HelpKey: "i", Help: "recall query", Panes: on("Prompt"), at: func(k *KeyMap) *key.Binding { return &k.Query }},
		{Name: "toggle", Group: PaneKeys, Keys: []string{"space"}, HelpKey: "space", Help: "select action", Panes: on("Health", "Files", "Security"), at: func(k *KeyMap) *key.Binding { return &k.Toggle }},
		{Name: "apply", Group: PaneKeys, Keys: []string{"a"}, HelpKey: "a", Help: "apply selected", Panes: on("Health", "Retention", "Files", "Security"), at: func(k *KeyMap) *key.Binding { return &k.Apply }},
		{Name: "export", Group: PaneKeys, Keys: []string{"x"}, HelpKey: "x", Help: "export as Markdown", Panes: on("Memories", "Replay"), at: func(k *KeyMap) *key.Binding { return &k.Export }},
		{Name: "export_html", Group: PaneKeys, Keys: []string{"X"}, HelpKey: "X", Help: "export as HTML", Panes: on("Replay"), at: func(k *KeyMap) *key.Binding { return &k.ExportHTML }},
		{Name: "live_compaction", Group: PaneKeys, Keys: []string{"c"}, HelpKey: "c", Help: "replay the last compaction", Panes: on("Live"), at: func(k *KeyMap) *key.Binding { return &k.LiveCompaction }},
		{Name: "next_store", Group: PaneKeys, Keys: []string{"m"}, HelpKey: "m", Help: "next store", Panes: on("Index", "Memories"), at: func(k *KeyMap) *key.Binding { return &k.NextStore }},
		{Name: "origin", Group: PaneKeys, Keys: []string{"o"}, HelpKey: "o", Help: "jump to origin in Replay", Panes: on("Memories", "Review"), at: func(k *KeyMap) *key.Binding { return &k.Origin }},
		{Name: "accept", Group: PaneKeys, Keys: []string{"a"}, HelpKey: "a", Help: "accept (mark reviewed)", Panes: on("Review"), at: func(k *KeyMap) *key.Binding { return &k.Accept }},
		{Name: "reject", Group: PaneKeys, Keys: []string{"d"}, HelpKey: "d", Help: "reject to trash", Panes: on("Review"), at: func(k *KeyMap) *key.Binding { return &k.Reject }},
		{Name: "remove_leftovers", Group: PaneKeys, Keys: []string{"C"}, HelpKey: "C", Help: "remove memscope's leftovers", Panes: on("Health"), at: func(k *KeyMap) *key.Binding { return &k.RemoveLeftovers }},

		// The detail beside or under a list.
		{Name: "detail_down", Group: Detail, Keys: []string{"J", "shift+down"}, HelpKey: "J", Help: "scroll detail down", at: func(k *KeyMap) *key.Binding { return &k.DetailDown }},
		{Name: "detail_up", Group: Detail, Keys: []string{"K", "shift+up"}, HelpKey: "K", Help: "scroll detail up", at: func(k *KeyMap) *key.Binding { return &k.DetailUp }},
		{Name: "zoom", Group: Detail, Keys: []string{"z"}, HelpKey: "z", Help: "zoom detail", at: func(k *KeyMap) *key.Binding { return &k.Zoom }},

		// Forms (the new-memory form, the change-type chooser, Replay's keep chooser).
		{Name: "next_field", Group: Form, Keys: []string{"tab"}, HelpKey: "tab", Help: "next field", Panes: on("Memories", "Replay"), Available: typing, at: func(k *KeyMap) *key.Binding { return &k.NextField }},
		{Name: "prev_field", Group: Form, Keys: []string{"shift+tab"}, HelpKey: "shift+tab", Help: "previous field", Panes: on("Memories", "Replay"), Available: typing, at: func(k *KeyMap) *key.Binding { return &k.PrevField }},
		{Name: "choice_next", Group: Form, Keys: []string{"right", "space"}, HelpKey: "→", Help: "next type", Panes: on("Memories"), Available: typing, at: func(k *KeyMap) *key.Binding { return &k.ChoiceNext }},
		{Name: "choice_prev", Group: Form, Keys: []string{"left"}, HelpKey: "←", Help: "previous type", Panes: on("Memories"), Available: typing, at: func(k *KeyMap) *key.Binding { return &k.ChoicePrev }},
	}
	for i, p := range Panes {
		a = append(a, Action{Name: "pane_" + snake(p.Name), Group: PaneJump, Keys: []string{p.Key}, HelpKey: p.Key, Help: p.Name, at: func(k *KeyMap) *key.Binding { return &k.Panes[i] }})
	}
	return a
}

func asking(c Context) (bool, string) {
	if !c.Asking {
		return false, "only while a y/n question waits"
	}
	return true, ""
}

func lostItem(c Context) (bool, string) {
	if !c.LostItem {
		return false, "needs a lost item selected"
	}
	return true, ""
}

func typing(c Context) (bool, string) {
	if !c.Typing {
		return false, "only in the new-memory form, the change-type chooser or Replay's keep chooser"
	}
	return true, ""
}

// String names the group as the palette shows it.
func (g Group) String() string {
	switch g {
	case Global:
		return "global"
	case Navigation:
		return "navigation"
	case PaneJump:
		return "panes"
	case Search:
		return "search"
	case Editing:
		return "editing"
	case Confirmation:
		return "confirmation"
	case ReplayKeys:
		return "replay"
	case PaneKeys:
		return "pane"
	case Detail:
		return "detail"
	case Form:
		return "form"
	}
	return "other"
}

func notStepping(c Context) (bool, string) {
	if c.Stepping {
		return false, "n steps through search hits now: esc ends the search"
	}
	return true, ""
}

func stepping(c Context) (bool, string) {
	if !c.Stepping {
		return false, "no search hits to step through"
	}
	return true, ""
}

// InGroup returns k's bindings of group g, in the table's order.
func (k KeyMap) InGroup(g Group) []key.Binding {
	var out []key.Binding
	for _, a := range Actions() {
		if a.Group == g {
			out = append(out, a.Binding(k))
		}
	}
	return out
}

// ActionNamed returns the action called name.
func ActionNamed(name string) (Action, bool) {
	for _, a := range Actions() {
		if a.Name == name {
			return a, true
		}
	}
	return Action{}, false
}

// footer returns k's bindings of the actions marked for the footer (by
// their Footer rank) or pinned, in table order.
func (k KeyMap) footer(pinned bool) []key.Binding {
	offs := footerOffsets()[0]
	if pinned {
		offs = footerOffsets()[1]
	}
	out := make([]key.Binding, len(offs))
	for i, off := range offs {
		// k's own field (an offset within KeyMap, of a key.Binding
		// field: footerOffsets), read without handing &k to a table's
		// function, which moved k (4.8 KB) to the heap at each call.
		out[i] = *(*key.Binding)(unsafe.Add(unsafe.Pointer(&k), off))
	}
	return out
}

// footerOffsets are where the footer's actions' bindings lie in a KeyMap,
// in the footer's order: [0] the ranked ones, [1] the pinned. The table
// does not change, so they are looked up once: the footer is asked for
// at every frame, and the table made at each ask (its actions, each
// pane's name) was 2.5 MB of a warm start's allocations on W.
var footerOffsets = sync.OnceValue(func() (offs [2][]uintptr) {
	probe := new(KeyMap)
	for i, pinned := range []bool{false, true} {
		var acts []Action
		for _, a := range Actions() {
			if pinned && a.Pinned || !pinned && a.Footer > 0 {
				acts = append(acts, a)
			}
		}
		slices.SortStableFunc(acts, func(a, b Action) int { return a.Footer - b.Footer })
		for _, a := range acts {
			off := uintptr(unsafe.Pointer(a.at(probe))) - uintptr(unsafe.Pointer(probe))
			if off > unsafe.Sizeof(*probe)-unsafe.Sizeof(key.Binding{}) {
				panic("keymap: a footer action's binding is not a field of KeyMap: " + a.Name)
			}
			offs[i] = append(offs[i], off)
		}
	}
	return offs
})
