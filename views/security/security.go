// Package security is the Security pane: the secrets at rest in the whole
// home (memscope secrets), one row per secret grouped by store, the
// selected one's places; a scrub of the selected secrets (or all) shown
// as a plan with masked diffs before a y/n; and the scrub copies still
// on disk, which u restores and d forgets. No secret is ever shown in
// full. The pane does no I/O: it emits the requests of this package and
// the root hands back what they read or did.
package security

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	engov "github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/engine/secrets"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// PlanRequest asks the root to plan the scrub of Selection (all findings
// of Report when empty) with secrets.PlanScrub and hand it back as a PlanMsg.
type PlanRequest struct {
	Report    *secrets.Report
	Selection secrets.Selection
}

// ApplyRequest asks the root to carry out a confirmed plan
// (secrets.Apply), then scan again.
type ApplyRequest struct{ Plan secrets.Plan }

// RestoreRequest asks the root to put back what scrub ID replaced
// (secrets.Restore), then scan again.
type RestoreRequest struct{ ID string }

// ForgetRequest asks the root to delete scrub ID's copy (secrets.Forget).
type ForgetRequest struct{ ID string }

// Done is the outcome of an ApplyRequest, RestoreRequest or
// ForgetRequest, for the status line; the root scans again after it.
type Done struct {
	Text string
	Err  error
}

// Row is one line of the list: a secret (its first sighting, with how
// many other places hold it) or a scrub copy.
type Row struct {
	Finding *secrets.Finding
	Repeats []*secrets.Finding
	Copy    *secrets.Copy
}

// ask is the question awaiting y/n.
type ask int

const (
	askNone ask = iota
	askScrub
	askRestore
	askForget
)

// Model is the Security pane.
type Model struct {
	keys   *keymap.KeyMap
	styles style.Styles
	list   list.Model[Row]
	// det is the detail under the list (the selected row's places, or the
	// scrub plan asked about): J/K scroll it and z zooms it, during the
	// y/n question too, so a long plan is read whole before the answer.
	det    detail.Model
	report *secrets.Report
	// picked are the secrets (first-sighting ids) chosen for a scrub.
	picked map[string]bool
	plan   *secrets.Plan
	ask    ask
	target string
	// outdated says the home changed since the scan shown.
	outdated      bool
	readOnly      bool
	width, height int
	// show is the row the Overview opened the pane at
	// (overview.ShowSecret, overview.ShowCopy), selected once a scan is
	// in.
	show string
}

// selectShown selects the row m.show names, once a scan is in.
func (m *Model) selectShown() {
	if m.report == nil || m.show == "" {
		return
	}
	switch m.show {
	case engov.ShowSecret:
		m.list.SelectWhere(func(r Row) bool { return r.Finding != nil })
	case engov.ShowCopy:
		m.list.SelectWhere(func(r Row) bool { return r.Copy != nil })
	}
	m.show = ""
}

// New returns an empty Security pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: &keys, styles: st, picked: map[string]bool{}, det: detail.New(keys, st)}
	m.list = list.New(keys, st, rowText)
	m.list.Empty = "scanning the home for secrets…"
	return m
}

func rowText(r Row) string {
	if r.Copy != nil {
		return "scrub copy " + r.Copy.ID + " " + strings.Join(r.Copy.Files, " ")
	}
	f := r.Finding
	return string(f.Store) + " " + string(f.Rule) + " " + f.File + " " + f.Part + " " + string(f.Session)
}

// Title names the pane.
func (m Model) Title() string { return "Security" }

// ReportMsg brings the pane a scan (from its feed): one row per secret,
// stores in report order, then the scrub copies. Picks of secrets still
// there are kept.
type ReportMsg struct{ Report secrets.Report }

// setReport shows a scan.
func (m *Model) setReport(r secrets.Report) {
	m.report, m.outdated = &r, false
	byID := map[string]int{}
	var rows []Row
	for _, st := range secrets.Stores() {
		for i := range r.Findings {
			f := &r.Findings[i]
			if f.Store != st || f.SameAs != "" {
				continue
			}
			byID[f.ID] = len(rows)
			rows = append(rows, Row{Finding: f})
		}
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		if k, ok := byID[f.SameAs]; ok && f.SameAs != "" {
			rows[k].Repeats = append(rows[k].Repeats, f)
		}
	}
	for id := range m.picked {
		if _, ok := byID[id]; !ok {
			delete(m.picked, id)
		}
	}
	for i := range r.Copies {
		rows = append(rows, Row{Copy: &r.Copies[i]})
	}
	m.list.Empty = "no secrets at rest in " + r.Home
	at := m.list.Index()
	m.list.SetItems(rows)
	m.list.Select(at)
}

// Selected is the row under the cursor.
func (m Model) Selected() (Row, bool) { return m.list.Selected() }

// Rows are the rows of the scan shown, in the list's order.
func (m Model) Rows() []Row { return m.list.Items() }

// OutdatedMsg says the home changed since the scan shown (a new scan,
// ReportMsg, clears it).
type OutdatedMsg struct{}

// PlanMsg hands over the scrub plan a PlanRequest asked for: the pane
// asks y/n (or says why not).
type PlanMsg struct{ Plan secrets.Plan }

// setPlan takes a scrub plan and asks y/n (or says why not).
func (m *Model) setPlan(p secrets.Plan) tea.Cmd {
	if p.Writes() == 0 {
		m.plan = &p
		m.ask = askNone
		why := "nothing to scrub"
		for _, f := range p.Files {
			if f.Refused != "" {
				why = "nothing to scrub now: " + f.File + ": " + f.Refused
				break
			}
		}
		if why == "nothing to scrub" && len(p.Skipped) > 0 {
			why = "nothing to scrub: " + p.Skipped[0].File + ": " + p.Skipped[0].Why
		}
		return status(why, len(p.Files) > 0)
	}
	m.plan, m.ask = &p, askScrub
	return nil
}

// SetReadOnly disables scrubs, restores and forgets.
func (m *Model) SetReadOnly(ro bool) { m.readOnly = ro }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.list.SetStyles(st)
	m.det.SetStyles(st)
}

func (m Model) listHeight() int { return max(m.height/2-2, 3) }

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.list.SetSize(w, m.listHeight())
}

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away and drops a pending question.
func (m *Model) Blur() { m.ask, m.plan = askNone, nil; m.det.Unzoom() }

// Filtering reports whether the pane takes text or a y/n answer.
func (m Model) Filtering() bool { return m.list.Filtering() || m.ask != askNone }

// ClickRow moves the cursor to the clicked row (under the summary and
// the hint, which wrap: headRows).
func (m *Model) ClickRow(y int) tea.Cmd {
	m.list.ClickRow(y - m.headRows())
	return nil
}

// Help lists the pane's own bindings.
func (m Model) Help() []key.Binding {
	if m.ask != askNone {
		return append([]key.Binding{m.keys.Confirm, m.keys.Cancel}, m.det.Help()...)
	}
	return append([]key.Binding{
		rebind(m.keys.Open, "open in Replay"),
		rebind(m.keys.Toggle, "pick for the scrub, move down"),
		rebind(m.keys.Apply, "scrub picked (or all)"),
		rebind(m.keys.Delete, "forget scrub copy"),
	}, m.det.Help()...)
}

func rebind(b key.Binding, help string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, help))
}

// AskRestore asks y/n to restore the selected scrub copy, else the
// newest (the root calls it for the undo key while the pane is focused).
func (m Model) AskRestore() (Model, tea.Cmd) {
	c := m.copyToUse()
	switch {
	case c == nil:
		return m, status("no scrub to restore: memscope keeps none in this home", false)
	case m.readOnly:
		return m, status("read-only home: nothing can be restored", true)
	}
	m.ask, m.target = askRestore, c.ID
	return m, nil
}

// copyToUse is the selected copy row, else the newest copy.
func (m Model) copyToUse() *secrets.Copy {
	if r, ok := m.list.Selected(); ok && r.Copy != nil {
		return r.Copy
	}
	if m.report == nil || len(m.report.Copies) == 0 {
		return nil
	}
	return &m.report.Copies[len(m.report.Copies)-1]
}

// Update handles picks, the scrub, the copies and the y/n.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case ReportMsg:
		m.setReport(msg.Report)
		m.selectShown()
		return m, nil
	case msgs.Show:
		m.show = msg.What
		m.selectShown()
		return m, nil
	case OutdatedMsg:
		m.outdated = true
		return m, nil
	case PlanMsg:
		cmd := m.setPlan(msg.Plan)
		return m, cmd
	}
	// While a question waits, J/K, z and the wheel still reach the
	// detail, and in the zoom every key but the answer's yes does (esc
	// goes back to the question, which a second esc cancels).
	zoomedAsk := m.ask != askNone && m.det.Zoomed() && !isConfirm(msg, m.keys)
	if (m.ask == askNone || m.det.Scrolls(msg) || zoomedAsk) && !m.list.Filtering() && m.report != nil {
		if d, ok := m.det.Update(msg, m.detailContent(), m.det.Area(m.top(), m.width, m.height)); ok {
			m.det = d
			return m, nil
		}
	}
	k, isKey := msg.(tea.KeyPressMsg)
	if isKey && zoomedAsk {
		return m, nil
	}
	if isKey && m.ask != askNone {
		return m.answer(k)
	}
	var cmd tea.Cmd
	var handled bool
	m.list, cmd, handled = m.list.Update(msg)
	if handled || !isKey {
		return m, cmd
	}
	r, ok := m.list.Selected()
	switch {
	case key.Matches(k, m.keys.Toggle) && ok && r.Finding != nil:
		id := r.Finding.ID
		m.picked[id] = !m.picked[id]
		if !m.picked[id] {
			delete(m.picked, id)
		}
		m.list.Select(m.list.Index() + 1)
	case key.Matches(k, m.keys.Open) && ok && r.Finding != nil:
		f := r.Finding
		if !f.Store.IsTranscript() {
			return m, status("enter opens a transcript's session in Replay; this secret is in "+string(f.Store), false)
		}
		return m, func() tea.Msg { return msgs.ReplayAt{Path: f.File} }
	case key.Matches(k, m.keys.Apply):
		return m.planScrub()
	case key.Matches(k, m.keys.Delete) && ok && r.Copy != nil:
		if m.readOnly {
			return m, status("read-only home: nothing can be deleted", true)
		}
		m.ask, m.target = askForget, r.Copy.ID
	}
	return m, nil
}

// planScrub asks for the plan of the picked secrets (all their places),
// or of every secret when none is picked.
func (m Model) planScrub() (Model, tea.Cmd) {
	switch {
	case m.report == nil:
		return m, status("still scanning", false)
	case len(m.report.Findings) == 0:
		return m, status("no secrets to scrub", false)
	case m.readOnly:
		return m, status("read-only home: nothing can be scrubbed", true)
	}
	var sel secrets.Selection
	for _, f := range m.report.Findings {
		if m.picked[f.ID] || m.picked[f.SameAs] {
			sel = append(sel, f.ID)
		}
	}
	rep := m.report
	return m, func() tea.Msg { return PlanRequest{Report: rep, Selection: sel} }
}

// answer takes the y/n of the question asked.
func (m Model) answer(k tea.KeyPressMsg) (Model, tea.Cmd) {
	a, p, id := m.ask, m.plan, m.target
	switch {
	case key.Matches(k, m.keys.Confirm):
	case key.Matches(k, m.keys.Cancel):
		m.ask, m.plan = askNone, nil
		return m, status("cancelled: nothing was written", false)
	default:
		return m, nil
	}
	m.ask, m.plan = askNone, nil
	switch a {
	case askScrub:
		m.picked = map[string]bool{}
		return m, func() tea.Msg { return ApplyRequest{Plan: *p} }
	case askRestore:
		return m, func() tea.Msg { return RestoreRequest{ID: id} }
	case askForget:
		return m, func() tea.Msg { return ForgetRequest{ID: id} }
	}
	return m, nil
}

// isConfirm says msg is the key that answers yes.
func isConfirm(msg tea.Msg, keys *keymap.KeyMap) bool {
	k, ok := msg.(tea.KeyPressMsg)
	return ok && key.Matches(k, keys.Confirm)
}

func status(t string, isErr bool) tea.Cmd {
	return func() tea.Msg { return msgs.Status{Text: t, Error: isErr} }
}

func (m Model) renderRow(r Row, _ bool, width int) string {
	if c := r.Copy; c != nil {
		head := m.styles.Warn.Render("scrub copy") + fmt.Sprintf("  %s  ", c.ID)
		return head + text.Truncate(fmt.Sprintf("%s of %s still on disk (u restores, d forgets)",
			text.Count(c.Secrets, "secret", ""), text.Count(len(c.Files), "file", "")), max(width-lipgloss.Width(head), 8))
	}
	f := r.Finding
	mark := "  "
	if m.picked[f.ID] {
		mark = m.styles.OK.Render("● ")
	}
	more := ""
	if n := len(r.Repeats); n > 0 {
		more = fmt.Sprintf(" +%d", n)
	}
	where := f.Part
	if f.Session != "" {
		where += " · " + format.ShortID(string(f.Session))
		if f.Turn > 0 {
			where += fmt.Sprintf(" turn %d", f.Turn)
		}
	}
	head := fmt.Sprintf("%s%-12s %-26s %-22s ", mark, storeLabel(f.Store), text.Truncate(string(f.Rule), 26), text.Truncate(model.SanitizeLine(f.Excerpt), 22))
	return head + text.Truncate(strings.TrimPrefix(where, " · ")+more, max(width-lipgloss.Width(head), 8))
}

// View draws the summary, the list and the detail (or the question).
func (m Model) View() string {
	if m.report == nil {
		return m.styles.Dim.Render("scanning the home for secrets…")
	}
	return m.det.Under(m.top(), m.detailContent(), m.width, m.height)
}

// top is the summary and the hint (or the question) over the list.
func (m Model) top() string { return m.head() + "\n" + m.list.View(m.renderRow) }

// head is the summary and the hint (or the question asked), each
// wrapped at the pane's width rather than cut: a y/n question is read
// whole before it is answered.
func (m Model) head() string {
	sum, _ := text.Head(m.summary(), m.width, lipgloss.NewStyle())
	hint, _ := text.Head(m.hint(), m.width, m.styles.Dim)
	return sum + "\n" + hint
}

// headRows is how many lines head takes above the list.
func (m Model) headRows() int {
	if m.report == nil {
		return 2
	}
	return strings.Count(m.head(), "\n") + 1
}

func (m Model) summary() string {
	r := m.report
	if len(r.Findings) == 0 {
		return m.styles.OK.Render("no secrets at rest") + fmt.Sprintf(" in %s read", text.Bytes(r.Bytes))
	}
	var parts []string
	for _, sc := range r.Stores {
		if sc.Findings > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", storeLabel(sc.Store), sc.Findings))
		}
	}
	return m.styles.Error.Render(text.Count(r.Distinct(), "secret", "")) +
		fmt.Sprintf(" in %s (%s) · %s", text.Count(len(r.Findings), "place", ""), strings.Join(parts, " · "), text.Bytes(r.Bytes))
}

func (m Model) hint() string {
	switch m.ask {
	case askScrub:
		return fmt.Sprintf("scrub %s in %s? y/n — each becomes [REDACTED:rule]; the replaced bytes are kept in a private copy until you forget it",
			text.Count(m.plan.Secrets(), "secret", ""), text.Count(m.plan.Writes(), "file", ""))
	case askRestore:
		return "restore scrub " + m.target + "? y/n — puts the secrets back into the files, byte for byte"
	case askForget:
		return "forget scrub " + m.target + "? y/n — deletes the copy: the secrets in it are gone, and the scrub cannot be restored"
	}
	if m.outdated {
		return "the home changed since this scan: ctrl+r scans again (a scrub plans from the files as they are now)"
	}
	if len(m.picked) > 0 {
		return fmt.Sprintf("a: scrub the %s picked · space: pick · secrets are masked", text.Count(len(m.picked), "secret", ""))
	}
	return "space: pick · a: scrub (the picked, or all) · secrets are masked; memscope secrets --show prints them"
}

// detailContent is what the detail shows: the scrub plan while it is
// asked about, else the selected row's places (or a copy's files).
func (m Model) detailContent() detail.Content {
	if m.ask == askScrub && m.plan != nil {
		return detail.Content{ID: "plan", Lines: m.planLines()}
	}
	r, ok := m.list.Selected()
	if !ok {
		if m.report != nil && len(m.report.Copies) == 0 && len(m.report.Findings) == 0 {
			return detail.Content{ID: "clean", Lines: []string{m.styles.Dim.Render("every store was read: transcripts, history, pastes, file history, tool results, memory, CLAUDE.md, settings")}}
		}
		return detail.Content{}
	}
	var lines []string
	if c := r.Copy; c != nil {
		lines = append(lines, m.styles.Bold.Render("scrub "+c.ID+" · "+format.Timestamp(c.Time)))
		lines = append(lines, m.styles.Warn.Render("until it is forgotten, the secrets it removed still exist on disk, in "+model.SanitizeLine(c.Dir)))
		for _, f := range c.Files {
			lines = append(lines, "  "+model.SanitizeLine(f))
		}
		return detail.Content{ID: "copy " + c.ID, Lines: lines}
	}
	f := r.Finding
	lines = append(lines, m.styles.Bold.Render(fmt.Sprintf("%s — %s", f.Rule, f.Message)))
	lines = append(lines, "secret   "+model.SanitizeLine(f.Excerpt)+"  (masked)")
	// Each place is a line of its own; the detail wraps it (inside a
	// path too): the row cuts it.
	for _, p := range append([]*secrets.Finding{f}, r.Repeats...) {
		lines = append(lines, placeLine(p))
	}
	return detail.Content{ID: "finding " + f.ID, Lines: lines}
}

// storeLabel names a store in at most 12 cells.
func storeLabel(st secrets.Store) string {
	switch st {
	case secrets.StoreSubagent:
		return "subagent"
	case secrets.StoreToolResult:
		return "tool result"
	case secrets.StoreFileHistory:
		return "file history"
	case secrets.StoreMemoryTrash:
		return "memory trash"
	case secrets.StoreClaudeMd:
		return "CLAUDE.md"
	case secrets.StoreUndoCopy:
		return "undo copy"
	}
	return string(st)
}

// placeLine says where one finding is.
func placeLine(f *secrets.Finding) string {
	s := model.SanitizeLine(f.Where())
	if ctx := f.Context(); len(ctx) > 0 {
		s += "  (" + strings.Join(ctx, ", ") + ")"
	}
	return s
}

// planLines shows the plan: each file with its masked diff, what is left
// alone and why.
func (m Model) planLines() []string {
	p := m.plan
	var lines []string
	for _, f := range p.Files {
		if f.Refused != "" {
			lines = append(lines, m.styles.Warn.Render("left alone "+model.SanitizeLine(f.File)+": "+f.Refused))
			continue
		}
		lines = append(lines, m.styles.Bold.Render(model.SanitizeLine(f.File)))
		for _, l := range strings.Split(strings.TrimSuffix(f.Diff, "\n"), "\n") {
			if strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++") {
				continue
			}
			lines = append(lines, m.styles.DiffLine(model.SanitizeLine(l)))
		}
	}
	for _, s := range p.Skipped {
		lines = append(lines, m.styles.Dim.Render("not scrubbed "+model.SanitizeLine(s.File)+": "+s.Why))
	}
	return lines
}

// Legend explains the pane's rows.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "●", Means: "picked for the scrub (space); a with nothing picked scrubs every secret"},
		{Mark: "+N", Means: "the same secret in N more places (a request body repeats a tool result), all scrubbed together"},
		{Mark: "‹AKIA… (20 chars)›", Means: "a secret, masked: its first characters and its length"},
		{Mark: "scrub copy", Means: "what a scrub replaced, kept (mode 0600) so u restores it; the secrets exist there until d forgets it"},
		{Mark: "left alone", Means: fmt.Sprintf("a file Claude Code may be writing (changed in the last %d minutes, open in a process, or of a running session)", secrets.DefaultIdle/time.Minute)},
		m.det.Legend(),
	}
}
