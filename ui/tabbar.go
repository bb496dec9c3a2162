package ui

import (
	"slices"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/memscope/memscope/keymap"
)

// tabSeg is one piece of the tab bar: a pane's tab ("3 Memories"), or a
// folded group of panes ("Sessions 6 0 L"), which a click opens at its
// first pane.
type tabSeg struct {
	text string
	pane int  // the pane it focuses
	fold bool // a folded group
}

// tabLevel is one way of drawing the tab bar, from the widest to the
// narrowest.
type tabLevel struct {
	group bool // fold the groups but the focused pane's
	keys  bool // a folded group lists its panes' keys
	cut   int  // cut names to this many letters (3: the short names)
	tight bool // no space after each tab
}

var tabLevels = []tabLevel{
	{}, {tight: true},
	{group: true, keys: true}, {group: true, keys: true, tight: true},
	{group: true, tight: true},
	{group: true, cut: 4, tight: true}, {group: true, cut: 3, tight: true},
}

// tabs is the tab bar: every pane by its full name when they fit; when
// not, the focused pane's group by full names and the other groups
// folded to their name and keys (keymap.Panes' groups), then without the
// keys; only then names are cut (to four letters, then the three-letter
// short names), in the focused group alone, the focused pane's never.
func (m Model) tabs() (segs []tabSeg, active, inactive lipgloss.Style) {
	for _, lv := range tabLevels {
		segs, active, inactive = m.tabsAt(lv)
		total := 0
		for _, s := range segs {
			total += lipgloss.Width(inactive.Render(s.text))
		}
		if total <= m.width {
			break
		}
	}
	return segs, active, inactive
}

// tabsAt is the tab bar drawn at level lv.
func (m Model) tabsAt(lv tabLevel) (segs []tabSeg, active, inactive lipgloss.Style) {
	active, inactive = m.styles.TabActive, m.styles.TabInactive
	if lv.tight {
		active, inactive = active.PaddingRight(0), inactive.PaddingRight(0)
	}
	name := func(i int, p keymap.PaneSpec) string {
		n := p.Name
		switch r := []rune(n); {
		case i == m.focus:
			// The focused pane keeps its full name at every level.
		case lv.cut == 3:
			n = p.Short
		case lv.cut > 0 && len(r) > lv.cut:
			n = string(r[:lv.cut])
		}
		return p.Key + " " + n
	}
	if !lv.group {
		for i, p := range keymap.Panes {
			segs = append(segs, tabSeg{text: name(i, p), pane: i})
		}
		return segs, active, inactive
	}
	focused := keymap.Panes[m.focus].Group
	var order []keymap.PaneGroup
	for _, p := range keymap.Panes {
		if !slices.Contains(order, p.Group) {
			order = append(order, p.Group)
		}
	}
	for _, g := range order {
		if g == focused {
			for i, p := range keymap.Panes {
				if p.Group == g {
					segs = append(segs, tabSeg{text: name(i, p), pane: i})
				}
			}
			continue
		}
		fold := tabSeg{text: groupTitle(g), pane: -1, fold: true}
		var keys []string
		for i, p := range keymap.Panes {
			if p.Group == g {
				if fold.pane < 0 {
					fold.pane = i
				}
				keys = append(keys, p.Key)
			}
		}
		if lv.keys {
			fold.text += " " + strings.Join(keys, " ")
		}
		fold.text = "[" + fold.text + "]"
		segs = append(segs, fold)
	}
	return segs, active, inactive
}

// groupTitle is a pane group's name on the tab bar ("Sessions").
func groupTitle(g keymap.PaneGroup) string {
	s := string(g)
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// tabAt returns the pane whose tab covers column x (a folded group's
// first pane), or -1.
func (m Model) tabAt(x int) int {
	segs, _, inactive := m.tabs()
	pos := 0
	for _, s := range segs {
		w := lipgloss.Width(inactive.Render(s.text))
		if x >= pos && x < pos+w {
			return s.pane
		}
		pos += w
	}
	return -1
}

func (m Model) renderTabs() string {
	segs, active, inactive := m.tabs()
	var b strings.Builder
	for _, s := range segs {
		switch {
		case !s.fold && s.pane == m.focus:
			b.WriteString(active.Render(s.text))
		case s.fold:
			b.WriteString(inactive.Faint(true).Render(s.text))
		default:
			b.WriteString(inactive.Render(s.text))
		}
	}
	return lipgloss.NewStyle().MaxWidth(m.width).Render(b.String())
}
