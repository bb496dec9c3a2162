// Package live is the Live pane: the Claude Code sessions running now in
// the home, each with its context fill against the warning, autocompact
// and blocking levels, the turns since its last compaction and a forecast
// of the turns left before autocompact, its tokens per minute, the
// memory files it wrote; and the current 5-hour usage block.
//
// The pane does no I/O: the root follows the home with engine/live's
// Tracker and hands each snapshot over with SetData. enter asks the root
// to open the selected session in Replay (msgs.ReplayAt), c to open it at
// its last compaction.
package live

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	englive "github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// Row is one running session, or one running subagent of the session
// above it (Agent set; Run, Status and Memory are its session's).
type Row struct {
	Run englive.Running
	// Status is where the session stands; nil until its transcript has a
	// line (a client that has just started).
	Status *englive.SessionStatus
	// Memory is the state of the session's memory folder; nil when it is
	// not followed (auto memory off, or no transcript yet).
	Memory *englive.MemoryState
	// Agent is the running subagent this row shows, under its session;
	// nil on the session's own row.
	Agent *englive.Subagent
}

// Data is one snapshot as the pane shows it.
type Data struct {
	Rows []Row
	// Block is the current 5-hour usage block; nil when none is active.
	Block *englive.Block
	// Stale counts process files whose process is gone.
	Stale int
}

// FromSnapshot arranges a tracker's snapshot for the pane: one row per
// running session, in the snapshot's order, with its status and memory
// folder, each followed by a row per subagent of it still running.
func FromSnapshot(s englive.Snapshot) Data {
	d := Data{Block: s.Block, Stale: len(s.Stale)}
	mem := map[string]*englive.MemoryState{}
	for i := range s.Memory {
		mem[s.Memory[i].Dir] = &s.Memory[i]
	}
	byTranscript := map[string]*englive.SessionStatus{}
	for i := range s.Sessions {
		byTranscript[s.Sessions[i].Transcript] = &s.Sessions[i]
	}
	for _, r := range s.Running {
		row := Row{Run: r}
		if st := byTranscript[r.Transcript]; r.Transcript != "" && st != nil {
			row.Status = st
			row.Memory = mem[st.MemoryDir]
		}
		d.Rows = append(d.Rows, row)
		if row.Status == nil {
			continue
		}
		for i := range row.Status.Subagents {
			if a := &row.Status.Subagents[i]; a.Running {
				sub := row
				sub.Agent = a
				d.Rows = append(d.Rows, sub)
			}
		}
	}
	return d
}

// agentID is the subagent a row shows, "" for a session's row.
func (r Row) agentID() string {
	if r.Agent == nil {
		return ""
	}
	return r.Agent.AgentID
}

// view is what rendering needs besides a row: shared by pointer with the
// list's render function, so the function holds no copy of the pane (a
// method value on the pane would keep every earlier snapshot alive).
type view struct {
	styles style.Styles
	now    time.Time
	// levels are the user's warning levels (the settings file's live
	// section); zeros keep the client's.
	levels englive.Levels
}

// alarm is how loud a session's context is (englive.Levels.Alarm: the
// rule the Overview's autocompact line counts by).
func (v *view) alarm(s *englive.SessionStatus) window.Level { return v.levels.Alarm(s) }

// LevelsMsg sets the user's warning levels (percent of the window; 0
// keeps the client's).
type LevelsMsg struct{ WarnPct, AlertPct float64 }

// Model is the Live pane.
type Model struct {
	keys   *keymap.KeyMap
	v      *view
	list   list.Model[Row]
	det    detail.Model
	data   Data
	loaded bool
	width  int
	height int
	// show is the row the Overview opened the pane at (ShowNear),
	// selected once a snapshot is in.
	show string
}

// ShowNear is what msgs.Show asks for to select the first session near
// autocompact (the Overview's autocompact line).
const ShowNear = "near"

// selectShown selects the row m.show names, once a snapshot is in.
func (m *Model) selectShown() {
	if !m.loaded || m.show == "" {
		return
	}
	if m.show == ShowNear {
		lv := m.v.levels
		m.list.SelectWhere(func(r Row) bool { return r.Agent == nil && lv.Near(r.Status) })
	}
	m.show = ""
}

// New returns the pane before its first snapshot.
func New(keys keymap.KeyMap, st style.Styles) Model {
	v := &view{styles: st}
	m := Model{keys: &keys, v: v, det: detail.New(keys, st)}
	m.list = list.New(keys, st, func(r Row) string {
		s := r.Run.SessionID + " " + r.Run.CWD + " " + project(r)
		if a := r.Agent; a != nil {
			s += " " + a.AgentID + " " + a.AgentType + " " + a.Description
		}
		return s
	})
	m.list.Empty = "no Claude Code session is running in this home"
	return m
}

// Title names the pane.
func (m Model) Title() string { return "Live" }

// DataMsg brings the pane a snapshot taken at Now (from its feed),
// keeping the selected session selected.
type DataMsg struct {
	Data Data
	Now  time.Time
}

// SetData shows a snapshot taken at now, keeping the selected session
// selected.
func (m *Model) setData(d Data, now time.Time) {
	sel, had := m.list.Selected()
	m.data, m.loaded = d, true
	m.v.now = now
	m.list.SetItems(d.Rows)
	if had {
		for i, r := range d.Rows {
			if r.Run.SessionID == sel.Run.SessionID && r.agentID() == sel.agentID() {
				m.list.Select(i)
				break
			}
		}
	}
	m.layout()
}

// Loaded reports whether a snapshot arrived.
func (m Model) Loaded() bool { return m.loaded }

// Selected is the session under the cursor.
func (m Model) Selected() (Row, bool) { return m.list.Selected() }

// Rows are the rows of the last snapshot, in the list's order.
func (m Model) Rows() []Row { return m.list.Items() }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.v.styles = st
	m.list.SetStyles(st)
	m.det.SetStyles(st)
}

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layout()
}

// listRows is the height of the session list: the sessions, up to a
// third of the pane, leaving the rest to the selected one's detail.
func (m Model) listRows() int {
	return max(min(len(m.data.Rows), m.height/3), 1)
}

func (m *Model) layout() {
	m.list.SetSize(m.width, m.listRows()+boolInt(m.list.Filtering() || m.list.FilterValue() != ""))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away.
func (m *Model) Blur() {}

// Filtering reports whether the filter line has the keyboard.
func (m Model) Filtering() bool { return m.list.Filtering() }

// Help lists the pane's own bindings.
func (m Model) Help() []key.Binding {
	return append([]key.Binding{m.keys.Open, m.keys.LiveCompaction}, m.det.Help()...)
}

// ClickRow moves the cursor to the clicked row (under the block line and
// the header).
func (m *Model) ClickRow(y int) tea.Cmd {
	if m.det.Zoomed() {
		return nil
	}
	m.list.ClickRow(y - 2)
	return nil
}

// Update moves through the sessions, and asks the root to open one in
// Replay (enter) or its last compaction (c).
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch d := msg.(type) {
	case DataMsg:
		m.setData(d.Data, d.Now)
		m.selectShown()
		return m, nil
	case msgs.Show:
		m.show = d.What
		m.selectShown()
		return m, nil
	case LevelsMsg:
		m.v.levels = englive.Levels{WarnPct: d.WarnPct, AlertPct: d.AlertPct}
		return m, nil
	}
	if !m.list.Filtering() && m.loaded && len(m.data.Rows) > 0 {
		if d, ok := m.det.Update(msg, m.detailContent(), m.det.Area(m.top(), m.width, m.height)); ok {
			m.det = d
			return m, nil
		}
	}
	var cmd tea.Cmd
	var handled bool
	m.list, cmd, handled = m.list.Update(msg)
	m.layout()
	if handled {
		return m, cmd
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	r, selected := m.list.Selected()
	switch {
	case !selected:
	case key.Matches(k, m.keys.Open):
		return m, m.replay(r, false)
	case key.Matches(k, m.keys.LiveCompaction):
		return m, m.replay(r, true)
	}
	return m, nil
}

// replay asks the root to open r's transcript in Replay, at its last
// compaction when compaction is set.
func (m Model) replay(r Row, compaction bool) tea.Cmd {
	if r.Run.Transcript == "" {
		return status("session " + short(r.Run.SessionID) + " has not written its transcript yet")
	}
	req := msgs.ReplayAt{Path: r.Run.Transcript}
	if compaction {
		if r.Status == nil || len(r.Status.Compactions) == 0 {
			return status("session " + short(r.Run.SessionID) + " has not compacted yet")
		}
		c := r.Status.Compactions[len(r.Status.Compactions)-1]
		req.Boundary, req.Line = c.UUID, c.Line
	}
	return func() tea.Msg { return req }
}

func status(s string) tea.Cmd {
	return func() tea.Msg { return msgs.Status{Text: s} }
}

// short is a session id cut for a row or a message, kept on one row (a
// newline in an id shows as \n).
func short(id string) string { return format.ShortID(model.SanitizeLine(id)) }

// Legend explains the pane's marks.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "⟲", Means: fmt.Sprintf("the session compacted in the last %d minutes", int(recent.Minutes()))},
		{Mark: "█ ░", Means: "the context used / left of the session's window"},
		{Mark: "│", Means: "on the meter: the warning, autocompact and blocking levels"},
		{Mark: "└", Means: "a subagent of the session above, still running: its type, context, tokens, last write and task"},
		{Mark: "5-hour block", Means: "the current usage block, counted as ccusage blocks does"},
		m.det.Legend(),
	}
}
