// Package pastes is the Pastes pane: the paste cache with hash, size, age
// and how many history lines refer to each file; orphans, pastes history
// refers to that are gone, and files whose content no longer matches their
// hash are badged.
package pastes

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// Row is one paste: a file in the cache, or a hash history refers to that
// has no file.
type Row struct {
	Hash    model.PasteHash
	Path    string
	Source  model.PasteSource
	Size    int64
	ModTime time.Time
	Refs    int
	Status  model.PasteStatus
	Reason  string
}

// Orphan reports a file no history line refers to.
func (r Row) Orphan() bool { return r.Refs == 0 && r.Status != model.PasteMissing }

// rowText is what the filter matches: the hash, the path, and the status
// badge the row shows ("/orphan" finds the orphans).
func rowText(r Row) string {
	s := string(r.Hash) + " " + strings.ReplaceAll(string(r.Status), "-", " ") + " " + r.Path
	if r.Orphan() {
		s += " orphan"
	}
	return s
}

// Rows builds the pane's rows from a paste inventory: every file, then
// every referenced hash without a file.
func Rows(inv *model.PasteInventory, refs map[model.PasteHash]int) []Row {
	if inv == nil {
		return nil
	}
	status := map[model.PasteHash]model.PasteResolution{}
	for _, r := range inv.Resolutions {
		status[r.Hash] = r
	}
	var rows []Row
	for _, f := range inv.Files {
		r := Row{Hash: f.Hash, Path: f.Path, Source: f.Source, Size: f.Size, ModTime: f.ModTime, Refs: f.Refs, Status: model.PasteOK}
		if res, ok := status[f.Hash]; ok {
			r.Status, r.Reason = res.Status, res.Reason
		}
		rows = append(rows, r)
	}
	for _, res := range inv.Resolutions {
		if res.Status == model.PasteMissing {
			rows = append(rows, Row{Hash: res.Hash, Path: res.Path, Status: res.Status, Reason: res.Reason, Refs: refs[res.Hash]})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].ModTime.After(rows[j].ModTime) })
	return rows
}

// Model is the Pastes pane.
type Model struct {
	keys    *keymap.KeyMap
	styles  style.Styles
	list    list.Model[Row]
	det     detail.Model
	summary model.PasteSummary
	// loaded says an inventory arrived (until then the pane says it is
	// reading).
	loaded bool
	// unavailable says history.jsonl could not be read (list.Empty
	// says why).
	unavailable bool
	preview     map[string]msgs.PasteResolved
	// shown is each previewed paste's text as the detail shows it at
	// width (previewLines): made when the paste is resolved or the pane
	// resized, not for every frame and key (a paste may hold 16 MiB).
	shown  map[string][]string
	now    time.Time
	width  int
	height int
}

// New returns an empty Pastes pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: &keys, styles: st, preview: map[string]msgs.PasteResolved{}, shown: map[string][]string{}, det: detail.New(keys, st)}
	m.list = list.New(keys, st, rowText)
	m.list.Empty = "reading the paste cache…"
	return m
}

// Title names the pane.
func (m Model) Title() string { return "Pastes" }

// Loaded says an inventory arrived (InventoryMsg).
func (m Model) Loaded() bool { return m.loaded }

// InventoryMsg brings the pane a paste inventory (from its feed) and how
// many prompts refer to each paste.
type InventoryMsg struct {
	Inventory *model.PasteInventory
	Refs      map[model.PasteHash]int
	Now       time.Time
}

// UnavailableMsg says why the paste cache is not listed: history.jsonl,
// which says which pastes are referenced, could not be read, and a list
// without it would call every paste an orphan.
type UnavailableMsg struct{ Why string }

func (m *Model) setInventory(inv *model.PasteInventory, refs map[model.PasteHash]int, now time.Time) {
	m.now, m.loaded = now, true
	if inv != nil {
		m.summary = inv.Summary
	}
	m.list.Empty = "the paste cache is empty"
	m.list.SetItems(Rows(inv, refs))
}

// SelectHash selects the paste with hash h (a search hit) and reports
// whether the pane lists it.
func (m *Model) SelectHash(h model.PasteHash) bool {
	return m.list.SelectWhere(func(r Row) bool { return r.Hash == h })
}

// Selected is the paste under the cursor.
func (m Model) Selected() (Row, bool) { return m.list.Selected() }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.list.SetStyles(st)
	m.det.SetStyles(st)
}

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	if w != m.width {
		shown := make(map[string][]string, len(m.preview))
		for k, r := range m.preview {
			shown[k] = previewLines(r.Content, w)
		}
		m.shown = shown
	}
	m.width, m.height = w, h
	m.list.SetSize(w, max(h*3/5-2, 3))
}

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away.
func (m *Model) Blur() {}

// Filtering reports whether the filter line has the keyboard.
func (m Model) Filtering() bool { return m.list.Filtering() }

// Help lists the pane's own bindings.
func (m Model) Help() []key.Binding {
	return append([]key.Binding{m.keys.Open}, m.det.Help()...)
}

// ClickRow moves the cursor to the clicked row.
func (m *Model) ClickRow(y int) tea.Cmd {
	if m.det.Zoomed() {
		return nil
	}
	_, n := text.Head(m.head(), m.width, m.styles.Dim)
	m.list.ClickRow(y - n - 1)
	return nil
}

// Update handles keys and resolved previews.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if r, ok := msg.(msgs.PasteResolved); ok {
		m.preview[r.Hash] = r
		m.shown[r.Hash] = previewLines(r.Content, m.width)
		return m, nil
	}
	if inv, ok := msg.(InventoryMsg); ok {
		m.unavailable = false
		m.setInventory(inv.Inventory, inv.Refs, inv.Now)
		return m, nil
	}
	if u, ok := msg.(UnavailableMsg); ok {
		m.unavailable = true
		m.list.Empty = model.SanitizeForTerminal(u.Why) + "; the paste cache is not listed (every paste would look like an orphan)"
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
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.keys.Open) {
		if r, ok := m.list.Selected(); ok && r.Status != model.PasteMissing {
			h := string(r.Hash)
			return m, func() tea.Msg { return msgs.ResolvePaste{Hash: h} }
		}
	}
	return m, nil
}

func (m Model) renderRow(r Row, selected bool, width int) string {
	var badge string
	switch {
	case r.Status == model.PasteMissing:
		badge = m.styles.BadgeProblem.Render("missing")
	case r.Status == model.PasteHashMismatch:
		badge = m.styles.BadgeProblem.Render("hash mismatch")
	case r.Status == model.PasteUnreadable:
		badge = m.styles.BadgeProblem.Render("unreadable")
	case r.Orphan():
		badge = m.styles.Warn.Render("orphan")
	default:
		badge = m.styles.OK.Render("ok")
	}
	src := ""
	if r.Source == model.PasteSourceStore {
		src = m.styles.Dim.Render(" (seed paste-store)")
	}
	size, age := "—", "—"
	if r.Status != model.PasteMissing {
		size, age = text.Bytes(r.Size), format.Ago(m.now, r.ModTime)
	}
	return fmt.Sprintf("%-20s %8s %9s %5d  %s%s", model.SanitizeLine(string(r.Hash)), size, age, r.Refs, badge, src)
}

// View draws the summary, the list and a preview of the selected paste.
func (m Model) View() string {
	return m.det.Under(m.top(), m.detailContent(), m.width, m.height)
}

// top is the counts, the column header and the list.
func (m Model) top() string {
	head, _ := text.Head(m.head(), m.width, m.styles.Dim)
	var b strings.Builder
	b.WriteString(head)
	b.WriteByte('\n')
	b.WriteString(m.styles.Header.Render(fmt.Sprintf("%-20s %8s %9s %5s  %s", "HASH", "SIZE", "AGE", "REFS", "STATUS")))
	b.WriteByte('\n')
	return b.String() + m.list.View(m.renderRow)
}

// head is the counts line.
func (m Model) head() string {
	s := m.summary
	head := fmt.Sprintf("%s · %s: %d ok, %d missing, %d mismatched · %s · %s",
		text.Count(s.Files, "file", ""), text.Count(s.Referenced, "referenced hash", "referenced hashes"), s.Resolved, s.Missing, s.HashMismatch, text.Count(s.Orphans, "orphan", ""), text.Count(s.Inline, "inline paste", ""))
	switch {
	case m.unavailable:
		head = "history.jsonl not read"
	case !m.loaded:
		head = "reading history and the paste cache…"
	}
	return head
}

// detailContent is the selected paste: where it is, what is wrong with
// it, and its whole text once previewed (enter), long lines wrapped.
func (m Model) detailContent() detail.Content {
	r, ok := m.list.Selected()
	if !ok {
		return detail.Content{}
	}
	lines := []string{m.styles.Dim.Render(model.SanitizeLine(r.Path))}
	switch {
	case r.Status == model.PasteMissing:
		lines = append(lines, m.styles.Error.Render(text.Count(r.Refs, "history line refers", "history lines refer")+" to this paste, but the file is gone (swept by cleanupPeriodDays?)"))
	case r.Reason != "":
		lines = append(lines, m.styles.Warn.Render(model.SanitizeLine(r.Reason)))
	}
	id := string(r.Hash)
	if shown, ok := m.shown[string(r.Hash)]; ok {
		id += " previewed"
		lines = append(lines, shown...)
	} else if r.Status != model.PasteMissing {
		lines = append(lines, m.styles.Dim.Render("enter to preview"))
	}
	return detail.Content{ID: id, Lines: lines}
}

// previewLines is a paste's text as its detail shows it at width w: made
// safe to print, tabs expanded, long lines wrapped at spaces (a paste is
// mostly prose; a line that fits keeps its indentation).
func previewLines(content string, w int) []string {
	var lines []string
	for _, l := range strings.Split(model.SanitizeForTerminal(content), "\n") {
		l = text.ExpandTabs(l)
		if lipgloss.Width(l) > w {
			l = text.Wrap(l, w)
		}
		lines = append(lines, strings.Split(l, "\n")...)
	}
	return lines
}

// Legend explains the pane's statuses.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "ok", Means: "cached, and its content matches its hash"},
		{Mark: "orphan", Means: "cached, but no history line refers to it"},
		{Mark: "missing", Means: "history refers to it, the cache does not have it"},
		{Mark: "hash mismatch", Means: "the content does not match the hash it is filed under"},
		{Mark: "unreadable", Means: "the file cannot be read"},
		{Mark: "REFS", Means: "how many history lines refer to the paste"},
		m.det.Legend(),
	}
}
