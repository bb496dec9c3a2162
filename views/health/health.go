// Package health is the Health pane: what lint finds wrong with a
// project's memory, and the prune plan that would fix it. Select actions,
// read their diff, apply them with confirmation; every change is
// undoable.
package health

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// Row is a lint finding or a prune action.
type Row struct {
	Finding *lint.Finding
	Action  *store.PruneAction
}

// ShowErrors is what msgs.Show asks for to select the first error.
const ShowErrors = "errors"

// selectError selects the first error finding, once the report is in.
func (m *Model) selectError() {
	if m.report == nil || !m.showErrors {
		return
	}
	m.showErrors = false
	m.list.SelectWhere(func(r Row) bool { return r.Finding != nil && r.Finding.Severity == lint.SevError })
}

// Model is the Health pane.
type Model struct {
	// showErrors says the first error is selected once lint is in (the
	// Overview's lint line opened the pane).
	showErrors bool
	keys       *keymap.KeyMap
	styles     style.Styles
	list       list.Model[Row]
	det        detail.Model
	report     *lint.Report
	plan       *store.Plan
	selected   map[string]bool
	// store names the memory store shown (SetStore).
	store   string
	confirm bool
	// confirmLeftovers asks before removing the leftovers.
	confirmLeftovers bool
	readOnly         bool
	// unavailable says why there is nothing to check (SetUnavailable).
	unavailable string
	width       int
	height      int
}

// New returns an empty Health pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: &keys, styles: st, selected: map[string]bool{}, det: detail.New(keys, st)}
	m.list = list.New(keys, st, func(r Row) string {
		if r.Finding != nil {
			return string(r.Finding.Kind) + " " + r.Finding.Path + " " + r.Finding.Message
		}
		return string(r.Action.Kind) + " " + r.Action.Summary
	})
	m.list.Empty = "nothing to report"
	return m
}

// Title names the pane.
func (m Model) Title() string { return "Health" }

// SetStore names the memory store the findings and the plan are about
// when the project has more than one (its auto memory, agents'); "" when
// it has only its own.
func (m *Model) setStore(label string) { m.store = label }

// StoreMsg names the store the pane checks (when the project has more
// than one).
type StoreMsg struct{ Label string }

// DataMsg brings the pane a lint report and a prune plan (from its
// feed); selections that still exist in the new plan are kept.
type DataMsg struct {
	Lint *lint.Report
	Plan *store.Plan
}

// PlanMsg brings the prune plan, made after the lint report (when the
// pane is first shown): what the pane was asking (removing the
// leftovers) stays asked.
type PlanMsg struct{ Plan *store.Plan }

// SetData shows a lint report and a prune plan. Selections that still
// exist in the new plan are kept.
func (m *Model) setData(r *lint.Report, p *store.Plan) {
	m.report, m.plan, m.confirm, m.confirmLeftovers, m.unavailable = r, p, false, false, ""
	var rows []Row
	keep := map[string]bool{}
	if p != nil {
		for i := range p.Actions {
			a := &p.Actions[i]
			rows = append(rows, Row{Action: a})
			if m.selected[a.ID] {
				keep[a.ID] = true
			}
		}
	}
	m.selected = keep
	if r != nil {
		for i := range r.Findings {
			rows = append(rows, Row{Finding: &r.Findings[i]})
		}
	}
	m.list.SetItems(rows)
}

// SetUnavailable says why there is no memory to check (no project
// yet): the pane shows why instead of waiting.
// UnavailableMsg says why the pane has nothing to show (no project in
// the home yet): it shows why instead of waiting.
type UnavailableMsg struct{ Why string }

func (m *Model) setUnavailable(why string) {
	m.setData(nil, nil)
	m.unavailable = why
}

// SetReadOnly disables applying.
func (m *Model) SetReadOnly(ro bool) { m.readOnly = ro }

// Selected returns the ids of the selected actions, in plan order.
func (m Model) Selected() []string {
	var ids []string
	if m.plan == nil {
		return nil
	}
	for _, a := range m.plan.Actions {
		if m.selected[a.ID] {
			ids = append(ids, a.ID)
		}
	}
	return ids
}

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.list.SetStyles(st)
	m.det.SetStyles(st)
}

func (m Model) listHeight() int { return max(m.height/2-1, 3) }

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.list.SetSize(w, m.listHeight())
}

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away and drops a pending confirmation.
func (m *Model) Blur() { m.confirm, m.confirmLeftovers = false, false }

// Filtering reports whether the pane takes text or a y/n answer.
func (m Model) Filtering() bool { return m.list.Filtering() || m.confirm || m.confirmLeftovers }

// leftovers are the report's leftover findings: what interrupted
// memscope writes left.
func (m Model) leftovers() []lint.Finding {
	if m.report == nil {
		return nil
	}
	var out []lint.Finding
	for _, f := range m.report.Findings {
		if f.Kind == lint.Leftover {
			out = append(out, f)
		}
	}
	return out
}

// ClickRow moves the cursor to the clicked row.
func (m *Model) ClickRow(y int) tea.Cmd {
	if m.det.Zoomed() {
		return nil
	}
	m.list.ClickRow(y - m.topLines())
	return nil
}

// Help lists the pane's own bindings.
func (m Model) Help() []key.Binding {
	if m.confirm || m.confirmLeftovers {
		return []key.Binding{m.keys.Confirm, m.keys.Cancel}
	}
	// space moves to the next row after it selects: the footer says so.
	toggle := key.NewBinding(key.WithKeys(m.keys.Toggle.Keys()...), key.WithHelp(m.keys.Toggle.Help().Key, "select action, move down"))
	bs := []key.Binding{toggle, m.keys.Apply, m.keys.Edit}
	if len(m.leftovers()) > 0 {
		bs = append(bs, m.keys.RemoveLeftovers)
	}
	return append(bs, m.det.Help()...)
}

// Update handles selection, applying and the list.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch d := msg.(type) {
	case DataMsg:
		m.setData(d.Lint, d.Plan)
		if m.showErrors {
			m.selectError()
		}
		return m, nil
	case PlanMsg:
		asked := m.confirmLeftovers
		m.setData(m.report, d.Plan)
		m.confirmLeftovers = asked
		if m.showErrors {
			m.selectError()
		}
		return m, nil
	case msgs.Show:
		// The Overview's lint line: the first error, once lint is in.
		m.showErrors = d.What == ShowErrors
		m.selectError()
		return m, nil
	case StoreMsg:
		m.setStore(d.Label)
		return m, nil
	case UnavailableMsg:
		m.setUnavailable(d.Why)
		return m, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && m.confirmLeftovers {
		m.confirmLeftovers = false
		if key.Matches(k, m.keys.Confirm) {
			return m, func() tea.Msg { return msgs.RemoveLeftovers{} }
		}
		return m, func() tea.Msg { return msgs.Status{Text: "leftovers kept: nothing was removed"} }
	}
	if (!m.confirm || m.det.Scrolls(msg)) && !m.list.Filtering() && m.report != nil {
		if d, ok := m.det.Update(msg, m.detailContent(), m.det.Area(m.top(), m.width, m.height)); ok {
			m.det = d
			return m, nil
		}
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && m.confirm {
		m.confirm = false
		if key.Matches(k, m.keys.Confirm) {
			ids := m.applyIDs()
			return m, func() tea.Msg { return msgs.ApplyPlan{Actions: ids} }
		}
		return m, func() tea.Msg { return msgs.Status{Text: "prune cancelled: nothing was written"} }
	}
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
	r, has := m.list.Selected()
	switch {
	case key.Matches(k, m.keys.Toggle) && has && r.Action != nil:
		m.selected[r.Action.ID] = !m.selected[r.Action.ID]
		if !m.selected[r.Action.ID] {
			delete(m.selected, r.Action.ID)
		}
		m.list, _, _ = m.list.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	case key.Matches(k, m.keys.Apply):
		if m.readOnly {
			return m, func() tea.Msg { return msgs.Status{Text: "the home is read-only: nothing can be applied", Error: true} }
		}
		if len(m.applyIDs()) == 0 {
			return m, func() tea.Msg { return msgs.Status{Text: "select prune actions with space first", Error: true} }
		}
		m.confirm = true
		m.det.Unzoom() // the question is over the list
	case key.Matches(k, m.keys.RemoveLeftovers):
		switch {
		case len(m.leftovers()) == 0:
			return m, func() tea.Msg { return msgs.Status{Text: "no leftovers of interrupted memscope writes here"} }
		case m.readOnly:
			return m, func() tea.Msg { return msgs.Status{Text: "the home is read-only: nothing can be removed", Error: true} }
		}
		m.confirmLeftovers = true
	case key.Matches(k, m.keys.Edit) && has && r.Finding != nil && r.Finding.Path != "":
		p := r.Finding.Path
		return m, func() tea.Msg { return msgs.OpenEditor{Path: p} }
	}
	return m, nil
}

// applyIDs are the selected actions, or the one under the cursor.
func (m Model) applyIDs() []string {
	if ids := m.Selected(); len(ids) > 0 {
		return ids
	}
	if r, ok := m.list.Selected(); ok && r.Action != nil {
		return []string{r.Action.ID}
	}
	return nil
}

func (m Model) severity(s lint.Severity) string {
	switch s {
	case lint.SevError:
		return m.styles.Error.Render("error")
	case lint.SevWarning:
		return m.styles.Warn.Render("warn ")
	}
	return m.styles.Dim.Render("note ")
}

func (m Model) renderRow(r Row, selected bool, width int) string {
	if a := r.Action; a != nil {
		box := "[ ]"
		if m.selected[a.ID] {
			box = m.styles.OK.Render("[x]")
		}
		head := fmt.Sprintf("%s %-20s ", box, a.Kind)
		return head + text.Truncate(model.SanitizeForTerminal(a.Summary), max(width-lipgloss.Width(head), 8))
	}
	f := r.Finding
	where := f.Path
	if where == "" {
		where = "(folder)"
	}
	if f.Line > 0 {
		where += fmt.Sprintf(":%d", f.Line)
	}
	head := fmt.Sprintf("%s %-20s %s  ", m.severity(f.Severity), f.Kind, text.Truncate(where, 30))
	return head + text.Truncate(text.OneLine(model.SanitizeForTerminal(f.Message)), max(width-lipgloss.Width(head), 8))
}

// View draws the counts, the list and the selected row's detail.
func (m Model) View() string {
	if m.report == nil {
		if m.unavailable != "" {
			return m.styles.Dim.Render(text.Wrap(m.unavailable, max(m.width, 20)))
		}
		return m.styles.Dim.Render("checking memory…")
	}
	return m.det.Under(m.top(), m.detailContent(), m.width, m.height)
}

// top is the counts (or the question) over the list.
func (m Model) top() string { return m.head() + "\n" + m.list.View(m.renderRow) }

// head is the counts, wrapped at the pane's width, or the question.
func (m Model) head() string {
	r := m.report
	actions := 0
	if m.plan != nil {
		actions = len(m.plan.Actions)
	}
	// The keys (space, a, u) are in the footer: the counts alone fit 80
	// columns.
	counts := fmt.Sprintf("%s · %s · %s · %s (%d selected)",
		text.Count(r.Errors, "error", ""), text.Count(r.Warnings, "warning", ""), text.Count(r.Infos, "note", ""), text.Count(actions, "prune action", ""), len(m.Selected()))
	if n := len(m.leftovers()); n > 0 {
		counts = fmt.Sprintf("%s of interrupted memscope writes — C removes them · ", text.Count(n, "leftover", "")) + counts
	}
	// The counts wrap rather than being cut: at 80 columns the store's
	// name and the counts do not fit one line.
	head := text.Wrap(counts, m.width)
	if m.store != "" {
		store := model.SanitizeForTerminal(m.store)
		if lipgloss.Width(store)+3+lipgloss.Width(counts) <= m.width {
			head = m.styles.Bold.Render(store) + " · " + counts
		} else {
			head = m.styles.Bold.Render(text.Truncate(store, m.width)) + "\n" + head
		}
	}
	if m.confirm {
		// The question takes the counts' lines (no fewer: the list and
		// the diff under it stay where they were while it is asked).
		q := m.styles.Warn.Render(text.Wrap(fmt.Sprintf("Apply %s? Deletions go to the trash; u undoes it all. y/n", text.Count(len(m.applyIDs()), "prune action", "")), m.width))
		head = q + strings.Repeat("\n", max(strings.Count(head, "\n")-strings.Count(q, "\n"), 0))
	}
	return head
}

// topLines is how many lines the counts take over the list.
func (m Model) topLines() int { return strings.Count(m.head(), "\n") + 1 }

// leftoverLines ask before removing the leftovers, listing each with
// what it copies: they are memscope's own copies, never the only copy of
// the user's data, but the user decides.
func (m Model) leftoverLines() []string {
	fs := m.leftovers()
	lines := []string{m.styles.Warn.Render(fmt.Sprintf("Remove %s of interrupted memscope writes? y/n", text.Count(len(fs), "leftover", "")))}
	// Two lines each: the path, and what it copies (the start of the
	// finding's message; the list above shows it whole).
	for _, f := range fs {
		lines = append(lines, "  "+model.SanitizeLine(f.Path),
			m.styles.Dim.Render("    "+text.OneLine(model.SanitizeForTerminal(f.Message))))
	}
	return lines
}

// detailContent is the selected row in full: an action's whole diff, a
// finding's message and the files it relates; while C asks, the
// leftovers it would remove.
func (m Model) detailContent() detail.Content {
	if m.confirmLeftovers {
		return detail.Content{ID: "leftovers", Lines: m.leftoverLines()}
	}
	r, ok := m.list.Selected()
	if !ok {
		return detail.Content{}
	}
	var lines []string
	var id string
	if a := r.Action; a != nil {
		id = "action " + a.ID
		lines = append(lines, m.styles.Bold.Render(model.SanitizeLine(a.ID+": "+a.Summary)))
		if a.Diff == "" {
			lines = append(lines, m.styles.Dim.Render("no diff shown for actions past the first "+strconv.Itoa(store.PruneDiffActions)+": memscope prune --dry-run --only "+model.SanitizeLine(a.ID)))
		}
		for _, l := range strings.Split(model.SanitizeForTerminal(a.Diff), "\n") {
			lines = append(lines, m.diffLine(text.ExpandTabs(l)))
		}
	} else {
		f := r.Finding
		id = fmt.Sprintf("finding %s %s %d %s", f.Kind, f.Path, f.Line, f.Message)
		lines = append(lines, m.styles.Bold.Render(fmt.Sprintf("%s %s", f.Kind, f.Path)))
		for _, l := range strings.Split(text.Wrap(model.SanitizeForTerminal(f.Message), m.width), "\n") {
			lines = append(lines, l)
		}
		rel := append([]string(nil), f.Related...)
		sort.Strings(rel)
		for _, x := range rel {
			lines = append(lines, m.styles.Dim.Render("  · "+model.SanitizeForTerminal(x)))
		}
	}
	return detail.Content{ID: id, Lines: lines}
}

func (m Model) diffLine(l string) string { return m.styles.DiffLine(l) }

// Legend explains the pane's marks.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "[ ] / [x]", Means: "a prune action, unselected / selected (space); a applies the selected after a y/n"},
		{Mark: "error", Means: "the client loses or misreads memory, or memory holds a secret or an injection"},
		{Mark: "warn", Means: "memory works but is getting worse"},
		{Mark: "note", Means: "worth a look"},
		m.det.Legend(),
	}
}
