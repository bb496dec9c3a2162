// Package retention is the Retention pane: what Claude Code's cleanup
// (cleanupPeriodDays) will delete and when, as a time line, what it never
// deletes, and an archive action that copies what is about to go into a
// folder or .tar.gz that memscope can open with --home.
package retention

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// ArchiveRequest asks the root to copy Items into To (a folder or a new
// .tar.gz) with cleanup.Archive; the root runs it and answers ArchiveDone.
type ArchiveRequest struct {
	To string
	// Items are what the sweep deletes up to and including the selected
	// step of the time line.
	Items []cleanup.Item
	// Upto names that step ("now", "in 3 days").
	Upto string
}

// ArchiveDone carries the outcome of an ArchiveRequest back to the pane.
type ArchiveDone struct {
	Report cleanup.ArchiveReport
	Err    error
}

// Row is one line of the pane: a step of the time line or a store that is
// never swept.
type Row struct {
	Group *cleanup.Group
	Never *cleanup.NeverSwept
	// Lost is what earlier sweeps deleted that history still names.
	Lost *cleanup.Lost
}

// mode is what the pane's keyboard does.
type mode int

const (
	modeBrowse mode = iota
	// modeDest: the destination field of the archive action has the keys.
	modeDest
)

const destPlaceholder = "folder or FILE.tar.gz (outside the Claude home)"

// Model is the Retention pane.
type Model struct {
	keys     *keymap.KeyMap
	styles   style.Styles
	list     list.Model[Row]
	forecast *cleanup.Forecast
	// earlier counts the sessions whose earlier history is only in a
	// .replaced copy (ForecastMsg.Earlier).
	earlier  model.EarlierCopies
	groups   []cleanup.Group
	maxBytes int64
	mode     mode
	dest     textinput.Model
	archive  key.Binding
	last     string
	lastErr  bool
	// lastDest is the destination of the previous archive, offered again.
	lastDest string
	width    int
	height   int
	det      detail.Model
	// show is the row the Overview opened the pane at (ShowSoon,
	// ShowLost), selected once the forecast is in.
	show string
}

// The rows msgs.Show selects: the first step the sweep deletes within
// the horizon, and the sessions already lost.
const (
	ShowSoon = "soon"
	ShowLost = "lost"
)

// selectShown selects the row m.show names, once the forecast is in.
func (m *Model) selectShown() {
	if m.forecast == nil || m.show == "" {
		return
	}
	switch m.show {
	case ShowSoon:
		m.list.SelectWhere(func(r Row) bool {
			return r.Group != nil && (r.Group.Bucket == cleanup.BucketNow || r.Group.Bucket == cleanup.BucketSoon)
		})
	case ShowLost:
		m.list.SelectWhere(func(r Row) bool { return r.Lost != nil })
	}
	m.show = ""
}

// New returns an empty Retention pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: &keys, styles: st, dest: style.Input("archive to: ", destPlaceholder), det: detail.New(keys, st)}
	// The archive action reuses the Apply keys, with its own help text.
	m.archive = key.NewBinding(key.WithKeys(keys.Apply.Keys()...), key.WithHelp(keys.Apply.Help().Key, "archive up to here"))
	m.list = list.New(keys, st, rowText)
	m.list.Empty = "no forecast yet"
	return m
}

func rowText(r Row) string {
	if r.Lost != nil {
		return "already lost sessions pastes"
	}
	if r.Never != nil {
		return "never swept " + string(r.Never.Kind) + " " + r.Never.Path
	}
	var kinds []string
	for _, k := range r.Group.Kinds {
		kinds = append(kinds, string(k.Kind))
	}
	return string(r.Group.Bucket) + " " + strings.Join(kinds, " ")
}

// Title names the pane.
func (m Model) Title() string { return "Retention" }

// ForecastMsg brings the pane a forecast (from its feed): the pane shows
// its time line, then the never-swept stores.
type ForecastMsg struct {
	Forecast cleanup.Forecast
	// Earlier counts the sessions whose history before a compaction
	// exists only in a .replaced copy (the sweep deletes it with the
	// session's folder).
	Earlier model.EarlierCopies
}

// setForecast shows a forecast.
func (m *Model) setForecast(f cleanup.Forecast) {
	m.forecast = &f
	m.groups = f.Timeline()
	m.maxBytes = 0
	var rows []Row
	for i := range m.groups {
		m.maxBytes = max(m.maxBytes, m.groups[i].Total.Bytes)
		rows = append(rows, Row{Group: &m.groups[i]})
	}
	for i := range m.forecast.NeverSwept {
		rows = append(rows, Row{Never: &m.forecast.NeverSwept[i]})
	}
	if m.forecast.Lost.Summary(f.Now.Location()) != "" {
		rows = append(rows, Row{Lost: &m.forecast.Lost})
	}
	m.list.Empty = "nothing of a swept kind in this home"
	m.list.SetItems(rows)
}

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
	m.fitDest()
}

// fitDest gives the destination field what the prompt leaves of the width.
func (m *Model) fitDest() {
	m.dest.SetWidth(max(m.width-lipgloss.Width(m.dest.Prompt)-1, 10))
}

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away and drops an unfinished archive.
func (m *Model) Blur() {
	m.mode = modeBrowse
	m.dest.Blur()
}

// Filtering reports whether the pane takes text (the filter or the
// archive destination), so the root leaves letter keys alone.
func (m Model) Filtering() bool { return m.list.Filtering() || m.mode == modeDest }

// ClickRow moves the cursor to the clicked row (y counts from the pane's
// first line; the summary, wrapped, and the archive line come first).
func (m *Model) ClickRow(y int) tea.Cmd {
	if m.det.Zoomed() {
		return nil
	}
	_, n := text.Head(m.summary(), m.width, lipgloss.NewStyle())
	m.list.ClickRow(y - n - 1)
	return nil
}

// Help lists the pane's own bindings.
func (m Model) Help() []key.Binding {
	if m.mode == modeDest {
		return []key.Binding{
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "archive")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		}
	}
	return append([]key.Binding{m.archive}, m.det.Help()...)
}

// Update handles the archive action and the list.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case ForecastMsg:
		m.setForecast(msg.Forecast)
		m.earlier = msg.Earlier
		m.selectShown()
		return m, nil
	case msgs.Show:
		m.show = msg.What
		m.selectShown()
		return m, nil
	case ArchiveDone:
		m.last, m.lastErr = archiveSummary(msg), msg.Err != nil
		return m, nil
	case tea.KeyPressMsg:
		if m.mode == modeDest {
			return m.updateDest(msg)
		}
	}
	if !m.list.Filtering() && m.forecast != nil {
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
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.archive) {
		if len(m.selection()) == 0 {
			return m, status(m.nothingToArchive(), true)
		}
		m.mode = modeDest
		m.det.Unzoom()
		m.dest.Prompt = fmt.Sprintf("archive %s up to %q to: ", text.Count(len(m.selection()), "item", ""), m.uptoLabel())
		m.dest.SetValue("")
		m.dest.Placeholder = destPlaceholder
		if m.lastDest != "" {
			m.dest.Placeholder = m.lastDest + " (enter: the same again)"
		}
		m.fitDest()
		return m, m.dest.Focus()
	}
	return m, nil
}

func (m Model) updateDest(k tea.KeyPressMsg) (Model, tea.Cmd) {
	switch {
	case key.Matches(k, m.keys.Back):
		m.mode = modeBrowse
		m.dest.Blur()
		return m, status("archive cancelled: nothing was copied", false)
	case key.Matches(k, m.keys.Open):
		to := strings.TrimSpace(m.dest.Value())
		if to == "" {
			to = m.lastDest
		}
		if to == "" {
			return m, status("type a folder or a FILE.tar.gz to archive to", true)
		}
		m.mode = modeBrowse
		m.dest.Blur()
		m.lastDest = to
		req := ArchiveRequest{To: to, Items: m.selection(), Upto: m.uptoLabel()}
		m.last, m.lastErr = fmt.Sprintf("archiving %s to %s…", text.Count(len(req.Items), "item", ""), to), false
		return m, func() tea.Msg { return req }
	}
	var cmd tea.Cmd
	m.dest, cmd = m.dest.Update(k)
	return m, cmd
}

func status(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return msgs.Status{Text: text, Error: isErr} }
}

// upto is the time-line step the archive reaches: the selected one, or
// "now" when a never-swept row is selected.
func (m Model) upto() int {
	if r, ok := m.list.Selected(); ok && r.Group != nil {
		for i := range m.groups {
			if &m.groups[i] == r.Group {
				return i
			}
		}
	}
	if len(m.groups) > 0 && m.groups[0].Bucket == cleanup.BucketNow {
		return 0
	}
	return -1
}

func (m Model) uptoLabel() string {
	if i := m.upto(); i >= 0 {
		return m.groups[i].Label(m.forecast.HorizonDays)
	}
	return ""
}

// selection is every item of the time line up to and including the
// step archive reaches: what the sweeps until then delete.
func (m Model) selection() []cleanup.Item {
	if m.forecast == nil {
		return nil
	}
	var out []cleanup.Item
	for i := 0; i <= m.upto(); i++ {
		for _, idx := range m.groups[i].Items {
			out = append(out, m.forecast.Items[idx])
		}
	}
	return out
}

func (m Model) nothingToArchive() string {
	switch {
	case m.forecast == nil:
		return "no forecast yet"
	case m.forecast.State != cleanup.StateActive:
		return "the sweep deletes nothing (" + m.forecast.Reason + "); memscope archive --older-than N archives by age"
	}
	return "nothing is eligible yet: select a later step of the time line"
}

func archiveSummary(d ArchiveDone) string {
	if d.Err != nil {
		return "archive failed: " + d.Err.Error()
	}
	r := d.Report
	s := fmt.Sprintf("archived to %s: %d copied, %d already there, %s; %d of %d read back with equal SHA-256",
		r.To, r.Copied, r.Identical, text.Bytes(r.Bytes), r.Verified, len(r.Files))
	if n := len(r.Problems); n > 0 {
		s += fmt.Sprintf("; %d not archived (see memscope archive)", n)
	}
	return s
}

const barWidth = 12

func (m Model) renderRow(r Row, selected bool, width int) string {
	if l := r.Lost; l != nil {
		head := m.styles.Warn.Render(fmt.Sprintf("%-13s", "already lost")) + " "
		sum := strings.TrimPrefix(l.Summary(m.forecast.Now.Location()), "already lost: ")
		return head + text.Truncate(sum+" (history names them; their text is gone)", max(width-lipgloss.Width(head), 8))
	}
	if n := r.Never; n != nil {
		head := fmt.Sprintf("%-13s %-11s %s %9s  ", "never swept", n.Kind, strings.Repeat(" ", barWidth), text.Bytes(n.Size))
		return m.styles.Dim.Render(head) + text.Truncate(model.SanitizeForTerminal(n.Path), max(width-lipgloss.Width(head), 8))
	}
	g := r.Group
	label := g.Label(m.forecast.HorizonDays)
	if g.Bucket == cleanup.BucketNow {
		label = m.styles.Warn.Render(fmt.Sprintf("%-13s", label))
	} else {
		label = fmt.Sprintf("%-13s", label)
	}
	var kinds []string
	for _, k := range g.Kinds {
		kinds = append(kinds, fmt.Sprintf("%s %d", k.Kind, k.Count.Items))
	}
	head := fmt.Sprintf("%s %-11s %s %9s  ", label, g.Date.Format("2006-01-02"), m.styles.Bar(g.Total.Bytes, m.maxBytes, barWidth), text.Bytes(g.Total.Bytes))
	return head + text.Truncate(strings.Join(kinds, " · "), max(width-lipgloss.Width(head), 8))
}

// View draws the summary, the time line and the selected step's items.
func (m Model) View() string {
	if m.forecast == nil {
		return m.styles.Dim.Render("reading the home…")
	}
	return m.det.Under(m.top(), m.detailContent(), m.width, m.height)
}

// top is the summary, the archive line and the time line.
func (m Model) top() string {
	var b strings.Builder
	sum, _ := text.Head(m.summary(), m.width, lipgloss.NewStyle())
	b.WriteString(sum)
	b.WriteByte('\n')
	switch {
	case m.mode == modeDest:
		b.WriteString(m.dest.View())
	case m.last != "":
		st := m.styles.OK
		if m.lastErr {
			st = m.styles.Error
		}
		b.WriteString(st.Render(text.Truncate(model.SanitizeForTerminal(m.last), m.width)))
	default:
		b.WriteString(m.styles.Dim.Render(text.Truncate(m.hint(), m.width)))
	}
	b.WriteByte('\n')
	return b.String() + m.list.View(m.renderRow)
}

func (m Model) summary() string {
	f := m.forecast
	switch f.State {
	case cleanup.StateDisabled:
		return m.styles.OK.Render("cleanup disabled: ") + f.Reason
	case cleanup.StateSkipped:
		return m.styles.Warn.Render("cleanup skipped: ") + f.Reason
	case cleanup.StateActive:
	}
	o := f.Overall
	return fmt.Sprintf("cleanup deletes what is older than %d days · now %d (%s) · next %d days %d (%s) · later %d (%s)",
		f.PeriodDays, o.Now.Items, text.Bytes(o.Now.Bytes), f.HorizonDays, o.Soon.Items, text.Bytes(o.Soon.Bytes), o.Later.Items, text.Bytes(o.Later.Bytes))
}

func (m Model) hint() string {
	if m.forecast.State != cleanup.StateActive {
		return "nothing will be deleted; memscope cleanup --days N shows a what-if"
	}
	label := m.uptoLabel()
	if label == "" {
		return m.vaultNote() + m.earlierNote() + "a: archive (select a step of the time line)"
	}
	return m.vaultNote() + m.earlierNote() + fmt.Sprintf("a: archive what is swept up to %q (%s) — copies, never moves", label, text.Count(len(m.selection()), "item", ""))
}

// vaultNote says which of the sessions the sweep deletes within the
// horizon the rescue vault holds as they are ("" without a vault).
func (m Model) vaultNote() string {
	c := m.forecast.Vault
	if c == nil {
		return ""
	}
	s := fmt.Sprintf("vault holds %d of the %s deleted within %d days", c.Kept, text.Count(c.Sessions, "session", "sessions"), m.forecast.HorizonDays)
	if n := c.Sessions - c.Kept; n > 0 {
		s += fmt.Sprintf(", %d not (memscope vault sync)", n)
	}
	return s + " · "
}

// earlierNote says how many sessions have their history before a
// compaction only in a .replaced copy, which the sweep deletes with the
// session's folder ("" when none does).
func (m Model) earlierNote() string {
	e := m.earlier
	if e.Sessions == 0 {
		return ""
	}
	s := text.Count(e.Sessions, "session", "sessions") + " with earlier history only in a .replaced copy"
	if e.Gone > 0 {
		s += fmt.Sprintf(" (%d with no transcript left)", e.Gone)
	}
	return s + " · "
}

// detailContent is the selected step's every item, or a never-swept
// store.
func (m Model) detailContent() detail.Content {
	r, ok := m.list.Selected()
	if !ok {
		return detail.Content{}
	}
	loc := m.forecast.Now.Location()
	var lines []string
	if l := r.Lost; l != nil {
		return detail.Content{ID: "lost", Lines: m.lostLines(l)}
	}
	if n := r.Never; n != nil {
		lines = append(lines, m.styles.Bold.Render(model.SanitizeForTerminal(n.Path)),
			fmt.Sprintf("%s, %s — cleanupPeriodDays never deletes %s", text.Count(n.Files, "file", ""), text.Bytes(n.Size), neverWhat(n.Kind)))
		if n.Kind == cleanup.NeverSweptHistory {
			lines = append(lines, m.styles.Dim.Render("history is "+cleanup.HistoryKeptNote))
		}
		return detail.Content{ID: "never " + n.Path, Lines: lines}
	}
	g := r.Group
	lines = append(lines, m.styles.Bold.Render(fmt.Sprintf("%s: %s, %s, %s", g.Label(m.forecast.HorizonDays), text.Count(g.Total.Items, "item", ""), text.Count(g.Total.Files, "file", ""), text.Bytes(g.Total.Bytes))))
	pastes := map[string]bool{}
	for _, idx := range g.Items {
		it := m.forecast.Items[idx]
		p := model.SanitizeForTerminal(it.Path)
		if it.Dir {
			p += "/ (" + text.Count(it.Files, "file", "") + ")"
		}
		if it.Kind == cleanup.KindPaste {
			pastes[it.Path] = true
		}
		head := fmt.Sprintf("%s  %-15s %9s  ", it.Eligible.In(loc).Format("2006-01-02 15:04"), it.Kind, text.Bytes(it.Size))
		// The detail wraps a long path: the row above cuts it.
		lines = append(lines, head+p)
	}
	var dangling []string
	for _, d := range m.forecast.Dangling {
		if pastes[d.PastePath] {
			dangling = append(dangling, fmt.Sprintf("  %s:%d paste #%d %s", d.File, d.Line, d.PasteID, d.Hash))
		}
	}
	if len(dangling) > 0 {
		lines = append(lines, m.styles.Warn.Render(text.Count(len(dangling), "history line", "")+" will then point at a missing paste:"))
		lines = append(lines, dangling...)
	}
	return detail.Content{ID: "step " + g.Date.String(), Lines: lines}
}

// lostLines lists the lost sessions (date, id, prompts, project, first
// prompt) and pastes, and what to do.
func (m Model) lostLines(l *cleanup.Lost) []string {
	loc := m.forecast.Now.Location()
	lines := []string{m.styles.Bold.Render(l.Summary(loc)),
		m.styles.Dim.Render("history still names them; their text is gone for good"),
		m.styles.Dim.Render("so that the next sweep loses nothing more, archive first: a on a day row (copies, verified)")}
	for _, s := range l.Sessions {
		head := fmt.Sprintf("%s  %s  %s  ", s.First.In(loc).Format("2006-01-02"), format.ShortID(string(s.SessionID)), text.Count(s.Prompts, "prompt", ""))
		rest := model.SanitizeLine(s.Project) + "  " + strconvQuote(model.SanitizeLine(s.FirstPrompt))
		lines = append(lines, head+rest)
	}
	for _, p := range l.Pastes {
		lines = append(lines, fmt.Sprintf("paste #%d %s gone, named at %s:%d  %s", p.PasteID, p.Hash, p.File, p.Line, model.SanitizeLine(p.Project)))
	}
	if l.Unattributed > 0 {
		lines = append(lines, m.styles.Dim.Render(text.Count(l.Unattributed, "history line", "")+" without a session id (older clients) not matched"))
	}
	return lines
}

func strconvQuote(s string) string { return "“" + s + "”" }

func neverWhat(k cleanup.NeverSweptKind) string {
	switch k {
	case cleanup.NeverSweptHistory:
		return "the prompt history (only pastes it points at)"
	case cleanup.NeverSweptMemory:
		return "auto memory"
	case cleanup.NeverSweptMemscope:
		return "memscope's undo copies of file-history restores"
	}
	return string(k)
}

// Legend explains the pane's rows.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "day rows", Means: "what the client's cleanup deletes on that day (cleanupPeriodDays after the file's last change)"},
		{Mark: "never swept", Means: "history and memory: cleanup never deletes them (history is " + cleanup.HistoryKeptNote + ")"},
		{Mark: "already lost", Means: "sessions and pastes history still names whose text an earlier sweep deleted"},
		{Mark: "a", Means: "archives everything up to the selected day (copies, verified; deletes nothing)"},
		m.det.Legend(),
	}
}
