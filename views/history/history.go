// Package history is the History pane: a project's prompts newest first,
// the 100-entry up-arrow window marked, paste placeholders expandable into
// the paste text, and missing or mismatched pastes badged.
package history

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// Model is the History pane.
type Model struct {
	keys     *keymap.KeyMap
	styles   style.Styles
	list     list.Model[*model.HistoryEntry]
	status   map[model.PasteHash]model.PasteResolution
	pastes   map[string]msgs.PasteResolved // resolved texts, by hash
	expanded bool
	project  string
	now      time.Time
	width    int
	height   int
	total    int
	det      detail.Model
}

// New returns an empty History pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: &keys, styles: st, pastes: map[string]msgs.PasteResolved{}, det: detail.New(keys, st)}
	m.list = list.New(keys, st, func(e *model.HistoryEntry) string { return e.Display })
	m.list.Empty = "reading history.jsonl…"
	return m
}

// Title names the pane.
func (m Model) Title() string { return "History" }

// EntriesMsg brings the pane the entries of one project (newest first)
// and the status of every hashed paste (from the paste inventory).
type EntriesMsg struct {
	Project string
	Entries []*model.HistoryEntry
	Status  map[model.PasteHash]model.PasteResolution
	Now     time.Time
}

// UnavailableMsg says why there are no prompts to list: history.jsonl
// could not be read (a link out of the home, a FIFO, a permission). The
// pane shows the reason instead of "reading…" for good.
type UnavailableMsg struct{ Why string }

func (m *Model) setEntries(project string, entries []*model.HistoryEntry, status map[model.PasteHash]model.PasteResolution, now time.Time) {
	if project != m.project {
		m.expanded = false
	}
	m.project, m.status, m.now, m.total = project, status, now, len(entries)
	m.list.Empty = "no prompts for this project in history.jsonl"
	m.list.SetItems(entries)
}

// SelectLine selects the prompt on line n of history.jsonl (a search
// hit) and reports whether the pane lists it.
func (m *Model) SelectLine(n int) bool {
	return m.list.SelectWhere(func(e *model.HistoryEntry) bool { return e.Line == n })
}

// Selected is the prompt under the cursor.
func (m Model) Selected() (*model.HistoryEntry, bool) { return m.list.Selected() }

// Total is the number of prompts shown (before filtering).
func (m Model) Total() int { return m.total }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.list.SetStyles(st)
	m.det.SetStyles(st)
}

// SetSize sets the pane's inner size; the list takes the top part and the
// selected prompt's detail the rest.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.list.SetSize(w, m.listHeight())
}

func (m Model) listHeight() int {
	return max(m.height*3/5-1, 3)
}

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away.
func (m *Model) Blur() {}

// Filtering reports whether the filter line has the keyboard.
func (m Model) Filtering() bool { return m.list.Filtering() }

// Help lists the pane's own bindings.
func (m Model) Help() []key.Binding {
	return append([]key.Binding{m.keys.Expand}, m.det.Help()...)
}

// ClickRow moves the cursor to the clicked row.
func (m *Model) ClickRow(y int) tea.Cmd {
	if m.det.Zoomed() {
		return nil
	}
	m.list.ClickRow(y - 1)
	return nil
}

// Update handles keys and resolved pastes.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if r, ok := msg.(msgs.PasteResolved); ok {
		m.pastes[r.Hash] = r
		return m, nil
	}
	if e, ok := msg.(EntriesMsg); ok {
		m.setEntries(e.Project, e.Entries, e.Status, e.Now)
		return m, nil
	}
	if u, ok := msg.(UnavailableMsg); ok {
		m.total = 0
		m.list.Empty = model.SanitizeForTerminal(u.Why)
		m.list.SetItems(nil)
		return m, nil
	}
	if !m.list.Filtering() {
		if d, ok := m.det.Update(msg, m.detailContent(), m.det.Area(m.top(), m.width, m.height)); ok {
			m.det = d
			return m, nil
		}
	}
	var cmd tea.Cmd
	var handled bool
	m.list, cmd, handled = m.list.Update(msg)
	if handled {
		return m, cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.keys.Expand) {
		m.expanded = !m.expanded
		if m.expanded {
			return m, m.resolveSelected()
		}
	}
	return m, nil
}

// resolveSelected asks the root for the text of the selected entry's
// hashed pastes that are not loaded yet.
func (m Model) resolveSelected() tea.Cmd {
	e, ok := m.list.Selected()
	if !ok {
		return nil
	}
	var cmds []tea.Cmd
	for _, p := range e.SortedPastes() {
		h := string(p.Hash)
		if p.Inline || h == "" {
			continue
		}
		if _, done := m.pastes[h]; done {
			continue
		}
		cmds = append(cmds, func() tea.Msg { return msgs.ResolvePaste{Hash: h} })
	}
	return tea.Batch(cmds...)
}

// badge returns the worst problem among an entry's pastes.
func (m Model) badge(e *model.HistoryEntry) string {
	worst := ""
	for _, p := range e.PastedContents {
		if p.Inline || p.Hash == "" {
			continue
		}
		switch m.status[p.Hash].Status {
		case model.PasteMissing:
			worst = "missing paste"
		case model.PasteHashMismatch:
			if worst == "" {
				worst = "hash mismatch"
			}
		case model.PasteUnreadable:
			if worst == "" {
				worst = "unreadable paste"
			}
		}
	}
	return worst
}

func (m Model) renderRow(e *model.HistoryEntry, selected bool, width int) string {
	mark := " "
	if e.InUpArrow {
		mark = "↑"
	}
	when := e.Timestamp.Local().Format("01-02 15:04")
	if e.Timestamp.IsZero() {
		when = "           "
	}
	badge := m.badge(e)
	if badge != "" {
		badge = " " + m.styles.BadgeProblem.Render("["+badge+"]")
	}
	avail := max(width-16-lipgloss.Width(badge), 10)
	return fmt.Sprintf("%s %s  %s%s", mark, m.styles.Dim.Render(when), text.Truncate(text.OneLine(model.SanitizeForTerminal(shownPrefix(e.Display, avail))), avail), badge)
}

// shownPrefix bounds how much of one line of a prompt is sanitized and
// measured for a row width cells wide: a 100 MB prompt would otherwise be
// processed in full on every frame and freeze the app. A cell takes at
// most 4 bytes; the rest leaves room for the escapes the sanitizer drops.
func shownPrefix(s string, width int) string {
	n := width*4 + 1024
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// View draws the counts, the list and the selected prompt's detail.
func (m Model) View() string {
	return m.det.Under(m.top(), m.detailContent(), m.width, m.height)
}

// top is the counts over the list.
func (m Model) top() string {
	head := fmt.Sprintf("%s · ↑ = in the up-arrow window (newest %d per project) · %s", text.Count(m.total, "prompt", ""), model.HistoryUpArrowLimit, m.list.Position())
	return m.styles.Dim.Render(text.Truncate(head, m.width)) + "\n" + m.list.View(m.renderRow)
}

// detailLines bounds how many lines of one prompt or paste the detail
// prepares: a prompt of millions of lines would otherwise be split and
// sanitized on every frame. Each line is also prepared only as far as
// the width (shownPrefix).
const detailLines = 5000

// detailContent is the selected prompt in full, with its pastes expanded
// when asked.
func (m Model) detailContent() detail.Content {
	e, ok := m.list.Selected()
	if !ok {
		return detail.Content{}
	}
	var lines []string
	meta := fmt.Sprintf("line %d · %s", e.Line, e.Timestamp.Local().Format(time.RFC3339))
	if e.SessionID != "" {
		meta += " · session " + string(e.SessionID)
	}
	if e.Format == model.HistoryFormatSeed {
		meta += " · older history format"
	}
	lines = append(lines, m.styles.Dim.Render(meta))
	lines = append(lines, m.textLines(e.Display)...)
	ps := e.SortedPastes()
	if len(ps) > 0 && !m.expanded {
		lines = append(lines, m.styles.Dim.Render(text.Count(len(ps), "paste", "")+" — space to expand"))
	}
	if m.expanded {
		for _, p := range ps {
			lines = append(lines, m.styles.Bold.Render(m.pasteHeader(p)))
			lines = append(lines, m.pasteBody(p)...)
		}
	}
	id := fmt.Sprintf("%d %v", e.Line, m.expanded)
	return detail.Content{ID: id, Lines: lines}
}

// textLines is a prompt's or a paste's text as lines to show: sanitized,
// tabs expanded, each cut to what the width can show, at most
// detailLines of them (then a line saying how many more there are).
func (m Model) textLines(s string) []string {
	var out []string
	for i := 0; s != ""; i++ {
		l, rest, _ := strings.Cut(s, "\n")
		if i == detailLines {
			more := strings.Count(s, "\n") + 1
			out = append(out, m.styles.Dim.Render(fmt.Sprintf("… and %s more (memscope shows the first %d of a text)", text.Count(more, "line", ""), detailLines)))
			break
		}
		out = append(out, text.ExpandTabs(model.SanitizeForTerminal(shownPrefix(l, m.width))))
		s = rest
	}
	return out
}

func (m Model) pasteHeader(p model.PastedContent) string {
	switch {
	case p.Kind == model.PasteImage:
		return fmt.Sprintf("── paste #%d: image %s %s", p.ID, p.MediaType, p.Filename)
	case p.Inline:
		return fmt.Sprintf("── paste #%d: inline, %s", p.ID, text.Count(len([]rune(p.Content)), "char", ""))
	}
	st := m.status[p.Hash]
	return fmt.Sprintf("── paste #%d: %s (%s)", p.ID, p.Hash, st.Status)
}

func (m Model) pasteBody(p model.PastedContent) []string {
	if p.Kind == model.PasteImage {
		return []string{m.styles.Dim.Render("(image content is not kept in history)")}
	}
	if p.Inline {
		return m.textLines(p.Content)
	}
	if p.Hash == "" {
		return []string{m.styles.Warn.Render("(no content and no hash recorded)")}
	}
	r, ok := m.pastes[string(p.Hash)]
	if !ok {
		return []string{m.styles.Dim.Render("(loading…)")}
	}
	switch r.Status {
	case string(model.PasteOK):
		return m.textLines(r.Content)
	case string(model.PasteHashMismatch):
		out := []string{m.styles.Warn.Render("content does not match its hash: the file was changed after it was cached")}
		return append(out, m.textLines(r.Content)...)
	}
	return []string{m.styles.Error.Render(fmt.Sprintf("%s: %s", r.Status, r.Reason))}
}

// Legend explains the pane's marks and badges.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "↑", Means: fmt.Sprintf("in the up-arrow window (the newest %d prompts of the project)", model.HistoryUpArrowLimit)},
		{Mark: "[missing paste]", Means: "a paste the prompt refers to is not in the paste cache"},
		{Mark: "[hash mismatch]", Means: "the cached paste's content does not match its hash"},
		{Mark: "[unreadable paste]", Means: "the cached paste cannot be read"},
		m.det.Legend(),
	}
}
