// Package palette is the command palette: a list of every action by name,
// filtered as the user types with bubbles' fuzzy matcher (list's
// DefaultFilter), each with its key and group, and greyed with why when it
// cannot run where the palette was opened. The shell builds the items from
// the binding table and runs the chosen one; the palette only picks.
package palette

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/list"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
)

// Item is one action the palette offers.
type Item struct {
	// Name is the binding table's name ("edit", "pane_replay"); the shell
	// runs the action by it.
	Name string
	// Title is what the action does ("edit in $EDITOR", "go to Replay").
	Title string
	// Key is the key that runs it anywhere else ("e").
	Key string
	// Group is the binding table's group ("editing").
	Group string
	// Why says why the action cannot run here; empty: it can.
	Why string
}

// target is what the fuzzy matcher reads for it: title, group and key.
func (it Item) target() string { return it.Title + " " + it.Group + " " + it.Key }

// Model is an open palette.
type Model struct {
	items  []Item
	query  string
	shown  []int // indexes into items, best match first
	cursor int
}

// New opens a palette over items with an empty query (every item, in
// the table's order).
func New(items []Item) Model {
	p := Model{items: items}
	p.refilter()
	return p
}

// Query is what the user typed.
func (p Model) Query() string { return p.query }

// Shown is the items the query matches, best first.
func (p Model) Shown() []Item {
	out := make([]Item, len(p.shown))
	for i, j := range p.shown {
		out[i] = p.items[j]
	}
	return out
}

// Selected is the item under the cursor; ok is false when nothing
// matches.
func (p Model) Selected() (Item, bool) {
	if p.cursor < 0 || p.cursor >= len(p.shown) {
		return Item{}, false
	}
	return p.items[p.shown[p.cursor]], true
}

// Result is what a key did to the palette.
type Result int

// The results of Update.
const (
	Continue Result = iota // still open
	Closed                 // esc: closed, nothing run
	Chosen                 // enter: run Selected
)

// Help is the palette's own keys, for the footer while it is open: it
// has the keyboard, so the pane's keys (and the global ones) would not
// run. Update reads the same keys.
func (p Model) Help() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "move")),
		key.NewBinding(key.WithKeys("a"), key.WithHelp("type", "to filter")),
	}
}

// Update takes a key: text narrows the list, up/down move, enter chooses,
// esc closes, backspace takes back a character.
func (p Model) Update(msg tea.KeyPressMsg) (Model, Result) {
	switch msg.String() {
	case "esc", "ctrl+c":
		return p, Closed
	case "enter":
		if _, ok := p.Selected(); !ok {
			return p, Continue
		}
		return p, Chosen
	case "up", "ctrl+k", "shift+tab":
		p.cursor = max(p.cursor-1, 0)
	case "down", "ctrl+j", "tab":
		p.cursor = min(p.cursor+1, max(len(p.shown)-1, 0))
	case "pgup":
		p.cursor = max(p.cursor-10, 0)
	case "pgdown":
		p.cursor = min(p.cursor+10, max(len(p.shown)-1, 0))
	case "backspace":
		if r := []rune(p.query); len(r) > 0 {
			p.query = string(r[:len(r)-1])
			p.refilter()
		}
	case "space":
		p.query += " "
		p.refilter()
	default:
		if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
			p.query += msg.Text
			p.refilter()
		}
	}
	return p, Continue
}

// refilter ranks the items against the query (each word must match, in
// any order), the ones that run here first, and puts the cursor on the
// best.
func (p *Model) refilter() {
	words := strings.Fields(p.query)
	all := make([]int, len(p.items))
	for i := range all {
		all[i] = i
	}
	p.shown = all
	for _, w := range words {
		targets := make([]string, len(p.shown))
		for i, j := range p.shown {
			targets[i] = p.items[j].target()
		}
		ranks := list.DefaultFilter(w, targets)
		next := make([]int, len(ranks))
		for i, r := range ranks {
			next[i] = p.shown[r.Index]
		}
		p.shown = next
	}
	// Fuzzy ranks "zoom detail" above "edit" for "ed"; a title holding
	// every word as typed comes first, then the rest as the matcher
	// ranked them; the actions that run here before those that do not.
	whole := func(j int) int {
		t := strings.ToLower(p.items[j].Title + " " + p.items[j].Key)
		for _, w := range words {
			if !strings.Contains(t, strings.ToLower(w)) {
				return 1
			}
		}
		return 0
	}
	slices.SortStableFunc(p.shown, func(a, b int) int {
		if d := boolInt(p.items[a].Why != "") - boolInt(p.items[b].Why != ""); d != 0 {
			return d
		}
		return whole(a) - whole(b)
	})
	p.cursor = 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// View draws the palette in width×height: the prompt, then the matches
// around the cursor, each "key  title  group", greyed with why when it
// cannot run here.
func (p Model) View(st style.Styles, width, height int) string {
	var b strings.Builder
	b.WriteString(st.Bold.Render("Command palette"))
	b.WriteString(st.Dim.Render(text.Truncate("  type to filter · ↑/↓ move · enter runs · esc closes", max(width-15, 0))))
	b.WriteString("\n")
	b.WriteString(text.Truncate(": "+p.query+"▏", width))
	b.WriteString("\n")
	b.WriteString(st.Dim.Render(text.Truncate(fmt.Sprintf("%d of %s", len(p.shown), text.Count(len(p.items), "action", "")), width)))
	rows := max(height-3, 1)
	if len(p.shown) == 0 {
		b.WriteString("\n" + st.Dim.Render(text.Truncate("nothing matches "+p.query, width)))
		return b.String()
	}
	first := 0
	if p.cursor >= rows {
		first = p.cursor - rows + 1
	}
	keyW, groupW := 0, 0
	for _, j := range p.shown {
		keyW = max(keyW, lipgloss.Width(p.items[j].Key))
		groupW = max(groupW, lipgloss.Width(p.items[j].Group))
	}
	keyW, groupW = min(keyW, 10), min(groupW, 18)
	for i := first; i < min(first+rows, len(p.shown)); i++ {
		it := p.items[p.shown[i]]
		mark := "  "
		if i == p.cursor {
			mark = "▸ "
		}
		line := mark + text.Pad(text.Truncate(it.Key, keyW), keyW) + "  " + text.Pad(text.Truncate(it.Group, groupW), groupW) + "  " + it.Title
		if it.Why != "" {
			line += " — " + it.Why
		}
		line = text.Truncate(line, width)
		switch {
		case i == p.cursor:
			line = st.Selected.Render(line)
		case it.Why != "":
			line = st.Dim.Render(line)
		}
		b.WriteString("\n" + line)
	}
	return b.String()
}
