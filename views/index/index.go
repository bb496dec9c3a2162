// Package index is the Index pane: MEMORY.md as the client loads it, with
// a load meter against the 200-line and 25 000-character caps, the line
// where the client cuts it, everything past that line dimmed, and the
// WARNING the client appends.
package index

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// Data is what the pane shows, prepared by the root (rendering included).
type Data struct {
	// Path is MEMORY.md's absolute path; empty when the project has no
	// memory folder.
	Path string
	// Exists says whether MEMORY.md exists and was read.
	Exists bool
	// Unread says why a MEMORY.md that is there was not read ("is a
	// named pipe, not a regular file"); memscope writes nothing over it.
	Unread string
	// Cap is the engine's truncation report.
	Cap memindex.IndexCap
	// Loaded is the part that loads, rendered as Markdown for the width.
	Loaded string
	// Dropped are the raw lines past the cut, in file order; Unseen, by
	// index into Dropped, says since when the model has not seen the
	// memory a line links (engine/loads), when the transcripts say.
	Dropped []string
	Unseen  map[int]string
	// Backfill is what the client would write when MEMORY.md is missing
	// and topic files exist; empty otherwise.
	Backfill string
	// Width is the width Loaded was rendered for.
	Width int
	// Store names the memory store when the project has more than one
	// (its auto memory, agents' memory); "" otherwise.
	Store string
}

// Model is the Index pane.
type Model struct {
	keys   *keymap.KeyMap
	styles style.Styles
	vp     viewport.Model
	data   Data
	// loaded says the project's index arrived.
	loaded bool
	// unavailable says why there is no index (SetUnavailable).
	unavailable string
	// toCut says the document scrolls to the cut once it is in (the
	// Overview's cut line opened the pane: msgs.Show "cut"), and again
	// when the index comes back rendered anew (its rows move), until the
	// user scrolls.
	toCut  bool
	width  int
	height int
}

// New returns an empty Index pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	vp := viewport.New()
	vp.SoftWrap = false
	return Model{keys: &keys, styles: st, vp: vp}
}

// Title names the pane.
func (m Model) Title() string { return "Index" }

// DataMsg brings the pane a new index (from its feed).
type DataMsg struct{ Data Data }

// SetData shows a new index.
func (m *Model) setData(d Data) {
	m.data, m.loaded, m.unavailable = d, true, ""
	m.refresh()
	if m.toCut {
		m.scrollToCut()
	}
}

// ShowCut is what msgs.Show asks for to scroll the pane to the cut.
const ShowCut = "cut"

// scrollToCut puts the cut line at the top of the document (with the
// line above it for context), once the index is in.
func (m *Model) scrollToCut() {
	if !m.loaded {
		return
	}
	if m.data.Cap.Truncated && m.data.Exists && m.data.Unread == "" {
		// The cut line follows the loaded part (refresh).
		m.vp.SetYOffset(max(strings.Count(m.data.Loaded, "\n"), 0))
	}
}

// SetUnavailable says why there is no index to show (no project yet):
// the pane shows why instead of reading.
// UnavailableMsg says why the pane has nothing to show (no project in
// the home yet): it shows why instead of waiting.
type UnavailableMsg struct{ Why string }

func (m *Model) setUnavailable(why string) {
	m.setData(Data{})
	m.unavailable = why
}

// RenderWidth is the width the root should render the loaded part for.
func (m Model) RenderWidth() int { return max(m.width-1, 10) }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.refresh()
}

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.vp.SetWidth(w)
	m.vp.SetHeight(max(h-3, 1))
	m.refresh()
}

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away.
func (m *Model) Blur() {}

// Filtering is always false: the pane takes no text.
func (m Model) Filtering() bool { return false }

// ClickRow does nothing: the pane is a document.
func (m *Model) ClickRow(int) tea.Cmd { return nil }

// Help lists the pane's own bindings.
func (m Model) Help() []key.Binding {
	return []key.Binding{m.keys.Edit, m.keys.Bottom, m.keys.NextStore}
}

// Update scrolls, jumps to the cut, or asks to edit MEMORY.md.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case msgs.Show:
		if msg.What == ShowCut {
			m.toCut = true
			m.scrollToCut()
		}
		return m, nil
	case DataMsg:
		m.setData(msg.Data)
		return m, nil
	case UnavailableMsg:
		m.setUnavailable(msg.Why)
		return m, nil
	case tea.KeyPressMsg:
		switch {
		case detail.ScrollKeys(&m.vp, m.keys, msg):
			m.toCut = false
		case key.Matches(msg, m.keys.Edit) && m.data.Path != "":
			p := m.data.Path
			return m, func() tea.Msg { return msgs.OpenEditor{Path: p} }
		case key.Matches(msg, m.keys.NextStore):
			return m, func() tea.Msg { return msgs.NextMemoryStore{} }
		}
	case tea.MouseWheelMsg:
		var cmd tea.Cmd
		m.vp, cmd = m.vp.Update(msg)
		m.toCut = false
		return m, cmd
	}
	return m, nil
}

// meter is the two load bars with their numbers.
func (m Model) meter() string {
	c := m.data.Cap
	barW := max(min((m.width-50)/2, 30), 6)
	lines := fmt.Sprintf("lines %s %d/%d", m.styles.Bar(int64(c.Lines), memindex.MaxLines, barW), c.Lines, memindex.MaxLines)
	chars := fmt.Sprintf("chars %s %d/%d", m.styles.Bar(int64(c.Chars), memindex.MaxChars, barW), c.Chars, memindex.MaxChars)
	return lines + "   " + chars
}

func (m Model) summary() string {
	c := m.data.Cap
	switch {
	case m.data.Path == "":
		return "this project has no memory folder"
	case m.data.Unread != "":
		return m.styles.Error.Render("MEMORY.md " + m.data.Unread + ": not read")
	case !m.data.Exists:
		return "no MEMORY.md"
	case c.Truncated:
		return m.styles.Error.Render(fmt.Sprintf("TRUNCATED: the client loads %d of %d lines; %s never seen", c.LoadedLines, c.Lines, format.Count(len(c.DroppedEntries), "index entry is", "index entries are")))
	}
	return m.styles.OK.Render(fmt.Sprintf("loads whole · room for %d more lines and %d more characters", c.RoomLines, c.RoomChars))
}

// refresh rebuilds the viewport content from the data.
func (m *Model) refresh() {
	var b strings.Builder
	switch {
	case m.data.Path == "":
		b.WriteString(m.styles.Dim.Render("No memory folder for this project yet. Claude Code creates it on the first memory it saves."))
	case m.data.Unread != "":
		b.WriteString(m.styles.Warn.Render(text.Wrap("MEMORY.md is there but "+m.data.Unread+", so memscope did not read it and will write nothing over it. Replace it with a regular file to have an index.", m.width)))
	case !m.data.Exists && m.data.Backfill != "":
		b.WriteString(m.styles.Warn.Render("MEMORY.md is missing. At the next session start the client will write this index from the topic files:"))
		b.WriteString("\n\n")
		b.WriteString(model.SanitizeForTerminal(m.data.Backfill))
	case !m.data.Exists:
		b.WriteString(m.styles.Dim.Render("MEMORY.md does not exist and there are no topic files."))
	default:
		b.WriteString(m.data.Loaded)
		if m.data.Cap.Truncated {
			b.WriteString("\n")
			cut := fmt.Sprintf(" ✂ the client stops here: line %d of MEMORY.md and everything after it is not loaded ", m.data.Cap.CutFileLine)
			b.WriteString(m.styles.CutLine.Render(text.Truncate("────"+cut+strings.Repeat("─", max(m.width-lipgloss.Width(cut)-4, 0)), m.width)))
			b.WriteString("\n")
			for i, l := range m.data.Dropped {
				b.WriteString(m.styles.Dim.Render(text.Truncate(model.SanitizeForTerminal(l), m.width)))
				b.WriteString("\n")
				if u := m.data.Unseen[i]; u != "" {
					b.WriteString(m.styles.Warn.Render(text.Truncate("    ↳ "+u, m.width)))
					b.WriteString("\n")
				}
			}
		}
		if w := m.data.Cap.Warning; w != "" {
			b.WriteString("\n")
			b.WriteString(m.styles.Warn.Render("What the client appends:"))
			b.WriteString("\n")
			b.WriteString(m.styles.Warn.Render(text.Wrap(strings.TrimSpace(w), m.width)))
		}
	}
	m.vp.SetContent(b.String())
}

// View draws the meter, the summary and the document.
func (m Model) View() string {
	if !m.loaded {
		return m.styles.Dim.Render("reading MEMORY.md…")
	}
	if m.unavailable != "" {
		return m.styles.Dim.Render(text.Wrap(m.unavailable, max(m.width, 20)))
	}
	head := text.Truncate(m.meter(), m.width)
	if m.data.Path == "" {
		head = ""
	}
	sum := text.Truncate(m.summary(), m.width)
	if m.data.Store != "" {
		// The store's name and the summary share a line when they fit;
		// else the name takes its own (the viewport leaves it the row).
		store := model.SanitizeForTerminal(m.data.Store)
		if lipgloss.Width(store)+3+lipgloss.Width(sum) <= m.width {
			sum = m.styles.Bold.Render(store) + " · " + sum
		} else {
			sum = m.styles.Bold.Render(text.Truncate(store, m.width)) + "\n" + sum
		}
	}
	return head + "\n" + sum + "\n" + m.vp.View()
}

// CanFilter is false: the pane is one document, not a list of rows, so
// "/" is not offered (scroll with the list keys, G to the cut).
func (m Model) CanFilter() bool { return false }

// Legend explains the pane's marks.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "lines / chars", Means: fmt.Sprintf("MEMORY.md against the client's caps (%d lines, %d characters)", memindex.MaxLines, memindex.MaxChars)},
		{Mark: "✂", Means: "the line where the client stops loading; the dimmed lines after it are never seen"},
		{Mark: "↳ never seen / not seen since", Means: "what the recorded sessions' MEMORY.md shows of the memory a line past the cut links: never listed, or last listed then (memscope loads)"},
		{Mark: "What the client appends", Means: "the WARNING the client adds when it cuts the index"},
	}
}
