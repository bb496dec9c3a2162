package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	componentdetail "github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/text"
)

// The screen, top to bottom: an optional banner, the title line, the tabs,
// the focused pane in a border, the help line, the status line.

func (m Model) bannerText() string {
	var parts []string
	switch {
	case m.opts.Demo && m.opts.DemoAsked:
		parts = append(parts, "DEMO HOME — memscope's built-in example (--demo); without it memscope opens ~/.claude or --home DIR")
	case m.opts.Demo:
		parts = append(parts, "DEMO HOME — no Claude home found; this is memscope's built-in example (use --home DIR)")
	}
	if m.readOnly {
		parts = append(parts, m.readOnlyBanner())
	}
	return strings.Join(parts, " · ")
}

func (m Model) bannerRows() int {
	if m.bannerText() == "" {
		return 0
	}
	return 1
}

func (m Model) tabsRow() int { return m.bannerRows() + 1 }

func (m Model) bodyTop() int { return m.tabsRow() + 1 }

// bodyHeight is the pane's inner height: the screen minus banner, title,
// tabs, the border's two rows, help and status.
func (m Model) bodyHeight() int {
	return max(m.height-m.bannerRows()-2-2-2, 1)
}

func (m Model) bodyWidth() int { return max(m.width-2, 1) }

// layout hands every pane its inner size.
func (m *Model) layout() {
	for i := 0; i < paneCount; i++ {
		m.paneAt(i).SetSize(m.bodyWidth(), m.bodyHeight())
	}
	m.p.search.SetSize(m.bodyWidth(), m.bodyHeight())
	m.help.SetWidth(m.width)
}

func (m Model) render() string {
	if m.width == 0 || m.height == 0 {
		return "memscope: starting…"
	}
	var rows []string
	if b := m.bannerText(); b != "" {
		rows = append(rows, m.styles.Banner.Render(text.Truncate(b, max(m.width-2, 1))))
	}
	title := m.styles.Title.Render("memscope") + "  " + m.styles.Dim.Render(text.TruncateLeft(model.SanitizeLine(m.openPath()), max(m.width-12, 1)))
	rows = append(rows, title)
	rows = append(rows, m.renderTabs())
	body := m.paneAt(m.focus).View()
	if m.p.search.IsOpen() {
		body = m.p.search.View()
	}
	if p := m.modals.palette(); p != nil {
		body = p.View(m.styles, m.bodyWidth(), m.bodyHeight())
	}
	if m.modals.has(modalHelp) {
		body = m.fullHelp()
	}
	if m.modals.has(modalError) {
		// Wrapped at words, and inside a word longer than the pane (a
		// path), so none of it is cut off.
		full := lipgloss.NewStyle().Width(max(m.bodyWidth()-2, 1)).Render(model.SanitizeForTerminal(m.lastError))
		body = m.styles.Bold.Render("Last error (any key closes)") + "\n\n" + full
	}
	rows = append(rows, m.frame(body))
	rows = append(rows, m.helpLine())
	rows = append(rows, m.statusLine())
	return m.screen(strings.Join(rows, "\n"))
}

// frameMemo is the last pane body framed (boxed to the body's size and
// bordered) and the last screen cut to the window, each with what it was
// made from: lipgloss measures every cell of its text at each of those
// steps, most of a View's time, and a message that changes another pane
// or the status line (most of a start's) leaves the body as it was. Each
// is a function of its inputs alone, so a Model branched from another
// may share the memo.
type frameMemo struct {
	body, framed   string
	w, h           int
	dark, noColor  bool
	joined, screen string
	height         int
}

// frame is the focused pane's body boxed to the body's size and framed by
// the pane border, from the memo when the body and its size are as the
// last time.
func (m Model) frame(body string) string {
	w, h := m.bodyWidth(), m.bodyHeight()
	f := m.frames()
	if f != nil && f.framed != "" && f.body == body && f.w == w && f.h == h && f.dark == m.styles.IsDark && f.noColor == m.styles.NoColor {
		return f.framed
	}
	boxed := lipgloss.NewStyle().Width(w).Height(h).MaxHeight(h).MaxWidth(w).Render(body)
	framed := m.styles.PaneFocused.Render(boxed)
	if f != nil {
		f.body, f.framed, f.w, f.h, f.dark, f.noColor = body, framed, w, h, m.styles.IsDark, m.styles.NoColor
	}
	return framed
}

// screen is the rows cut to the window's height, from the memo when they
// are as the last time.
func (m Model) screen(joined string) string {
	f := m.frames()
	if f != nil && f.screen != "" && f.joined == joined && f.height == m.height {
		return f.screen
	}
	s := lipgloss.NewStyle().MaxHeight(m.height).Render(joined)
	if f != nil {
		f.joined, f.screen, f.height = joined, s, m.height
	}
	return s
}

// frames is the model's frame memo (nil for a Model not made by New).
func (m Model) frames() *frameMemo {
	if m.memo == nil {
		return nil
	}
	return &m.memo.frame
}

func (m Model) statusLine() string {
	if c := m.modals.question(); c != nil {
		return m.styles.Warn.Render(text.Truncate(text.OneLine(model.SanitizeForTerminal(c.text)), max(m.width, 1)))
	}
	s := m.status
	if l := m.loadingText(); l != "" {
		s = l + "  " + s
	}
	// Status texts quote file names and errors, which can carry anything.
	s = text.Truncate(text.OneLine(model.SanitizeForTerminal(s)), max(m.width, 1))
	if m.statusErr {
		return m.styles.Error.Render(s)
	}
	return m.styles.StatusBar.Render(s)
}

// filterer is a pane that says whether "/" filters it; panes without the
// method are lists and always filter.
type filterer interface{ CanFilter() bool }

// shortHelpParts are the help line's bindings: optional is the focused
// pane's keys then the keymap's short list, most important first; pinned
// ends the line at every width. While the pane has the keyboard (a filter,
// a form, a question) the global keys do not work, so only its own are
// offered.
func (m Model) shortHelpParts() (optional, pinned []key.Binding) {
	if pal := m.modals.palette(); pal != nil {
		// The palette has the keyboard: only its keys work.
		return pal.Help(), nil
	}
	p := m.paneAt(m.focus)
	if m.p.search.IsOpen() {
		// The overlay has the keyboard (in its results, help and quit
		// still work).
		if m.p.search.Typing() {
			return m.p.search.Help(), nil
		}
		return m.p.search.Help(), m.keys.Pinned()
	}
	optional = append(optional, m.p.search.Help()...)
	// The detail's scroll and zoom keys come after the shared ones: the
	// pane's own keys and the filter matter more on a narrow line.
	// A zoomed detail's way back comes first of all.
	var detail []key.Binding
	for _, b := range p.Help() {
		switch {
		case b.Help().Desc == componentdetail.UnzoomHelp:
			optional = append([]key.Binding{b}, optional...)
		case m.detailKey(b):
			detail = append(detail, b)
		default:
			optional = append(optional, b)
		}
	}
	if p.Filtering() {
		return append(optional, detail...), nil
	}
	for _, b := range m.keys.ShortHelp() {
		b = m.undoNamed(b)
		if f, ok := p.(filterer); ok && !f.CanFilter() && sameBinding(b, m.keys.Filter) {
			continue
		}
		optional = append(optional, b)
	}
	return append(optional, detail...), m.keys.Pinned()
}

// detailKey reports whether b scrolls or zooms a pane's detail (by its
// keys: zoom's help text says where it goes).
func (m Model) detailKey(b key.Binding) bool {
	for _, d := range []key.Binding{m.keys.DetailDown, m.keys.DetailUp, m.keys.Zoom} {
		if strings.Join(b.Keys(), " ") == strings.Join(d.Keys(), " ") {
			return true
		}
	}
	return false
}

// undoNamed returns b, or when b is the undo key, the undo key named for
// the history it undoes on the focused pane: file-history restores on
// Files, scrubs on Security, memory changes everywhere else.
func (m Model) undoNamed(b key.Binding) key.Binding {
	if !sameBinding(b, m.keys.Undo) {
		return b
	}
	switch m.focus {
	case paneFiles:
		return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, "undo file restore"))
	case paneSecurity:
		return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, "restore scrub"))
	}
	if what := m.undoWhat(); what != "" {
		return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, "undo "+what))
	}
	return b
}

// sameBinding reports whether a and b are the same binding.
func sameBinding(a, b key.Binding) bool {
	return a.Help() == b.Help() && strings.Join(a.Keys(), " ") == strings.Join(b.Keys(), " ")
}

// shortHelp is every binding the help line can show.
func (m Model) shortHelp() []key.Binding {
	optional, pinned := m.shortHelpParts()
	return append(optional, pinned...)
}

// helpLine is the help line at the screen's width: optional keys are
// dropped from the end (the least important first) until the line fits,
// so the pinned "? help" and "q quit" stay and no separator dangles.
func (m Model) helpLine() string {
	optional, pinned := m.shortHelpParts()
	h := *m.help
	h.SetWidth(0) // measure whole; the fitting is done here
	for n := len(optional); n >= 0; n-- {
		line := h.ShortHelpView(append(optional[:n:n], pinned...))
		if lipgloss.Width(line) <= m.width {
			return line
		}
	}
	return lipgloss.NewStyle().MaxWidth(m.width).Render(h.ShortHelpView(pinned))
}

// fullHelpGroups are the help overlay's columns: the focused pane's keys,
// then the global, navigation and pane-number groups from the keymap.
func (m Model) fullHelpGroups() [][]key.Binding {
	own := m.paneAt(m.focus).Help()
	if m.p.search.IsOpen() {
		own = m.p.search.Help()
	}
	groups := [][]key.Binding{own}
	for _, g := range m.keys.FullHelp() {
		named := make([]key.Binding, len(g))
		for i, b := range g {
			named[i] = m.undoNamed(b)
		}
		groups = append(groups, named)
	}
	return groups
}

// helpLines is the whole help overlay, line by line: the pane's keys and
// the global ones, then the pane's legend (what its symbols and badges
// mean).
func (m Model) helpLines() []string {
	var b strings.Builder
	b.WriteString(m.styles.Bold.Render("Keys — " + keymap.Panes[m.focus].Name))
	b.WriteString(m.styles.Dim.Render("  (↑/↓ pgup/pgdn scroll, any other key closes)"))
	b.WriteString("\n\n")
	h := *m.help
	h.SetWidth(m.bodyWidth()) // columns that do not fit end in "…", not wrapped
	if cols := h.FullHelpView(m.fullHelpGroups()); !strings.Contains(cols, h.Ellipsis) && lipgloss.Width(cols) <= m.bodyWidth() {
		b.WriteString(cols)
	} else {
		// Columns would cut keys off: one column, scrolled.
		b.WriteString(m.helpColumn())
	}
	if legend := m.paneAt(m.focus).Legend(); len(legend) > 0 {
		b.WriteString("\n\n")
		b.WriteString(m.styles.Bold.Render("Symbols — " + keymap.Panes[m.focus].Name))
		markW := 0
		for _, e := range legend {
			markW = max(markW, lipgloss.Width(e.Mark))
		}
		markW = min(markW, 26)
		for _, e := range legend {
			means := text.Wrap(e.Means, max(m.bodyWidth()-markW-4, 10))
			indent := strings.Repeat(" ", markW+4)
			if lipgloss.Width(e.Mark) > markW {
				// A mark wider than the column goes on a line of its own.
				b.WriteString("\n  " + e.Mark + "\n" + indent + strings.ReplaceAll(means, "\n", "\n"+indent))
				continue
			}
			b.WriteString("\n  " + text.Pad(e.Mark, markW) + "  " + strings.ReplaceAll(means, "\n", "\n"+indent))
		}
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		// bubbles' help can overrun its width by a column; a wrapped line
		// would shift every line after it.
		lines[i] = text.Truncate(l, m.bodyWidth())
	}
	return lines
}

// helpMaxOffset is the last first line the overlay scrolls to.
func (m Model) helpMaxOffset() int {
	return max(len(m.helpLines())-m.bodyHeight(), 0)
}

// fullHelp is the help overlay from helpOffset, one body high.
func (m Model) fullHelp() string {
	lines := m.helpLines()
	off := max(min(m.helpOffset, len(lines)-m.bodyHeight()), 0)
	end := min(off+m.bodyHeight(), len(lines))
	return strings.Join(lines[off:end], "\n")
}
