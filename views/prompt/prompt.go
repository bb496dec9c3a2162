// Package prompt is the Prompt pane: the layers of the next session's
// context in the order the client sends them, with token bars, what was
// truncated, skipped or left for later and why; and a recall query to
// preview which memories a prompt would pull in.
package prompt

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	engineloads "github.com/memscope/memscope/engine/loads"
	enginepreview "github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/hit"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// Row is one line of the layer list: a layer, or a recalled memory.
type Row struct {
	Layer    *enginepreview.Layer
	Recalled *enginepreview.RecalledFile
}

// Model is the Prompt pane.
type Model struct {
	keys     *keymap.KeyMap
	styles   style.Styles
	list     list.Model[Row]
	det      detail.Model
	preview  *enginepreview.Preview
	query    textinput.Model
	querying bool
	loading  bool
	// unavailable says why there is no preview (SetUnavailable).
	unavailable string
	// loads is what the open project's sessions loaded (engine/loads);
	// nil until read.
	loads *engineloads.Report
	// hit is the search hit the pane was opened at (ShowHit), shown in
	// its layer's detail until the cursor leaves that layer or esc.
	hit    *shownHit
	width  int
	height int
	// show is the layer the Overview opened the pane at (its file's
	// path: the prompt line's biggest layer), selected once a preview is
	// in.
	show string
}

// Hit is a search hit in a file the pane may list (a CLAUDE.md, a rule,
// an import), with the file's text as the root read it for the hit.
type Hit struct {
	// Path is the file's absolute path, as the layers name it.
	Path    string
	Spot    hit.Spot
	Content string
}

// shownHit is a Hit placed in its file.
type shownHit struct {
	path string
	spot hit.Spot
	doc  *hit.Doc
}

// New returns an empty Prompt pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: &keys, styles: st, query: style.Input("recall query: ", "type what you would ask Claude (more than one word)"), loading: true, det: detail.New(keys, st)}
	m.list = list.New(keys, st, func(r Row) string {
		if r.Layer != nil {
			return r.Layer.Path + " " + string(r.Layer.Kind) + " " + string(r.Layer.Status)
		}
		return r.Recalled.File
	})
	m.list.Empty = "no layers"
	return m
}

// Title names the pane.
func (m Model) Title() string { return "Prompt" }

// SetPreview shows a preview.
func (m *Model) setPreview(p *enginepreview.Preview) {
	m.preview, m.loading, m.unavailable = p, false, ""
	var rows []Row
	for i := range p.Layers {
		rows = append(rows, Row{Layer: &p.Layers[i]})
	}
	// Recalled files that loaded are layers already; the ones the budget
	// left out are listed after them.
	for i := range p.Recalled {
		if p.Recalled[i].Skipped != "" {
			rows = append(rows, Row{Recalled: &p.Recalled[i]})
		}
	}
	m.list.SetItems(rows)
	if m.hit != nil && !m.selectHit() {
		m.hit = nil // the file left the prompt
	}
}

// selectShown selects the layer m.show names (the one that loads), once
// a preview is in.
func (m *Model) selectShown() {
	if m.preview == nil || m.show == "" {
		return
	}
	p := m.show
	m.list.SelectWhere(func(r Row) bool {
		return r.Layer != nil && r.Layer.Path == p && r.Layer.Status == enginepreview.StatusLoaded
	})
	m.show = ""
}

// Selected returns the row under the cursor.
func (m Model) Selected() (Row, bool) { return m.list.Selected() }

// Project is the folder the preview shown is for ("" before one is in).
func (m Model) Project() string {
	if m.preview == nil {
		return ""
	}
	return m.preview.Project
}

// ShowHit selects the layer of the file h is in and shows the file at
// the hit, its line marked, and reports whether the preview lists that
// file.
func (m *Model) ShowHit(h Hit) bool {
	m.hit = &shownHit{path: h.Path, spot: h.Spot, doc: hit.NewDoc(h.Content, h.Spot)}
	if m.preview == nil || !m.selectHit() {
		m.hit = nil
		return false
	}
	m.det.Unzoom()
	return true
}

// selectHit puts the cursor on the hit's layer: the one that loads, else
// the first naming the file (a rule for later, a skipped import).
func (m *Model) selectHit() bool {
	p := m.hit.path
	return m.list.SelectWhere(func(r Row) bool {
		return r.Layer != nil && r.Layer.Path == p && r.Layer.Status == enginepreview.StatusLoaded
	}) || m.list.SelectWhere(func(r Row) bool { return r.Layer != nil && r.Layer.Path == p })
}

// hitShown is the hit when the selected layer is its file.
func (m Model) hitShown() *shownHit {
	if m.hit == nil {
		return nil
	}
	if r, ok := m.list.Selected(); ok && r.Layer != nil && r.Layer.Path == m.hit.path {
		return m.hit
	}
	return nil
}

// SetLoads gives the pane what the project's sessions loaded, for the
// selected layer's detail.
func (m *Model) setLoads(r *engineloads.Report) { m.loads = r }

// PreviewMsg brings the pane a preview (from the shell's preview load).
type PreviewMsg struct{ Preview *enginepreview.Preview }

// LoadsMsg brings the pane what the project's sessions loaded (nil: not
// read).
type LoadsMsg struct{ Loads *engineloads.Report }

// UnavailableMsg says why there is no preview to build (see
// setUnavailable).
type UnavailableMsg struct{ Why string }

// SetUnavailable says why there is no preview to build (no project,
// no folder to build it for): the pane shows why instead of waiting.
func (m *Model) setUnavailable(why string) {
	m.preview, m.loading, m.unavailable = nil, false, why
	m.list.SetItems(nil)
}

// Paths are the files the preview reads (its layers), none before one
// is in.
func (m Model) Paths() []string {
	if m.preview == nil {
		return nil
	}
	out := make([]string, 0, len(m.preview.Layers))
	for _, l := range m.preview.Layers {
		if l.Path != "" {
			out = append(out, l.Path)
		}
	}
	return out
}

// Query is the recall query in effect.
func (m Model) Query() string { return strings.TrimSpace(m.query.Value()) }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.list.SetStyles(st)
	m.det.SetStyles(st)
}

// listHeight is the layer list's rows: the header and the list take
// about half the pane (the detail the rest), so a header that wraps to
// more lines leaves the list fewer.
func (m Model) listHeight() int { return max(m.height/2+2-max(m.headRows(), 5), 3) }

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.query.SetWidth(max(w-20, 10))
	m.layout()
}

// layout sizes the list under the header as it is now (the header's
// lines change with the width, the preview and the query).
func (m *Model) layout() { m.list.SetSize(m.width, m.listHeight()) }

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away.
func (m *Model) Blur() { m.querying = false; m.query.Blur() }

// Filtering reports whether the pane takes text.
func (m Model) Filtering() bool { return m.querying || m.list.Filtering() }

// ClickRow moves the cursor to the clicked row.
func (m *Model) ClickRow(y int) tea.Cmd {
	if m.det.Zoomed() {
		return nil
	}
	m.list.ClickRow(y - m.headRows())
	if m.hitShown() == nil {
		m.hit = nil
	}
	return nil
}

// Help lists the pane's own bindings.
func (m Model) Help() []key.Binding {
	if m.querying {
		return []key.Binding{m.keys.Open, m.keys.Back}
	}
	if m.hitShown() != nil {
		back := key.NewBinding(key.WithKeys(m.keys.Back.Keys()...), key.WithHelp(m.keys.Back.Help().Key, "the text as sent"))
		return append([]key.Binding{m.keys.Query, m.keys.Edit, back}, m.det.Help()...)
	}
	return append([]key.Binding{m.keys.Query, m.keys.Edit}, m.det.Help()...)
}

// Update handles the list and the query line.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	m, cmd := m.update(msg)
	m.layout()
	return m, cmd
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch d := msg.(type) {
	case PreviewMsg:
		m.setPreview(d.Preview)
		m.selectShown()
		return m, nil
	case msgs.Show:
		m.show = d.What
		m.selectShown()
		return m, nil
	case LoadsMsg:
		m.setLoads(d.Loads)
		return m, nil
	case UnavailableMsg:
		m.setUnavailable(d.Why)
		return m, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && m.querying {
		switch {
		case key.Matches(k, m.keys.Open):
			m.querying = false
			m.query.Blur()
			m.loading = true
			q := m.Query()
			return m, func() tea.Msg { return msgs.RecallQuery{Query: q} }
		case key.Matches(k, m.keys.Back):
			m.querying = false
			m.query.Blur()
			return m, nil
		}
		var cmd tea.Cmd
		m.query, cmd = m.query.Update(k)
		return m, cmd
	}
	if !m.list.Filtering() && m.preview != nil {
		if d, ok := m.det.Update(msg, m.detailContent(), m.det.Area(m.top(), m.width, m.height)); ok {
			m.det = d
			return m, nil
		}
	}
	var cmd tea.Cmd
	var handled bool
	m.list, cmd, handled = m.list.Update(msg)
	if handled {
		if m.hitShown() == nil {
			m.hit = nil // the cursor left the hit's file
		}
		return m, cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, m.keys.Back) && m.hitShown() != nil:
			m.hit = nil
			return m, nil
		case key.Matches(k, m.keys.Query):
			m.querying = true
			return m, m.query.Focus()
		case key.Matches(k, m.keys.Edit):
			if r, ok := m.list.Selected(); ok {
				p := ""
				if r.Layer != nil {
					p = r.Layer.Path
				} else {
					p = r.Recalled.Path
				}
				if p != "" && (r.Layer == nil || r.Layer.Status != enginepreview.StatusMissing) {
					return m, func() tea.Msg { return msgs.OpenEditor{Path: p} }
				}
			}
		}
	}
	return m, nil
}

func (m Model) statusBadge(s enginepreview.LayerStatus, truncated bool) string {
	switch {
	case s == enginepreview.StatusLoaded && truncated:
		return m.styles.Warn.Render("truncated")
	case s == enginepreview.StatusLoaded:
		return m.styles.OK.Render("loaded")
	case s == enginepreview.StatusConditional:
		return m.styles.Dim.Render("later")
	case s == enginepreview.StatusMissing:
		return m.styles.Error.Render("missing")
	case s == enginepreview.StatusNotInSession:
		return m.styles.Dim.Render("not in session")
	}
	return m.styles.Warn.Render(string(s))
}

func (m Model) maxTokens() int64 {
	mx := int64(1)
	if m.preview == nil {
		return mx
	}
	for _, l := range m.preview.Layers {
		mx = max(mx, int64(l.Tokens))
	}
	return mx
}

func (m Model) renderRow(r Row, selected bool, width int) string {
	barW := max(min(width/5, 20), 4)
	if r.Layer != nil {
		l := r.Layer
		indent := strings.Repeat("  ", l.Depth)
		name := indent + text.TruncateLeft(model.SanitizeForTerminal(l.Path), max(width-barW-40-2*l.Depth, 10))
		return fmt.Sprintf("%-15s %6d %s %s %s", l.Kind, l.Tokens, m.styles.Bar(int64(l.Tokens), m.maxTokens(), barW), text.Pad(m.statusBadge(l.Status, l.Truncated), 14), name)
	}
	f := r.Recalled
	status := m.styles.OK.Render("recalled")
	if f.Skipped != "" {
		status = m.styles.Warn.Render("over budget")
	}
	tok := (f.Bytes + 3) / 4
	return fmt.Sprintf("%-15s %6d %s %s %s %s", "recall", tok, m.styles.Bar(int64(tok), m.maxTokens(), barW), text.Pad(status, 14), text.Truncate(f.File, max(width-barW-52, 10)), m.styles.Dim.Render(fmt.Sprintf("score %.2f", f.Score)))
}

// View draws the totals, the query, the layers and the selected layer.
func (m Model) View() string {
	if m.preview == nil {
		if m.unavailable != "" {
			return m.styles.Dim.Render(text.Wrap(m.unavailable, max(m.width, 20)))
		}
		return m.styles.Dim.Render("building the preview…")
	}
	return m.det.Under(m.top(), m.detailContent(), m.width, m.height)
}

// top is the header (head) and the layer list.
func (m Model) top() string {
	return m.head() + "\n" + m.list.View(m.renderRow)
}

// head is what top draws above the layer list: the totals, the window,
// recall, the query and the column header. Each line wraps at the
// pane's width (a line too long for it says less first, when the pane's
// legend says the rest), so its row count varies with the width:
// headRows counts it, and the list and clicks go under it.
func (m Model) head() string {
	var b strings.Builder
	p := m.preview
	w := max(m.width, 1)
	totals := fmt.Sprintf("next session: %s, %s ≈ %s · memory", text.Count(len(p.Layers), "layer", ""), text.Count(p.Totals.Chars, "char", ""), text.Count(int(p.Totals.Tokens), "token", ""))
	if m.loading {
		totals = "updating… " + totals
	}
	// The folder's end names the project; its start is the home: it is
	// cut from the left, in the room the totals leave (a line of its own
	// when they leave little). The MEMORY.md layer's detail names it whole.
	lines := strings.Split(text.Wrap(totals, w), "\n")
	last := lines[len(lines)-1]
	folder := model.SanitizeLine(p.MemoryDir)
	if room := w - lipgloss.Width(last) - 1; room >= min(lipgloss.Width(folder), minFolder) {
		lines[len(lines)-1] = last + " " + text.TruncateLeft(folder, room)
	} else {
		lines = append(lines, text.TruncateLeft(folder, w))
	}
	for i, l := range lines {
		lines[i] = m.styles.Dim.Render(text.Truncate(l, w))
	}
	b.WriteString(strings.Join(lines, "\n"))
	b.WriteByte('\n')
	// The window it is measured against, and where each value came from
	// (engine/window.Resolve, the line `memscope prompt` prints).
	win := "window " + p.WindowLine()
	if t := p.Window.Window.Tokens; t > 0 {
		win += fmt.Sprintf(" · this prompt is %.1f%% of the window", 100*float64(p.Totals.Tokens)/float64(t))
	}
	winLines, _ := text.Head(model.SanitizeLine(win), w, m.styles.Dim)
	b.WriteString(winLines)
	b.WriteByte('\n')
	recall, _ := text.Head(fit(w, m.recallLine(false), m.recallLine(true)), w, lipgloss.NewStyle())
	b.WriteString(recall)
	b.WriteByte('\n')
	picked := "picked"
	if !p.RecallMode.On {
		picked = "would be picked (recall is off: none is sent)"
	}
	switch {
	case m.querying:
		b.WriteString(m.query.View())
	case m.Query() != "":
		q, _ := text.Head(fit(w,
			fmt.Sprintf("recall for %q: %d %s — the real client picks with a model call; memscope uses BM25 over name, description and the first lines", m.Query(), len(p.Recalled), picked),
			fmt.Sprintf("recall for %q: %d %s (BM25 stands in for the model's pick)", m.Query(), len(p.Recalled), picked)), w, lipgloss.NewStyle())
		b.WriteString(q)
	default:
		hint, _ := text.Head(fit(w,
			"i: type a query to preview recall (the real client picks up to 5 memories with a model call; memscope shows a local BM25 choice)",
			"i: preview recall for a query (memscope's BM25 stands in for the model's pick)"), w, m.styles.Dim)
		b.WriteString(hint)
	}
	b.WriteByte('\n')
	b.WriteString(m.styles.Header.Render(text.Truncate(fmt.Sprintf("%-15s %6s %s %-14s %s", "KIND", "TOKENS", strings.Repeat(" ", max(min(m.width/5, 20), 4)), "STATUS", "SOURCE"), m.width)))
	return b.String()
}

// minFolder is the fewest cells the memory folder takes beside the
// totals; with less room it takes a line of its own.
const minFolder = 16

// headRows is how many lines head takes (5 when each fits its line).
func (m Model) headRows() int {
	if m.preview == nil {
		return 0
	}
	return strings.Count(m.head(), "\n") + 1
}

// fit is full when it fits w cells, else short: the words short leaves
// out are in the pane's legend (?).
func fit(w int, full, short string) string {
	if lipgloss.Width(full) <= w {
		return full
	}
	return short
}

// recallLine says whether recall is on for this user and what each state
// does with MEMORY.md; the layers below show the state it names. short
// leaves out what the other state does (the legend says it).
func (m Model) recallLine(short bool) string {
	r := m.preview.RecallMode
	if !m.preview.Memory.Enabled {
		return m.styles.Dim.Render("recall: none (auto memory is off)")
	}
	why := r.Reason
	switch r.Source {
	case enginepreview.RecallEnv:
		why = enginepreview.RecallEnv + " set"
	case "default":
		why = enginepreview.RecallEnv + " unset"
	}
	if r.On {
		s := m.styles.Warn.Render("recall ON") + fmt.Sprintf(" (%s): MEMORY.md dropped (−%d tok)", why, r.Off.IndexTokens)
		if short {
			return s
		}
		return s + " · ≤5 picked per prompt, BM25 as stand-in"
	}
	s := m.styles.OK.Render("recall off") + fmt.Sprintf(" (%s): MEMORY.md loads, %d tok", why, r.Off.IndexTokens)
	if short {
		return s
	}
	return s + " · on: dropped, ≤5 picked per prompt"
}

// recalled finds the recall entry of a recalled-memory layer.
func (m Model) recalled(path string) *enginepreview.RecalledFile {
	if m.preview == nil {
		return nil
	}
	for i := range m.preview.Recalled {
		if m.preview.Recalled[i].Path == path {
			return &m.preview.Recalled[i]
		}
	}
	return nil
}

// detailContent is the selected layer's text in full, under what it is.
func (m Model) detailContent() detail.Content {
	r, ok := m.list.Selected()
	if !ok {
		return detail.Content{}
	}
	var lines []string
	var id string
	var body string
	if l := r.Layer; l != nil {
		meta := fmt.Sprintf("%s · %s · %s", l.Kind, l.Status, text.Count(l.Chars, "char", ""))
		if f := m.recalled(l.Path); f != nil {
			meta += fmt.Sprintf(" · score %.2f: %s", f.Score, f.Why)
		}
		if l.ImportedFrom != "" {
			meta += " · imported by " + l.ImportedFrom
		}
		if l.External {
			meta += " · outside the project"
		}
		lines = append(lines, m.styles.Dim.Render(model.SanitizeForTerminal(meta)))
		if l.Path != "" && !strings.Contains(l.Text, l.Path) {
			// The row cuts the path from the left and the text does not
			// name it ("Contents of …" does): the detail wraps it whole.
			lines = append(lines, m.styles.Dim.Render(model.SanitizeForTerminal(l.Path)))
		}
		if m.loads != nil && l.Kind != enginepreview.KindRecalled {
			if s := m.loads.FileSummary(l.Path); s != "" {
				lines = append(lines, m.styles.Dim.Render("sessions: "+s))
			}
		}
		if l.Reason != "" {
			lines = append(lines, m.styles.Warn.Render(model.SanitizeForTerminal(l.Reason)))
		}
		if h := m.hitShown(); h != nil {
			return m.hitContent(h, lines)
		}
		body, id = l.Text, "layer "+l.Path+" "+string(l.Kind)
	} else {
		f := r.Recalled
		lines = append(lines, m.styles.Dim.Render(fmt.Sprintf("%s · %s old · %s", f.Path, text.Count(f.AgeDays, "day", ""), f.Why)))
		if f.Skipped != "" {
			lines = append(lines, m.styles.Warn.Render(f.Skipped))
		}
		body, id = f.Text, "recalled "+f.Path
	}
	for _, l := range strings.Split(model.SanitizeForTerminal(body), "\n") {
		lines = append(lines, text.ExpandTabs(l))
	}
	return detail.Content{ID: id, Lines: lines}
}

// hitContent is the hit's layer shown at the hit: what the layer is
// (head), where the hit is, and the file as on disk (what is sent drops
// HTML comments and frontmatter), opened a little above the hit's line.
func (m Model) hitContent(h *shownHit, head []string) detail.Content {
	lines := append(head, hit.Header(h.spot, m.styles, m.width)...)
	note := "the file as on disk (the text sent leaves out HTML comments and frontmatter) · " + m.keys.Back.Help().Key + ": the text as sent"
	if !h.doc.Found() {
		note = fmt.Sprintf("the file changed since the search: line %d no longer holds the match · %s: the text as sent", h.doc.Line(), m.keys.Back.Help().Key)
	}
	lines = append(lines, m.styles.Dim.Render(note))
	body, at := h.doc.Lines(m.styles, m.width)
	top := 0
	if at >= 0 {
		top = max(len(lines)+at-hitContext, 0)
	}
	return detail.Content{ID: fmt.Sprintf("hit %s %d", h.path, h.spot.Line), Lines: append(lines, body...), Top: top}
}

// hitContext is how many lines above a hit's line the detail opens at.
const hitContext = 2

// Legend explains the pane's statuses.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "loaded", Means: "enters the next session's context whole"},
		{Mark: "truncated", Means: "enters it cut to the client's limit"},
		{Mark: "later", Means: "a rule with paths:, loaded when a matching file is touched"},
		{Mark: "missing", Means: "an @import whose file does not exist"},
		{Mark: "not in session", Means: "written after the session started, so not in it"},
		{Mark: "skipped", Means: "found but not sent (the line below says why)"},
		{Mark: "recalled / over budget", Means: "a memory recall would add for the query (i), or leave out for size"},
		{Mark: "recall off / ON", Means: "recall (the model picking up to 5 memories per prompt) is off unless CLAUDE_MEMORY_STORES is set or a server-side gate memscope cannot see turns it on; when on, the client drops MEMORY.md. memscope's BM25 ranking stands in for the model's pick"},
		m.det.Legend(),
	}
}
