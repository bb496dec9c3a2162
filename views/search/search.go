// Package search is the Search overlay: a prompt for a query (literal or
// regex, any case or matching case, the whole home or the open project)
// and the hits as they stream in, grouped by file, newest first. enter
// opens a hit in its pane, n and N step from hit to hit, esc stops a
// running search and then closes it.
//
// The overlay does no I/O: it asks the root to start (Start) or stop
// (Cancel) a search and to open a hit (Jump); the root runs the search in
// a command and hands the hits over with Add as they come, then Finish.
package search

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	engine "github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
)

// Mode is what the overlay shows and what its keys do.
type Mode int

// The modes.
const (
	// ModeClosed: the overlay is not on screen (a search's hits may
	// still be stepped through with n and N).
	ModeClosed Mode = iota
	// ModePrompt: the query is being typed.
	ModePrompt
	// ModeResults: the hits, one selected.
	ModeResults
)

// Start asks the root to start a search (stopping any running one).
type Start struct {
	Query string
	Regex bool
	Case  bool
	// Project limits the search to the open project.
	Project bool
}

// Cancel asks the root to stop the running search.
type Cancel struct{}

// Jump asks the root to open a hit in its pane. Index is the hit's place
// among Of hits (from 0).
type Jump struct {
	Hit       engine.Hit
	Index, Of int
}

// row is a line of the list: a file's heading (hit < 0) or a hit.
type row struct {
	hit     int
	heading string
}

// Model is the Search overlay.
type Model struct {
	keys   *keymap.KeyMap
	styles style.Styles
	mode   Mode
	width  int
	height int

	input textinput.Model
	// The switches, as the next search runs.
	regex, caseSens, project bool
	// projectName is the open project ("" when none is open: the whole
	// home is the only scope).
	projectName string

	// ran is the search whose hits are shown.
	ran     Start
	running bool
	hits    []engine.Hit
	rows    []row
	hitRow  []int // each hit's row
	// full says MaxHits were reached.
	full   bool
	files  int
	cursor int // the selected hit (index in hits)
	top    int // the first row on screen
	sum    *engine.Summary
	err    string
}

// New returns a closed overlay.
func New(keys keymap.KeyMap, st style.Styles) Model {
	return Model{keys: &keys, styles: st, input: style.Input("search: ", "text to find in every store (enter runs it)")}
}

// Mode is what the overlay shows.
func (m Model) Mode() Mode { return m.mode }

// IsOpen reports whether the overlay is on screen.
func (m Model) IsOpen() bool { return m.mode != ModeClosed }

// Typing reports whether the overlay takes every key (the prompt).
func (m Model) Typing() bool { return m.mode == ModePrompt }

// Stepping reports whether n and N step through hits: a search has hits
// and the overlay is closed.
func (m Model) Stepping() bool { return m.mode == ModeClosed && len(m.hits) > 0 }

// Running reports whether a search is under way.
func (m Model) Running() bool { return m.running }

// Hits are the hits so far.
func (m Model) Hits() []engine.Hit { return m.hits }

// Cursor is the selected hit's index.
func (m Model) Cursor() int { return m.cursor }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) { m.styles = st }

// SetSize sets the overlay's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.input.SetWidth(max(w-lipgloss.Width(m.input.Prompt)-1, 10))
	m.scroll()
}

// Open puts the overlay on screen: the hits when a search has some or
// runs, else the prompt. project is the open project's folder, the
// narrower scope ("" none: the search is home-wide).
func (m *Model) Open(project string) tea.Cmd {
	m.projectName = project
	if project == "" {
		m.project = false
	}
	if m.running || len(m.hits) > 0 || m.sum != nil {
		m.mode = ModeResults
		return nil
	}
	return m.edit()
}

// edit goes to the prompt.
func (m *Model) edit() tea.Cmd {
	m.mode = ModePrompt
	return m.input.Focus()
}

// MaxHits is how many hits a search keeps: past it the search stops and
// says the query is too wide to read through.
const MaxHits = 10000

// Add appends hits found (in the order they came) and reports whether
// the search may go on (false: MaxHits were reached).
func (m *Model) Add(hits []engine.Hit) bool {
	for _, h := range hits {
		if len(m.hits) >= MaxHits {
			m.full = true
			break
		}
		if n := len(m.hits); n == 0 || m.hits[n-1].Key() != h.Key() {
			m.rows = append(m.rows, row{hit: -1, heading: heading(h)})
			m.files++
		}
		m.hits = append(m.hits, h)
		m.hitRow = append(m.hitRow, len(m.rows))
		m.rows = append(m.rows, row{hit: len(m.hits) - 1})
	}
	m.scroll()
	return !m.full
}

// Finish ends the search: its summary, or the error that stopped it.
func (m *Model) Finish(sum engine.Summary, err error) {
	m.running = false
	m.sum = &sum
	if err != nil {
		m.err = err.Error()
	}
}

// Failed says the search could not start (a bad regular expression).
func (m *Model) Failed(err error) {
	m.running = false
	m.err = err.Error()
	m.sum = nil
	m.mode = ModePrompt
	m.input.Focus()
}

// begin resets the results for the search s.
func (m *Model) begin(s Start) {
	m.ran, m.running = s, true
	m.hits, m.rows, m.hitRow, m.files, m.cursor, m.top, m.full = nil, nil, nil, 0, 0, 0, false
	m.sum, m.err = nil, ""
	m.mode = ModeResults
	m.input.Blur()
}

// end drops the search: the overlay closes and n, N are theirs again.
func (m *Model) end() {
	m.hits, m.rows, m.hitRow, m.files, m.cursor, m.top, m.full = nil, nil, nil, 0, 0, 0, false
	m.sum, m.err, m.running = nil, "", false
	m.mode = ModeClosed
	m.input.Blur()
}

// EndStepping forgets the last search's hits, so n and N are the panes'
// keys again (n: new memory); esc does it while stepping.
func (m *Model) EndStepping() {
	if m.Stepping() {
		m.end()
	}
}

// Step moves to the next (dir 1) or previous (-1) hit, wrapping, and
// returns the jump to it.
func (m *Model) Step(dir int) tea.Cmd {
	if len(m.hits) == 0 {
		return nil
	}
	m.cursor = (m.cursor + dir + len(m.hits)) % len(m.hits)
	m.scroll()
	return m.jump()
}

func (m Model) jump() tea.Cmd {
	j := Jump{Hit: m.hits[m.cursor], Index: m.cursor, Of: len(m.hits)}
	return func() tea.Msg { return j }
}

// Update handles a key; handled is false for a key the overlay leaves to
// the root (in the results: help and quit).
func (m Model) Update(msg tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	switch m.mode {
	case ModePrompt:
		return m.updatePrompt(msg)
	case ModeResults:
		return m.updateResults(msg)
	case ModeClosed:
		return m, nil, false
	}
	panic("search: unknown mode " + strconv.Itoa(int(m.mode)))
}

func (m Model) updatePrompt(msg tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	switch {
	case key.Matches(msg, m.keys.Open):
		q := m.input.Value()
		if strings.TrimSpace(q) == "" {
			return m, nil, true
		}
		s := Start{Query: q, Regex: m.regex, Case: m.caseSens, Project: m.project && m.projectName != ""}
		m.begin(s)
		return m, func() tea.Msg { return s }, true
	case key.Matches(msg, m.keys.Back):
		m.input.Blur()
		if m.running || m.sum != nil {
			m.mode = ModeResults
		} else {
			m.mode = ModeClosed
		}
		return m, nil, true
	case key.Matches(msg, m.keys.SearchRegex):
		m.regex = !m.regex
		return m, nil, true
	case key.Matches(msg, m.keys.SearchCase):
		m.caseSens = !m.caseSens
		return m, nil, true
	case key.Matches(msg, m.keys.SearchScope):
		m.project = !m.project && m.projectName != ""
		return m, nil, true
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd, true
}

func (m Model) updateResults(msg tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	n := len(m.hits)
	move := func(to int) {
		if n > 0 {
			m.cursor = max(min(to, n-1), 0)
			m.scroll()
		}
	}
	page := max(m.listHeight()-1, 1)
	switch {
	case key.Matches(msg, m.keys.Back):
		if m.running {
			m.running = false
			return m, func() tea.Msg { return Cancel{} }, true
		}
		m.end()
		return m, nil, true
	case key.Matches(msg, m.keys.Search), key.Matches(msg, m.keys.Filter):
		return m, m.edit(), true
	case key.Matches(msg, m.keys.Open):
		if n == 0 {
			return m, nil, true
		}
		m.mode = ModeClosed
		return m, m.jump(), true
	case key.Matches(msg, m.keys.Down), key.Matches(msg, m.keys.NextHit):
		move(m.cursor + 1)
	case key.Matches(msg, m.keys.Up), key.Matches(msg, m.keys.PrevHit):
		move(m.cursor - 1)
	case key.Matches(msg, m.keys.PageDown):
		move(m.cursor + page)
	case key.Matches(msg, m.keys.PageUp):
		move(m.cursor - page)
	case key.Matches(msg, m.keys.Top):
		move(0)
	case key.Matches(msg, m.keys.Bottom):
		move(n - 1)
	default:
		return m, nil, false
	}
	return m, nil, true
}

// Help is the overlay's keys in its mode.
func (m Model) Help() []key.Binding {
	switch m.mode {
	case ModePrompt:
		return []key.Binding{m.keys.Open, m.keys.SearchRegex, m.keys.SearchCase, m.keys.SearchScope, m.keys.Back}
	case ModeResults:
		return []key.Binding{m.keys.Open, m.keys.Down, m.keys.Up, m.keys.Search, m.keys.Back}
	case ModeClosed:
		if len(m.hits) > 0 {
			// The mode first: n and N mean something else outside it.
			mode := key.NewBinding(key.WithKeys(m.keys.Back.Keys()...), key.WithHelp("search:", text.Count(len(m.hits), "hit", "")+" · n/N · esc ends"))
			return []key.Binding{mode, m.keys.NextHit, m.keys.PrevHit, m.keys.Search}
		}
	}
	return nil
}

// headLines is how many lines the prompt, switches and status take.
const headLines = 4

func (m Model) listHeight() int { return max(m.height-headLines, 1) }

// rowOf is the row of hit i.
func (m Model) rowOf(i int) int {
	if i < len(m.hitRow) {
		return m.hitRow[i]
	}
	return 0
}

// scroll keeps the selected hit (and its file's heading, when there is
// room) on screen.
func (m *Model) scroll() {
	if len(m.rows) == 0 {
		m.top = 0
		return
	}
	r := m.rowOf(m.cursor)
	h := m.listHeight()
	if r-1 < m.top {
		m.top = max(r-1, 0)
	}
	if r >= m.top+h {
		m.top = r - h + 1
	}
	m.top = max(min(m.top, len(m.rows)-h), 0)
}

// View draws the overlay.
func (m Model) View() string {
	w := max(m.width, 10)
	var lines []string
	if m.mode == ModePrompt {
		lines = append(lines, m.input.View())
	} else {
		lines = append(lines, m.styles.Bold.Render("search: ")+text.Truncate(text.OneLine(m.ran.describe()), w-8))
	}
	lines = append(lines, text.Truncate(m.switches(), w))
	lines = append(lines, m.statusLine(w))
	lines = append(lines, m.styles.Dim.Render(strings.Repeat("─", w)))
	h := m.listHeight()
	for r := m.top; r < len(m.rows) && r < m.top+h; r++ {
		rw := m.rows[r]
		if rw.hit < 0 {
			lines = append(lines, m.styles.Header.Render(text.Truncate(rw.heading, w)))
			continue
		}
		lines = append(lines, m.hitLine(m.hits[rw.hit], rw.hit == m.cursor && m.mode == ModeResults, w))
	}
	return strings.Join(lines, "\n")
}

// heading is the row above a file's hits: its group, said first when
// the file is the rescue vault's copy of one the home lost (a long path
// would cut the label off the end).
func heading(h engine.Hit) string {
	if !h.Vault {
		return h.Group()
	}
	g := h
	g.Label = strings.TrimPrefix(strings.TrimPrefix(g.Label, engine.VaultLabel), ", ")
	return "[" + engine.VaultLabel + "] " + g.Group()
}

// describe is the search as it ran: the query and its switches.
func (s Start) describe() string {
	out := strconv.Quote(s.Query)
	if s.Regex {
		out = "regex " + out
	}
	if s.Case {
		out += " (match case)"
	}
	if s.Project {
		out += " in this project"
	}
	return out
}

// switches shows the prompt's switches and their keys.
func (m Model) switches() string {
	box := func(on bool) string {
		if on {
			return "[x]"
		}
		return "[ ]"
	}
	scope := "whole home"
	if m.project && m.projectName != "" {
		scope = "project " + m.projectName
	}
	s := box(m.regex) + " regex (" + m.keys.SearchRegex.Help().Key + ")  " +
		box(m.caseSens) + " match case (" + m.keys.SearchCase.Help().Key + ")  " +
		"in: " + scope
	if m.projectName != "" {
		s += " (" + m.keys.SearchScope.Help().Key + ")"
	}
	return m.styles.Dim.Render(s)
}

// statusLine says how far the search is and what it found.
func (m Model) statusLine(w int) string {
	found := text.Count(len(m.hits), "hit", "") + " in " + text.Count(m.files, "file", "")
	var s string
	switch {
	case m.err != "":
		return m.styles.Error.Render(text.Truncate(text.OneLine(m.err), w))
	case m.full:
		s = "stopped at " + found + ": the query matches too much to read through; narrow it"
	case m.running:
		s = "searching… " + found + " so far (esc stops)"
	case m.sum != nil && m.sum.Cancelled:
		s = "stopped: " + found
	case m.sum != nil:
		s = found + " · searched " + text.Count(m.sum.Files, "file", "") + ", " + text.Bytes(m.sum.Bytes)
		if n := len(m.sum.Problems); n > 0 {
			s += " · " + text.Count(n, "file", "") + " not read"
		}
	case m.mode == ModePrompt:
		s = "transcripts, history, pastes, memory, CLAUDE.md and file history: the text people wrote, not the JSON"
	}
	if len(m.hits) > 0 && !m.running {
		s += " · " + strconv.Itoa(m.cursor+1) + "/" + strconv.Itoa(len(m.hits))
	}
	return m.styles.Dim.Render(text.Truncate(s, w))
}

// hitLine is one hit: where it is, then the snippet with the match
// marked, cut to the width around the match.
func (m Model) hitLine(h engine.Hit, selected bool, w int) string {
	mark := "  "
	if selected {
		mark = "▸ "
	}
	place := mark + Place(h) + "  "
	place = text.Truncate(place, max(w/2, 12))
	room := max(w-lipgloss.Width(place), 8)
	before, match, after := Marked(h)
	ps := m.styles.Dim
	if selected {
		ps = m.styles.Selected
	}
	return ps.Render(place) + text.FitMatch(before, match, after, room, m.styles.Warn.Underline(true).Render)
}

// Place is a hit's short place for a list row: the line, who said it and
// what the text is, and a mark when the model no longer sees it.
func Place(h engine.Hit) string {
	parts := []string{"L" + strconv.Itoa(h.Line)}
	if h.Role != "" && h.Store == engine.StoreTranscripts {
		parts = append(parts, h.Role)
	}
	parts = append(parts, model.SanitizeLine(h.Where)) // a tool's name comes from the transcript
	s := strings.Join(parts, " ")
	if h.Compaction == engine.CompactionBefore && (h.Seen == nil || !*h.Seen) {
		s = "⟲ " + s
	}
	return s
}

// Marked splits a hit's snippet around its match.
func Marked(h engine.Hit) (before, match, after string) {
	return text.SplitMatch(h.Snippet, h.Match)
}
