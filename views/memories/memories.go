// Package memories is the Memories pane: the typed memory files of a
// project with type, age and staleness badges, whether the index links
// them, and lint flags; the selected file's body beside the list. It is
// also where memories are created, edited, retyped, renamed and deleted:
// the pane asks, the root does the work through the engine's safe
// operations.
package memories

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/memrows"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// Row is one memory file as the pane shows it.
type Row struct {
	// Row is the engine's row (memrows.Build): indexed and loaded, age,
	// staleness, lint's flags. The pane adds only where and how to show it.
	memrows.Row
	// AbsPath is the file on disk.
	AbsPath string
	// Loads is what the transcripts say the sessions saw of its index
	// line (engine/loads); nil when they were not read.
	Loads *loads.Memory
	// Body is the body rendered as Markdown for the pane's width.
	Body string
}

// mode is what the pane is doing with the keyboard.
type mode int

const (
	modeBrowse mode = iota
	modeNew
	modeRetype
	modeRename
	modeConfirmDelete
)

// The new-memory form's fields, in tab order.
const (
	fieldName = iota
	fieldType
	fieldDesc
	formFields
)

var memoryTypes = []model.MemoryType{model.TypeUser, model.TypeFeedback, model.TypeProject, model.TypeReference}

// Model is the Memories pane.
type Model struct {
	keys   *keymap.KeyMap
	styles style.Styles
	// staleness are the thresholds the legend states (nil: the defaults).
	staleness memindex.StalenessThresholds
	list      list.Model[Row]
	det       detail.Model
	width     int
	height    int
	mode      mode
	readOnly  bool
	// store names the memory store shown when the project has more than
	// one (see StoreMsg); "" otherwise.
	store string

	// The new-memory form and the rename field.
	name, desc textinput.Model
	typeIdx    int
	field      int

	// origins are where each file came from, by AbsPath (provenance);
	// nil until read.
	origins map[string]Origin
}

// Origin is where a memory file came from and who changed it last, as
// the detail shows it.
type Origin struct {
	// Text says where the file came from; Last its last change, "" when
	// the call that created it was the last.
	Text, Last string
	// Prompt is the user prompt behind the last change ("" when none).
	Prompt string
	// Jump opens the turn of the last change (else the one that created
	// the file) in Replay; nil when no transcript holds either.
	Jump *msgs.ReplayAt
}

// The pane's data, as its feeds send it: the memory files (RowsMsg), why
// there are none to read (UnavailableMsg), the store they are from
// (StoreMsg), where each file came from (OriginsMsg).

// RowsMsg shows a project's memory files.
type RowsMsg struct{ Rows []Row }

// UnavailableMsg says why there are no memory files to show (no project
// yet), instead of reading.
type UnavailableMsg struct{ Why string }

// StoreMsg names the memory store the rows are from ("" when the project
// has only its auto memory): "agent reviewer (project scope) · 2/3 · m:
// next".
type StoreMsg struct{ Label string }

// OriginsMsg shows where each file came from (by AbsPath).
type OriginsMsg struct{ Origins map[string]Origin }

// takeData applies a data message; ok is false for any other message.
func (m *Model) takeData(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case RowsMsg:
		m.list.Empty = "no memory files in this project"
		m.list.SetItems(msg.Rows)
	case UnavailableMsg:
		m.list.Empty = msg.Why
		m.list.SetItems(nil)
	case StoreMsg:
		m.store = msg.Label
		m.SetSize(m.width, m.height)
	case OriginsMsg:
		m.origins = msg.Origins
	case StalenessMsg:
		m.staleness = msg.Thresholds
	default:
		return false
	}
	return true
}

// New returns an empty Memories pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: &keys, styles: st, det: detail.New(keys, st), name: style.Input("", "e.g. Prefers terse answers"), desc: style.Input("", "one-line description")}
	m.list = list.New(keys, st, rowText)
	m.list.Empty = "reading the memory folder…"
	return m
}

// Title names the pane.
func (m Model) Title() string { return "Memories" }

// rowText is what the filter matches: the file's names and type, and the
// badges the row shows (staleness, [link], lint's flags), so "/stale"
// finds the stale rows.
func rowText(r Row) string {
	parts := []string{r.File.Path, r.File.Name, r.File.Description, string(r.File.Type), string(r.Staleness)}
	if r.File.Symlink {
		parts = append(parts, "link")
	}
	return strings.Join(append(parts, r.Flags...), " ")
}

// SelectPath selects the memory file at abs (a search hit) and reports
// whether the pane lists it.
func (m *Model) SelectPath(abs string) bool {
	return m.list.SelectWhere(func(r Row) bool { return r.AbsPath == abs })
}

// SetReadOnly disables the editing keys.
func (m *Model) SetReadOnly(ro bool) { m.readOnly = ro }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.list.SetStyles(st)
	m.det.SetStyles(st)
}

// listWidth is the list's share of the width; the body takes the rest.
func (m Model) listWidth() int {
	if m.width < 90 {
		return m.width
	}
	return m.width * 11 / 20
}

// BodyWidth is the width the root should render bodies for.
func (m Model) BodyWidth() int {
	if m.width < 90 {
		return m.width
	}
	return m.width - m.listWidth() - 1
}

// listRows is the list's height under its one-line legend: the pane's
// height beside the text from 90 columns, else half of it.
func (m Model) listRows() int {
	rows := m.height - 2
	if m.width < 90 {
		rows = max(m.height/2-1, 3)
	}
	if m.store != "" {
		rows = max(rows-1, 1) // the store's line above the legend
	}
	return rows
}

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.list.SetSize(m.listWidth(), m.listRows())
	// "› description: " is 15 cells; the inputs take the rest of the
	// list's width.
	m.name.SetWidth(max(m.listWidth()-17, 10))
	m.desc.SetWidth(max(m.listWidth()-17, 10))
}

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away and cancels a form.
func (m *Model) Blur() { m.mode = modeBrowse }

// Filtering reports whether the pane is taking text (filter or a form), so
// the root leaves letter keys alone.
func (m Model) Filtering() bool { return m.list.Filtering() || m.mode != modeBrowse }

// ClickRow moves the cursor to the clicked row.
func (m *Model) ClickRow(y int) tea.Cmd {
	if m.det.Zoomed() {
		return nil
	}
	// Under the store's line and the legend (or the form).
	m.list.ClickRow(y - strings.Count(m.head(), "\n") - 1)
	return nil
}

// Help lists the pane's own bindings for the current mode.
func (m Model) Help() []key.Binding {
	switch m.mode {
	case modeConfirmDelete:
		return []key.Binding{m.keys.Confirm, m.keys.Cancel}
	case modeNew:
		create := key.NewBinding(key.WithKeys(m.keys.Open.Keys()...), key.WithHelp(m.keys.Open.Help().Key, "create"))
		help := []key.Binding{create, m.keys.Back, m.keys.NextField, m.keys.PrevField}
		if m.field == fieldType {
			help = append(help, m.keys.ChoicePrev, m.keys.ChoiceNext)
		}
		return help
	case modeRename, modeRetype:
		return []key.Binding{m.keys.Open, m.keys.Back}
	}
	export := key.NewBinding(key.WithKeys(m.keys.Export.Keys()...), key.WithHelp(m.keys.Export.Help().Key, "export memory as Markdown"))
	if m.readOnly {
		return append([]key.Binding{m.keys.Origin, export, m.keys.NextStore}, m.det.Help()...)
	}
	return append([]key.Binding{m.keys.Edit, m.keys.New, m.keys.Retype, m.keys.Rename, m.keys.Delete, m.keys.Origin, export, m.keys.NextStore}, m.det.Help()...)
}

// Selected returns the row under the cursor.
func (m Model) Selected() (Row, bool) { return m.list.Selected() }

func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// Update handles the list, the editing keys and the forms.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if s, ok := msg.(msgs.Show); ok && s.What != "" {
		// The Overview opened the pane at a filter ("stale").
		m.list.SetFilter(s.What)
		return m, nil
	}
	if m.takeData(msg) {
		return m, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && m.mode != modeBrowse {
		return m.updateForm(k)
	}
	if !m.list.Filtering() {
		if d, ok := m.det.Update(msg, m.detailContent(), m.detailArea()); ok {
			m.det = d
			return m, nil
		}
	}
	m, cmd := m.updateBrowse(msg)
	if m.mode != modeBrowse {
		m.det.Unzoom() // a form or a question is over the list
	}
	return m, cmd
}

// updateBrowse handles the list and the editing keys.
func (m Model) updateBrowse(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	var handled bool
	m.list, cmd, handled = m.list.Update(msg)
	if handled {
		return m, cmd
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	if m.readOnly && (key.Matches(k, m.keys.Edit) || key.Matches(k, m.keys.New) || key.Matches(k, m.keys.Retype) || key.Matches(k, m.keys.Rename) || key.Matches(k, m.keys.Delete)) {
		return m, send(msgs.Status{Text: "the home is read-only: editing is off", Error: true})
	}
	switch {
	case key.Matches(k, m.keys.Export):
		return m, send(msgs.ExportMemory{Format: "md"})
	case key.Matches(k, m.keys.NextStore):
		return m, send(msgs.NextMemoryStore{})
	}
	row, has := m.list.Selected()
	switch {
	case key.Matches(k, m.keys.New):
		m.mode, m.field, m.typeIdx = modeNew, 0, 0
		m.name.SetValue("")
		m.desc.SetValue("")
		m.desc.Blur()
		return m, m.name.Focus()
	case !has:
		return m, nil
	case key.Matches(k, m.keys.Edit):
		return m, send(msgs.OpenEditor{Path: row.AbsPath})
	case key.Matches(k, m.keys.Origin):
		o, known := m.origins[row.AbsPath]
		switch {
		case !known:
			return m, send(msgs.Status{Text: "still reading the transcripts for who wrote it"})
		case o.Jump == nil:
			return m, send(msgs.Status{Text: model.SanitizeLine(row.File.Path) + ": " + o.Text, Error: true})
		}
		return m, send(*o.Jump)
	case key.Matches(k, m.keys.Retype):
		m.mode = modeRetype
		m.typeIdx = 0
		for i, t := range memoryTypes {
			if t == row.File.Type {
				m.typeIdx = i
			}
		}
	case key.Matches(k, m.keys.Rename):
		m.mode = modeRename
		m.name.SetValue(row.File.Name)
		return m, m.name.Focus()
	case key.Matches(k, m.keys.Delete):
		m.mode = modeConfirmDelete
	}
	return m, nil
}

// updateForm handles keys while a form or a confirmation is open.
func (m Model) updateForm(k tea.KeyPressMsg) (Model, tea.Cmd) {
	row, _ := m.list.Selected()
	if key.Matches(k, m.keys.Back) {
		m.mode = modeBrowse
		m.name.Blur()
		m.desc.Blur()
		return m, nil
	}
	switch m.mode {
	case modeConfirmDelete:
		m.mode = modeBrowse
		if key.Matches(k, m.keys.Confirm) {
			return m, send(msgs.DeleteMemory{Path: row.AbsPath})
		}
		return m, send(msgs.Status{Text: "delete cancelled"})
	case modeRetype:
		// The chooser steps with the choice keys and, as a list, with
		// the list's and Replay's step keys (←/h/↑/k back, →/l/↓/j/tab/
		// space on), all as bound in the settings file.
		switch {
		case key.Matches(k, m.keys.Open):
			m.mode = modeBrowse
			return m, send(msgs.RetypeMemory{Path: row.AbsPath, Type: string(memoryTypes[m.typeIdx])})
		case key.Matches(k, m.keys.ChoicePrev, m.keys.StepPrev, m.keys.Up):
			m.typeIdx = (m.typeIdx + len(memoryTypes) - 1) % len(memoryTypes)
		case key.Matches(k, m.keys.ChoiceNext, m.keys.StepNext, m.keys.Down, m.keys.NextField):
			m.typeIdx = (m.typeIdx + 1) % len(memoryTypes)
		default:
			if i, ok := typeDigit(k); ok {
				m.typeIdx = i
			}
		}
		return m, nil
	case modeRename:
		if key.Matches(k, m.keys.Open) {
			m.mode = modeBrowse
			m.name.Blur()
			return m, send(msgs.RenameMemory{Path: row.AbsPath, NewName: strings.TrimSpace(m.name.Value())})
		}
		var cmd tea.Cmd
		m.name, cmd = m.name.Update(k)
		return m, cmd
	case modeNew:
		return m.updateNew(k)
	}
	return m, nil
}

// updateNew handles a key in the new-memory form: tab and shift+tab move
// between the fields, enter creates; the type field takes ←/→ (or space,
// or 1–4) and nothing else, so typing meant for another field never
// changes the type silently.
func (m Model) updateNew(k tea.KeyPressMsg) (Model, tea.Cmd) {
	switch {
	case key.Matches(k, m.keys.NextField, m.keys.PrevField):
		step := 1
		if key.Matches(k, m.keys.PrevField) {
			step = formFields - 1
		}
		m.field = (m.field + step) % formFields
		m.name.Blur()
		m.desc.Blur()
		switch m.field {
		case fieldName:
			return m, m.name.Focus()
		case fieldDesc:
			return m, m.desc.Focus()
		}
		return m, nil
	case key.Matches(k, m.keys.Open):
		name, desc := strings.TrimSpace(m.name.Value()), strings.TrimSpace(m.desc.Value())
		if name == "" || desc == "" {
			return m, send(msgs.Status{Text: "a memory needs a name and a description", Error: true})
		}
		m.mode = modeBrowse
		m.name.Blur()
		m.desc.Blur()
		return m, send(msgs.CreateMemory{Name: name, Type: string(memoryTypes[m.typeIdx]), Description: desc})
	}
	var cmd tea.Cmd
	switch m.field {
	case fieldName:
		m.name, cmd = m.name.Update(k)
	case fieldType:
		switch {
		case key.Matches(k, m.keys.ChoicePrev):
			m.typeIdx = (m.typeIdx + len(memoryTypes) - 1) % len(memoryTypes)
		case key.Matches(k, m.keys.ChoiceNext):
			m.typeIdx = (m.typeIdx + 1) % len(memoryTypes)
		default:
			if i, ok := typeDigit(k); ok {
				m.typeIdx = i
				break
			}
			return m, send(msgs.Status{Text: "the type is chosen with ← →, space or 1–4; tab moves to the description"})
		}
	case fieldDesc:
		m.desc, cmd = m.desc.Update(k)
	}
	return m, cmd
}

// typeDigit reads 1–4 as the memory types in their order: typed text
// (like a field's letters), not an action, so the settings file does not
// rebind it.
func typeDigit(k tea.KeyPressMsg) (int, bool) {
	s := k.String()
	if len(s) == 1 && s >= "1" && s <= "4" {
		return int(s[0] - '1'), true
	}
	return 0, false
}

// TypeBadge renders a memory type as a short coloured tag.
func TypeBadge(st style.Styles, t model.MemoryType) string {
	switch t {
	case model.TypeUser:
		return st.BadgeUser.Render("user")
	case model.TypeFeedback:
		return st.BadgeFeed.Render("feed")
	case model.TypeProject:
		return st.BadgeProj.Render("proj")
	case model.TypeReference:
		return st.BadgeRef.Render("ref ")
	}
	return st.BadgeNone.Render("----")
}

func (m Model) ageBadge(r Row) string {
	s := fmt.Sprintf("%4dd", r.AgeDays)
	switch r.Staleness {
	case memindex.StalenessStale:
		return m.styles.BadgeStale.Render(s + " stale")
	case memindex.StalenessAging:
		return m.styles.BadgeAging.Render(s + " aging")
	}
	return m.styles.BadgeFresh.Render(s + " fresh")
}

func (m Model) renderRow(r Row, selected bool, width int) string {
	idx := m.styles.Dim.Render("·")
	switch {
	case r.Indexed && r.Loaded:
		idx = m.styles.OK.Render("●")
	case r.Indexed:
		idx = m.styles.Warn.Render("◐")
	}
	flags := ""
	if r.File.Symlink {
		// Shown and read; edits are refused (memscope never writes
		// through a link).
		flags = " " + m.styles.Warn.Render("[link]")
	}
	if len(r.Flags) > 0 {
		flags += " " + m.styles.BadgeProblem.Render("["+strings.Join(r.Flags, ",")+"]")
	}
	head := fmt.Sprintf("%s %s %s ", idx, TypeBadge(m.styles, r.File.Type), m.ageBadge(r))
	avail := max(width-lipgloss.Width(head)-lipgloss.Width(flags), 8)
	return head + text.Truncate(model.SanitizeForTerminal(r.File.Path), avail) + flags
}

// View draws the list and the selected file beside (or under) it.
func (m Model) View() string {
	if m.width < 90 {
		return m.det.Under(m.top(), m.detailContent(), m.width, m.height)
	}
	return m.det.Beside(m.top(), m.listWidth(), m.detailContent(), m.width, m.height)
}

// top is the legend (or the form) over the list, as View draws it.
func (m Model) top() string {
	legend := m.head()
	l := m.list
	if m.mode != modeBrowse {
		// The form's extra lines come out of the list's rows.
		l.SetSize(m.listWidth(), max(m.listRows()-strings.Count(legend, "\n"), 1))
	}
	return legend + "\n" + l.View(m.renderRow)
}

// head is what top draws over the list: the store's line and the
// legend, or the form.
func (m Model) head() string {
	if m.mode != modeBrowse {
		return m.formView()
	}
	legend := m.styles.Dim.Render(text.Truncate(fmt.Sprintf("%s · ● indexed ◐ indexed but cut off · not indexed", m.list.Position()), m.listWidth()))
	if m.store != "" {
		legend = m.styles.Bold.Render(text.Truncate(model.SanitizeForTerminal(m.store), m.listWidth())) + "\n" + legend
	}
	return legend
}

// detailArea is where the selected file's text is: beside the list from
// 90 columns, else under it; the whole pane when zoomed.
func (m Model) detailArea() detail.Area {
	if m.width < 90 {
		return m.det.Area(m.top(), m.width, m.height)
	}
	return m.det.BesideArea(m.listWidth(), m.width, m.height)
}

func (m Model) formView() string {
	switch m.mode {
	case modeConfirmDelete:
		r, _ := m.list.Selected()
		// Wrapped (inside a long name too): the question is read whole.
		q := strings.Split(ansi.Wrap(fmt.Sprintf("Move %s to the trash? y/n (undo with u)", model.SanitizeLine(r.File.Path)), max(m.listWidth(), 1), ""), "\n")
		for i, l := range q {
			q[i] = m.styles.Warn.Render(l)
		}
		return strings.Join(q, "\n")
	case modeRetype:
		var parts []string
		for i, t := range memoryTypes {
			s := fmt.Sprintf("%d %s", i+1, t)
			if i == m.typeIdx {
				s = m.styles.Selected.Render(s)
			}
			parts = append(parts, s)
		}
		return "type: " + strings.Join(parts, "  ") + m.styles.Dim.Render("  (enter)")
	case modeRename:
		return "rename to: " + m.name.View()
	case modeNew:
		return strings.Join(m.newFormLines(), "\n")
	}
	return ""
}

// newFormLines is the new-memory form, one field a line, each cut to the
// list's width (beside the file's text from 90 columns, a longer line
// would wrap into the list's rows): › marks the field that has the
// keyboard, ‹ › the chosen type among all four.
func (m Model) newFormLines() []string {
	w := m.listWidth()
	mark := func(f int) string {
		if m.field == f {
			return m.styles.Bold.Render("› ")
		}
		return "  "
	}
	var types []string
	for i, t := range memoryTypes {
		s := string(t)
		if i == m.typeIdx {
			s = "‹" + string(t) + "›"
			if m.field == fieldType {
				s = m.styles.Selected.Render(s)
			}
		}
		types = append(types, s)
	}
	hint := "  (← → or 1–4)"
	if m.field != fieldType {
		hint = ""
	}
	lines := []string{
		m.styles.Dim.Render(text.Truncate("new memory — tab: next field · enter: create · esc: cancel", w)),
		mark(fieldName) + "name:        " + m.name.View(),
		mark(fieldType) + "type:        " + strings.Join(types, " ") + m.styles.Dim.Render(hint),
		mark(fieldDesc) + "description: " + m.desc.View(),
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return lines
}

// detailContent is the selected file: its name, description, what it
// is, and its whole body.
func (m Model) detailContent() detail.Content {
	r, ok := m.list.Selected()
	if !ok {
		return detail.Content{}
	}
	f := r.File
	w := m.BodyWidth()
	var lines []string
	name := f.Name
	if name == "" {
		name = f.Path + " (no name)"
	}
	lines = append(lines, m.styles.Bold.Render(model.SanitizeForTerminal(name)))
	if f.Description != "" {
		lines = append(lines, model.SanitizeForTerminal(f.Description))
	}
	meta := fmt.Sprintf("%s · %s · %s · %s old (%s)", f.Path, f.Type, text.Count(int(f.Size), "byte", ""), text.Count(r.AgeDays, "day", ""), r.Clock)
	lines = append(lines, m.styles.Dim.Render(meta))
	if f.Invalid && f.Problem != nil {
		lines = append(lines, m.styles.Error.Render("invalid: "+f.Problem.Error()))
	}
	if o, ok := m.origins[r.AbsPath]; ok {
		wrapped := func(s string) {
			for _, l := range strings.Split(text.Wrap(model.SanitizeLine(s), w), "\n") {
				lines = append(lines, m.styles.Dim.Render(l))
			}
		}
		wrapped("origin: " + o.Text)
		if o.Last != "" {
			wrapped("last change: " + o.Last)
		}
		if o.Prompt != "" {
			wrapped(fmt.Sprintf("after %q", o.Prompt))
		}
		if o.Jump != nil {
			lines = append(lines, m.styles.Dim.Render(m.keys.Origin.Help().Key+" opens that turn in Replay"))
		}
	}
	if l := r.Loads; l != nil {
		st := m.styles.Dim
		if l.PastCut {
			st = m.styles.Warn
		}
		for _, ln := range strings.Split(text.Wrap("sessions: "+l.Summary(), w), "\n") {
			lines = append(lines, st.Render(ln))
		}
	}
	if warn := memindex.FreshnessWarning(r.AgeDays); warn != "" {
		lines = append(lines, m.styles.Warn.Render("recall adds: "+warn))
	}
	lines = append(lines, "")
	lines = append(lines, strings.Split(r.Body, "\n")...)
	return detail.Content{ID: r.AbsPath, Lines: lines}
}

// StalenessMsg sets the thresholds the legend states (the settings
// file's; nil: memindex.DefaultStaleness).
type StalenessMsg struct{ Thresholds memindex.StalenessThresholds }

// Legend explains the pane's marks and badges. The age thresholds depend
// on the memory's type; they are the engine's (memindex.DefaultStaleness,
// or the settings file's).
func (m Model) Legend() []text.LegendEntry {
	th := m.staleness
	if th == nil {
		th = memindex.DefaultStaleness()
	}
	var limits []string
	for _, t := range append(append([]model.MemoryType{}, memoryTypes...), model.TypeUntyped) {
		l := th[t]
		limits = append(limits, fmt.Sprintf("%s aging from %dd, stale from %dd", t, l.AgingDays, l.StaleDays))
	}
	out := []text.LegendEntry{
		{Mark: "●", Means: "MEMORY.md links it, and the client loads that line"},
		{Mark: "◐", Means: "MEMORY.md links it, past the cut: the client never sees the line"},
		{Mark: "·", Means: "MEMORY.md does not link it (recall can still find it)"},
		{Mark: "user feed proj ref ----", Means: "the memory's type (---- none or unknown)"},
		{Mark: "Nd fresh / aging / stale", Means: "days since last written (metadata.modified, else mtime), judged by type: " + strings.Join(limits, "; ")},
		{Mark: "N days old", Means: fmt.Sprintf("the client's own note, added to a recalled memory %d or more days old (shown as \"recall adds\")", memindex.FreshnessWarnAfterDays)},
		{Mark: "[link]", Means: "a symbolic link: shown and read, never written through"},
	}
	for _, f := range memrows.FlagMeanings {
		out = append(out, text.LegendEntry{Mark: "[" + f.Flag + "]", Means: f.Means})
	}
	return append(out, text.LegendEntry{Mark: "[secret] [injection] …", Means: "the security scan's finding; a write needs your y/n"}, m.det.Legend())
}
