// Package files is the Files pane: the per-session file snapshots Claude
// Code keeps for /rewind. Sessions with file history → a session's turns
// → the tracked files at a turn → every version of a file, with the diff
// of the selected version against the file on disk (or the next
// version), and restore of a version or of a whole turn after a yes/no
// confirmation of the plan. The pane does no I/O: it emits the request
// messages of this package and the root hands back what they load.
package files

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/detail"
	"github.com/memscope/memscope/views/component/hit"
	"github.com/memscope/memscope/views/component/list"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/msgs"
)

// LoadSession asks the root to read a session's file history
// (filehist.ReadSessionFileHistory) and hand it to SetSession.
type LoadSession struct {
	SessionID string
	// Transcript is the transcript's path inside the home, "" when gone.
	Transcript string
}

// DiffRequest asks the root for the diff between two versions of a file
// (filehist.FileVersionDiff) and to hand it to SetDiff.
// With Content set it asks for From's text instead (To is unused).
type DiffRequest struct {
	SessionID    string
	TrackingPath string
	From, To     filehist.VersionRef
	Content      bool
}

// PlanRequest asks the root for a restore plan (filehist.PlanTurnRestore
// when Turn is set, else filehist.PlanVersionRestore) and to hand it to
// a PlanMsg; the pane then asks for confirmation.
type PlanRequest struct {
	SessionID    string
	Turn         string
	TrackingPath string
	Version      int
}

// RestoreRequest asks the root to apply a confirmed plan
// (filehist.ApplyRestore), then reload the session.
type RestoreRequest struct {
	Plan *filehist.RestorePlan
}

// UndoRequest asks the root to revert the session's newest restore
// (filehist.UndoRestore), then reload the session.
type UndoRequest struct {
	SessionID string
}

// Level is which list the pane shows.
type Level int

// The levels, outermost first.
const (
	LevelSessions Level = iota
	LevelTurns
	LevelFiles
	LevelVersions
)

// Row is one row of the list: exactly one field is set, by level.
type Row struct {
	Session *filehist.SessionSummary
	Turn    *filehist.FileTurn
	File    *filehist.TrackedFile
	Version *filehist.FileVersion
}

// diffBase says what the selected version is compared with, or that
// its text is shown.
type diffBase int

const (
	againstDisk diffBase = iota
	againstNext
	showContent
	baseCount
)

// Model is the Files pane.
type Model struct {
	keys     *keymap.KeyMap
	styles   style.Styles
	list     list.Model[Row]
	det      detail.Model
	level    Level
	sessions []filehist.SessionSummary
	loaded   bool
	session  *filehist.SessionFileHistory
	// loading names the session asked for and not yet handed over.
	loading string
	turn    *filehist.FileTurn
	file    *filehist.TrackedFile
	// cursors keeps each outer level's cursor for going back.
	cursors [4]int
	base    diffBase
	diff    DiffResult
	// doc is the text of a Content result, placed once (a backup can be
	// megabytes).
	doc     *hit.Doc
	plan    *filehist.RestorePlan
	confirm bool
	// readOnly disables restores.
	readOnly bool
	// hit is the search hit the pane was opened at (OpenHit): pending
	// until the pane has gone to its version, then marked in that
	// version's text.
	hit    *shownHit
	width  int
	height int
}

// DiffResult is a diff handed back for a DiffRequest, or for a Content
// request the version's text (Diff), Absent when the version is the
// file's absence; Loaded says the root answered.
type DiffResult struct {
	Request DiffRequest
	Diff    string
	Err     error
	Absent  bool
	Loaded  bool
}

// New returns an empty Files pane.
func New(keys keymap.KeyMap, st style.Styles) Model {
	m := Model{keys: &keys, styles: st, det: detail.New(keys, st)}
	m.list = list.New(keys, st, rowText)
	m.list.Empty = "loading file history…"
	return m
}

// Title names the pane.
func (m Model) Title() string { return "Files" }

// SessionsMsg brings the sessions that have file history.
type SessionsMsg struct{ Sessions []filehist.SessionSummary }

// SessionMsg brings a loaded session (after LoadSession, or a reload
// after a restore).
type SessionMsg struct{ Session *filehist.SessionFileHistory }

// PlanMsg brings the restore plan a PlanRequest asked for, or the error
// that stopped it.
type PlanMsg struct {
	Plan *filehist.RestorePlan
	Err  error
}

// setSessions shows the sessions that have file history; a search hit
// waiting for them asks for its session.
func (m *Model) setSessions(s []filehist.SessionSummary) tea.Cmd {
	m.sessions, m.loaded = s, true
	if m.level == LevelSessions {
		m.showLevel(LevelSessions)
	}
	return m.goToHit()
}

// setSession takes a loaded session (after LoadSession, or a reload
// after a restore). The pane keeps its place when the session is the one
// it shows; the returned command asks again for the diff shown, since
// the file on disk may have changed.
func (m *Model) setSession(s *filehist.SessionFileHistory) tea.Cmd {
	same := m.session != nil && s != nil && m.session.SessionID == s.SessionID
	m.session, m.loading = s, ""
	if s == nil {
		m.showLevel(LevelSessions)
		return nil
	}
	if m.hit != nil && m.hit.pending && m.hit.SessionID == string(s.SessionID) {
		return m.goToHit()
	}
	if !same {
		m.turn, m.file = nil, nil
		m.showLevel(LevelTurns)
		return nil
	}
	if m.turn != nil {
		m.turn, _ = s.Turn(m.turn.MessageID)
	}
	if m.file != nil {
		m.file, _ = s.File(m.file.TrackingPath)
	}
	lv, at := m.level, m.list.Index()
	switch {
	case lv >= LevelFiles && m.turn == nil, lv == LevelVersions && m.file == nil:
		lv = LevelTurns
	}
	m.showLevel(lv)
	if lv == m.level {
		m.list.Select(at)
	}
	m.diff = DiffResult{}
	return m.diffIfMoved(DiffRequest{})
}

// setDiff takes a diff (DiffResult); one for a selection the pane left
// is dropped.
func (m *Model) setDiff(d DiffResult) {
	if req, ok := m.diffRequest(); ok && req == d.Request {
		m.diff = d
		m.doc = m.contentDoc(d)
	}
}

// setPlan takes a restore plan and asks for confirmation (or shows the
// error that stopped the plan).
func (m *Model) setPlan(p *filehist.RestorePlan, err error) tea.Cmd {
	if err != nil {
		return status("no restore plan: "+err.Error(), true)
	}
	m.plan, m.confirm = p, true
	m.det.Unzoom() // the question is over the list
	return nil
}

// SetReadOnly disables restores (a read-only home or the demo).
func (m *Model) SetReadOnly(ro bool) { m.readOnly = ro }

// SetStyles replaces the styles.
func (m *Model) SetStyles(st style.Styles) {
	m.styles = st
	m.list.SetStyles(st)
	m.det.SetStyles(st)
}

// Level returns the list shown.
func (m Model) Level() Level { return m.level }

// listHeight is the list's rows: the head and the list take half the
// pane, so a head that wraps (a long path, the restore question) leaves
// the list fewer.
func (m Model) listHeight() int { return max(m.height/2-m.headRows(), 1) }

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layout()
}

// layout sizes the list under the head as it is now.
func (m *Model) layout() { m.list.SetSize(m.width, m.listHeight()) }

// Focus gives the pane the keyboard.
func (m *Model) Focus() {}

// Blur takes the keyboard away and drops a pending confirmation.
func (m *Model) Blur() { m.confirm, m.plan = false, nil; m.layout() }

// Filtering reports whether the pane takes text or a y/n answer.
func (m Model) Filtering() bool { return m.list.Filtering() || m.confirm }

// ClickRow moves the cursor to the clicked row (y counts from the
// pane's first line, which is the header) and asks for the diff of the
// version it lands on, as the list keys do.
func (m *Model) ClickRow(y int) tea.Cmd {
	if m.det.Zoomed() {
		return nil
	}
	before, _ := m.diffRequest()
	m.list.ClickRow(y - m.headRows())
	return m.diffIfMoved(before)
}

// Help lists the pane's own bindings for the level shown.
func (m Model) Help() []key.Binding {
	if m.confirm {
		return append([]key.Binding{m.keys.Confirm, m.keys.Cancel}, m.det.Help()...)
	}
	open := m.keys.Open
	back := m.keys.Back
	switch m.level {
	case LevelSessions:
		return append([]key.Binding{open}, m.det.Help()...)
	case LevelTurns:
		return append([]key.Binding{open, back, m.restoreKey("rewind files to before this turn")}, m.det.Help()...)
	case LevelFiles:
		return append([]key.Binding{open, back}, m.det.Help()...)
	}
	return append([]key.Binding{back, m.restoreKey("restore this version"), m.toggleKey()}, m.det.Help()...)
}

// restoreKey is the Apply binding with this pane's help text.
func (m Model) restoreKey(help string) key.Binding {
	return key.NewBinding(key.WithKeys(m.keys.Apply.Keys()...), key.WithHelp(m.keys.Apply.Help().Key, help))
}

// toggleKey is the Toggle binding with this pane's help text: what it
// shows next.
func (m Model) toggleKey() key.Binding {
	what := "diff against the next version"
	switch m.base {
	case againstNext:
		what = "the version's text"
	case showContent:
		what = "diff against the file on disk"
	}
	return key.NewBinding(key.WithKeys(m.keys.Toggle.Keys()...), key.WithHelp(m.keys.Toggle.Help().Key, what))
}

func status(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return msgs.Status{Text: text, Error: isErr} }
}

func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// Session returns the session shown, nil before one is loaded.
func (m Model) Session() *filehist.SessionFileHistory { return m.session }

// File returns the tracked file whose versions are listed (or were
// last), nil before one is chosen.
func (m Model) File() *filehist.TrackedFile { return m.file }

// Selected returns the row under the cursor.
func (m Model) Selected() (Row, bool) { return m.list.Selected() }

// Legend explains the pane's marks.
func (m Model) Legend() []text.LegendEntry {
	return []text.LegendEntry{
		{Mark: "●", Means: "touched by the selected turn"},
		{Mark: "vN", Means: "the Nth saved version of the file (restoring it writes it back)"},
		{Mark: "backup missing", Means: "the record names a version whose backup file is gone"},
		{Mark: "u", Means: "here, undoes the last file-history restore (not a memory change)"},
		m.det.Legend(),
	}
}
