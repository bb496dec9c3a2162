// Package review is the Review pane: the memories Claude Code wrote or
// changed since the user last reviewed them (engine/review), newest
// first; beside the list, the selected one's origin (session, subagent,
// prompt) and its diff since the last review. a accepts (marks it
// reviewed), d rejects it to the trash (after a y/n; u undoes it), e edits
// it, o opens the turn that wrote it in Replay.
package review

import (
	"fmt"
	"path"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// Item is one memory waiting for review, as the pane shows it.
type Item struct {
	// Path is relative to the memory folder; Abs the file on disk.
	Path, Abs string
	// Status is "new" (never accepted) or "changed" (since accepted).
	Status string
	// Time is the last change's; Reviewed when it was last accepted.
	Time, Reviewed time.Time
	// Last says who made the last change and when; Prompt is the user
	// prompt behind it ("" when none was found); Origin says where the
	// file came from.
	Last, Prompt, Origin string
	// Diff is the change since the last review; NoDiff why there is none.
	Diff, NoDiff string
	// Content is the bytes shown: accepting records exactly these, so a
	// change made since comes back as changed.
	Content []byte
	// Jump opens the turn of the last change in Replay; nil when no
	// transcript holds it.
	Jump *msgs.ReplayAt
}

// Data is the inbox of the open project.
type Data struct {
	// Dir is the memory folder; Reviewed counts the files accepted and
	// unchanged since.
	Dir      string
	Items    []Item
	Reviewed int
	// Held are the writes to this memory folder the write gate denied or
	// asked about, newest first (gate.HeldFor).
	Held []gate.Record
}

// Model is the Review pane.
type Model struct {
	keys     *keymap.KeyMap
	styles   style.Styles
	list     list.Model[Item]
	data     Data
	width    int
	height   int
	now      time.Time
	readOnly bool
	confirm  bool
	// scroll is the first line of the selected item's detail shown;
	// scrolled is the item it belongs to.
	scroll   int
	scrolled string
	// show is the memory the Overview opened the pane at (its path in
	// the memory folder), selected once the inbox is in.
	show string
}

// selectShown selects the item m.show names, once the inbox is in.
func (m *Model) selectShown() {
	if m.data.Dir == "" && len(m.data.Items) == 0 || m.show == "" {
		return
	}
	p := m.show
	m.list.SelectWhere(func(it Item) bool { return it.Path == p })
	m.show = ""
}

// New returns an empty Review pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: &keys, styles: st}
	m.list = list.New(keys, st, func(it Item) string { return it.Path + " " + it.Status + " " + it.Last + " " + it.Prompt })
	m.list.Empty = "reading the transcripts for who wrote each memory…"
	return m
}

// Title names the pane.
func (m Model) Title() string { return "Review" }

// DataMsg brings the pane the inbox (from its feed); Now is the clock
// for ages.
type DataMsg struct {
	Data Data
	Now  time.Time
}

// SetData shows the inbox; now is the clock for ages.
func (m *Model) setData(d Data, now time.Time) {
	m.data, m.now = d, now
	m.list.Empty = "nothing to review: every memory Claude Code wrote is as you last accepted it"
	m.list.SetItems(d.Items)
}

// SetUnavailable says why there is no inbox (no project, a read error).
// UnavailableMsg says why the pane has nothing to show (no project in
// the home yet): it shows why instead of waiting.
type UnavailableMsg struct{ Why string }

func (m *Model) setUnavailable(why string) {
	m.data = Data{}
	m.list.Empty = why
	m.list.SetItems(nil)
}

// SetReadOnly disables accept, reject and edit.
func (m *Model) SetReadOnly(ro bool) { m.readOnly = ro }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.list.SetStyles(st)
}

func (m Model) listWidth() int {
	if m.width < 90 {
		return m.width
	}
	return m.width * 2 / 5
}

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layout()
}

// layout sizes the list under the top line (or the question, which
// wraps) as it is now.
func (m *Model) layout() {
	lh := m.height - 1 - m.topRows()
	if m.width < 90 {
		lh = max(m.height/3, 3)
	}
	m.list.SetSize(m.listWidth(), lh)
}

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away and drops a pending question.
func (m *Model) Blur() { m.confirm = false; m.layout() }

// Filtering reports whether the pane takes text or a y/n.
func (m Model) Filtering() bool { return m.list.Filtering() || m.confirm }

// ClickRow moves the cursor to the clicked row.
func (m *Model) ClickRow(y int) tea.Cmd {
	top := m.topRows()
	m.confirm = false
	m.list.ClickRow(y - top)
	m.layout()
	return nil
}

// Selected is the item under the cursor.
func (m Model) Selected() (Item, bool) { return m.list.Selected() }

// Help lists the pane's own bindings.
func (m Model) Help() []key.Binding {
	if m.confirm {
		return []key.Binding{m.keys.Confirm, m.keys.Cancel}
	}
	if m.readOnly {
		return []key.Binding{m.keys.Origin, m.keys.DetailDown, m.keys.DetailUp}
	}
	return []key.Binding{m.keys.Accept, m.keys.Reject, m.keys.Edit, m.keys.Origin, m.keys.DetailDown, m.keys.DetailUp}
}

func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// Update handles the list and the review keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	m, cmd := m.update(msg)
	m.layout()
	return m, cmd
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch d := msg.(type) {
	case DataMsg:
		m.setData(d.Data, d.Now)
		m.selectShown()
		return m, nil
	case msgs.Show:
		m.show = d.What
		m.selectShown()
		return m, nil
	case UnavailableMsg:
		m.setUnavailable(d.Why)
		return m, nil
	}
	k, isKey := msg.(tea.KeyPressMsg)
	if isKey && m.confirm {
		m.confirm = false
		it, ok := m.list.Selected()
		if ok && key.Matches(k, m.keys.Confirm) {
			return m, send(msgs.DeleteMemory{Path: it.Abs})
		}
		return m, send(msgs.Status{Text: "reject cancelled: nothing was written"})
	}
	var cmd tea.Cmd
	var handled bool
	m.list, cmd, handled = m.list.Update(msg)
	if handled || !isKey {
		return m, cmd
	}
	it, ok := m.list.Selected()
	if !ok {
		return m, nil
	}
	editing := key.Matches(k, m.keys.Accept) || key.Matches(k, m.keys.Reject) || key.Matches(k, m.keys.Edit)
	if m.readOnly && editing {
		return m, send(msgs.Status{Text: "the home is read-only: review is off", Error: true})
	}
	switch {
	case key.Matches(k, m.keys.DetailDown), key.Matches(k, m.keys.DetailUp):
		if m.scrolled != it.Abs {
			m.scroll, m.scrolled = 0, it.Abs
		}
		step := max(m.height/2, 1)
		if key.Matches(k, m.keys.DetailUp) {
			step = -step
		}
		m.scroll = max(m.scroll+step, 0)
	case key.Matches(k, m.keys.Accept):
		return m, send(msgs.AcceptReview{Path: it.Path, Content: it.Content})
	case key.Matches(k, m.keys.Reject):
		m.confirm = true
	case key.Matches(k, m.keys.Edit):
		return m, send(msgs.OpenEditor{Path: it.Abs})
	case key.Matches(k, m.keys.Origin):
		if it.Jump == nil {
			return m, send(msgs.Status{Text: "no transcript on disk holds the last change of " + model.SanitizeLine(it.Path), Error: true})
		}
		return m, send(*it.Jump)
	}
	return m, nil
}

func (m Model) renderRow(it Item, selected bool, width int) string {
	status := m.styles.Warn.Render("● new    ")
	if it.Status == "changed" {
		status = m.styles.Error.Render("● changed")
	}
	ago := format.Ago(m.now, it.Time)
	avail := max(width-lipgloss.Width(status)-len(ago)-2, 8)
	return status + " " + text.Pad(text.Truncate(model.SanitizeLine(it.Path), avail), avail) + " " + ago
}

// top is the line over the list: the position and counts (cut, the
// gate's record has the rest), or the reject question, wrapped: it is
// read whole before it is answered.
func (m Model) top() string {
	if m.confirm {
		it, _ := m.list.Selected()
		// Wrapped inside a word too: a name wider than the column.
		q := strings.Split(ansi.Wrap(fmt.Sprintf("Reject %s: move it to the trash? y/n (undo with u)", model.SanitizeLine(it.Path)), max(m.listWidth(), 1), ""), "\n")
		for i, l := range q {
			q[i] = m.styles.Warn.Render(l)
		}
		return strings.Join(q, "\n")
	}
	head := fmt.Sprintf("%s · %s to review · %d reviewed", m.list.Position(), text.Count(len(m.data.Items), "memory", "memories"), m.data.Reviewed)
	if h := m.data.Held; len(h) > 0 {
		// First, where a narrow list keeps it; then the newest (the
		// gate's record, memscope gate log --held, has the rest).
		head = fmt.Sprintf("gate held %d · %s · newest held: %s %s, %s %s", len(h), head,
			model.SanitizeLine(h[0].Tool), model.SanitizeLine(path.Base(h[0].Path)), h[0].Decision, h[0].Time.In(m.now.Location()).Format("Jan 2 15:04"))
	}
	return m.styles.Dim.Render(text.Truncate(head, m.listWidth()))
}

// topRows is how many lines top takes.
func (m Model) topRows() int { return strings.Count(m.top(), "\n") + 1 }

// View draws the inbox and the selected memory's origin and diff.
func (m Model) View() string {
	left := m.top() + "\n" + m.list.View(m.renderRow)
	if m.width < 90 {
		return m.styles.Divided(m.width, left, m.detail(m.width, m.height-m.height/3-2-m.topRows()))
	}
	left = lipgloss.NewStyle().Width(m.listWidth()).Render(left)
	sep := m.styles.Dim.Render(strings.TrimRight(strings.Repeat("│\n", max(m.height, 1)), "\n"))
	return lipgloss.JoinHorizontal(lipgloss.Top, left, sep, m.detail(m.width-m.listWidth()-1, m.height))
}

// detail is the selected memory's origin, then its diff since the review.
func (m Model) detail(w, h int) string {
	it, ok := m.list.Selected()
	if !ok {
		return ""
	}
	// The origin lines wrap: the prompt behind a change is the user's
	// whole text, and is read here or nowhere.
	clean := func(s string) string { return text.Wrap(model.SanitizeLine(s), w) }
	lines := []string{m.styles.Bold.Render(clean(it.Path)), clean("last change: " + it.Last)}
	if it.Prompt != "" {
		lines = append(lines, clean(fmt.Sprintf("after the prompt %q", it.Prompt)))
	}
	if it.Origin != "" && it.Origin != it.Last {
		lines = append(lines, m.styles.Dim.Render(clean("origin: "+it.Origin)))
	}
	if it.Reviewed.IsZero() {
		lines = append(lines, m.styles.Dim.Render(clean("never reviewed: the whole file is new to you")))
	} else {
		lines = append(lines, m.styles.Dim.Render(clean("reviewed "+format.Ago(m.now, it.Reviewed)+"; changed since")))
	}
	lines = append(lines, "")
	if it.NoDiff != "" {
		lines = append(lines, m.styles.Dim.Render(clean(it.NoDiff)))
	}
	var diff []string
	for _, l := range strings.Split(strings.TrimRight(it.Diff, "\n"), "\n") {
		if l != "" {
			diff = append(diff, m.styles.DiffLines(model.SanitizeForTerminal(l), w)...)
		}
	}
	// J and K scroll the diff; the origin lines stay.
	if m.scrolled == it.Abs && m.scroll > 0 && len(diff) > 0 {
		skip := min(m.scroll, len(diff)-1)
		diff = append([]string{m.styles.Dim.Render(fmt.Sprintf("… %d lines above (K)", skip))}, diff[skip:]...)
	}
	var head []string
	for _, l := range lines {
		head = append(head, strings.Split(l, "\n")...)
	}
	return m.styles.Clip(append(head, diff...), h)
}

// Legend explains the pane's marks.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "● new", Means: "Claude Code wrote it and you never accepted it (the diff shows all of it)"},
		{Mark: "● changed", Means: "Claude Code changed it since you accepted it (the diff is against the copy kept then)"},
		{Mark: "inbox", Means: "files whose last change Claude Code made: a call in a transcript, or its frontmatter stamp; your own changes (by hand, in memscope) never wait here"},
		{Mark: "state", Means: "memory/.memscope/review.json: what you accepted, with a copy for the diff; not memory, never loaded"},
	}
}
