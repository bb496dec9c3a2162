package files

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/internal/filehistgen"
	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/hit"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

// fixture is the generated session, read from disk, and its home.
type fixture struct {
	root string
	l    filehistgen.Layout
	home *model.Home
	s    filehist.SessionFileHistory
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	root := t.TempDir()
	l, err := filehistgen.Write(root, time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(l.Home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	s, err := filehist.ReadSessionFileHistory(home.FS, filehistgen.SessionID, l.Transcript)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{root: root, l: l, home: home, s: s}
}

var sessionsFixture = []filehist.SessionSummary{
	{SessionID: filehistgen.SessionID, Transcript: "projects/-home-me-app/" + filehistgen.SessionID + ".jsonl", Backups: 7, Bytes: 109,
		ModTime: time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)},
	{SessionID: "0ld5e55-0000", Backups: 2, Bytes: 4096, ModTime: time.Date(2026, 10, 1, 8, 0, 0, 0, time.UTC)},
}

func newPane(w, h int) Model {
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(w, h)
	return m
}

// press sends keys and returns the messages their commands emit.
func press(t *testing.T, m Model, keys ...string) (Model, []tea.Msg) {
	t.Helper()
	var out []tea.Msg
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(keypress.Msg(k))
		out = append(out, run(cmd)...)
	}
	return m, out
}

func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, run(c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}

// openSession goes from the sessions list into the fixture's session as
// the root would: LoadSession answered by SetSession.
func openSession(t *testing.T, f fixture, m Model) Model {
	t.Helper()
	m.setSessions(sessionsFixture)
	m, out := press(t, m, "enter")
	if len(out) != 1 || out[0] != (LoadSession{SessionID: filehistgen.SessionID, Transcript: sessionsFixture[0].Transcript}) {
		t.Fatalf("enter on a session sent %#v", out)
	}
	m.setSession(&f.s)
	return m
}

// answerDiff answers a DiffRequest as the root does.
func answerDiff(t *testing.T, f fixture, m *Model, req DiffRequest) {
	t.Helper()
	tf, _ := f.s.File(req.TrackingPath)
	d, err := filehist.FileVersionDiff(f.home.FS, tf, req.From, req.To)
	m.setDiff(DiffResult{Request: req, Diff: d, Err: err})
}

// backupHash is a backup name's path hash, which depends on the temp
// folder.
var backupHash = regexp.MustCompile(`[0-9a-f]{16}@v`)

// pressAnswered presses a key and answers the requests it sends as the
// root does.
func pressAnswered(t *testing.T, f fixture, m Model, k string) Model {
	t.Helper()
	m, out := press(t, m, k)
	for _, msg := range out {
		switch msg := msg.(type) {
		case LoadSession:
			m.setSession(&f.s)
		case DiffRequest:
			answerDiff(t, f, &m, msg)
		case PlanRequest:
			var p *filehist.RestorePlan
			var err error
			if msg.Turn != "" {
				p, err = filehist.PlanTurnRestore(f.home.FS, &f.s, msg.Turn)
			} else {
				p, err = filehist.PlanVersionRestore(f.home.FS, &f.s, msg.TrackingPath, msg.Version)
			}
			m.setPlan(p, err)
		}
	}
	return m
}

// screen is the pane as text, the fixture's folder as $ROOT. Lines lose
// their trailing blanks: the detail pads its rows to the width, and a
// path of a different length would pad differently.
func screen(f fixture, m Model) string {
	s := backupHash.ReplaceAllString(strings.ReplaceAll(ansi.Strip(m.View()), f.root, "$ROOT"), "<h16>@v")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func TestFilesPaneGolden(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		plan bool
	}{
		{"sessions", nil, false},
		{"turns", []string{"enter", "down", "down"}, false},
		{"files_at_turn", []string{"enter", "down", "enter"}, false},
		{"versions_diff_disk", []string{"enter", "down", "enter", "down", "enter"}, false},
		{"versions_diff_next", []string{"enter", "down", "enter", "down", "down", "down", "enter", "space"}, false},
		{"rewind_confirm", []string{"enter", "a"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			m := newPane(100, 30)
			m.setSessions(sessionsFixture)
			for _, k := range tt.keys {
				m = pressAnswered(t, f, m, k)
			}
			golden.RequireEqual(t, screen(f, m))
		})
	}
}

func TestFilesPaneNavigation(t *testing.T) {
	f := newFixture(t)
	m := openSession(t, f, newPane(100, 30))
	if m.Level() != LevelTurns {
		t.Fatalf("level = %v", m.Level())
	}
	// U2, then its files: README.md is the second row (../app2 sorts first).
	m, _ = press(t, m, "down", "enter")
	if m.Level() != LevelFiles || m.turn == nil || m.turn.MessageID != filehistgen.U2 {
		t.Fatalf("level %v turn %+v", m.Level(), m.turn)
	}
	m, out := press(t, m, "down", "enter")
	want := DiffRequest{SessionID: filehistgen.SessionID, TrackingPath: "README.md", From: filehist.VersionRef{Version: 2}, To: filehist.DiskRef}
	if m.Level() != LevelVersions || len(out) != 1 || out[0] != want {
		t.Fatalf("versions: level %v, sent %#v; want %#v (the cursor on the turn's version)", m.Level(), out, want)
	}
	m, out = press(t, m, "space")
	want.To = filehist.VersionRef{Version: 3}
	if len(out) != 1 || out[0] != want {
		t.Fatalf("space sent %#v, want %#v", out, want)
	}
	m, out = press(t, m, "down")
	want.From, want.To = filehist.VersionRef{Version: 3}, filehist.DiskRef
	if len(out) != 1 || out[0] != want {
		t.Fatalf("moving to the newest version sent %#v, want %#v", out, want)
	}
	// A diff for a selection the pane left is dropped.
	m.setDiff(DiffResult{Request: DiffRequest{TrackingPath: "README.md", From: filehist.VersionRef{Version: 1}, To: filehist.DiskRef}, Diff: "stale"})
	if m.diff.Diff == "stale" {
		t.Error("a stale diff was shown")
	}
	m.setDiff(DiffResult{Request: want, Err: errors.New("backup missing")})
	if !strings.Contains(screen(f, m), "backup missing") {
		t.Errorf("diff error not shown:\n%s", screen(f, m))
	}
	m, _ = press(t, m, "esc")
	if r, _ := m.list.Selected(); m.Level() != LevelFiles || r.File == nil || r.File.TrackingPath != "README.md" {
		t.Fatalf("esc: level %v row %+v", m.Level(), r)
	}
	m, _ = press(t, m, "esc", "esc")
	if r, _ := m.list.Selected(); m.Level() != LevelSessions || r.Session == nil || r.Session.SessionID != filehistgen.SessionID {
		t.Fatalf("back to sessions: level %v row %+v", m.Level(), r)
	}
	// Opening the same session again does not reload it.
	if _, out := press(t, m, "enter"); len(out) != 0 {
		t.Errorf("re-opening the loaded session sent %#v", out)
	}
}

func TestFilesPaneRestoreConfirmation(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name   string
		answer string
		want   func(out []tea.Msg, plan *filehist.RestorePlan) bool
	}{
		{"yes", "y", func(out []tea.Msg, p *filehist.RestorePlan) bool {
			r, ok := out[0].(RestoreRequest)
			return len(out) == 1 && ok && r.Plan == p
		}},
		{"no", "n", func(out []tea.Msg, _ *filehist.RestorePlan) bool {
			s, ok := out[0].(msgs.Status)
			return len(out) == 1 && ok && strings.Contains(s.Text, "nothing was written")
		}},
		{"esc", "esc", func(out []tea.Msg, _ *filehist.RestorePlan) bool {
			_, ok := out[0].(msgs.Status)
			return len(out) == 1 && ok
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := openSession(t, f, newPane(100, 30))
			m, _ = press(t, m, "enter", "down", "enter") // README.md versions at U1
			m, out := press(t, m, "a")
			want := PlanRequest{SessionID: filehistgen.SessionID, TrackingPath: "README.md", Version: 1}
			if len(out) != 1 || out[0] != want {
				t.Fatalf("a sent %#v, want %#v", out, want)
			}
			p, err := filehist.PlanVersionRestore(f.home.FS, &f.s, "README.md", 1)
			m.setPlan(p, err)
			if !m.Filtering() || !strings.Contains(screen(f, m), "Restore 1 file as shown") {
				t.Fatalf("no confirmation:\n%s", screen(f, m))
			}
			m, out = press(t, m, tt.answer)
			if !tt.want(out, p) {
				t.Errorf("answer %s sent %#v", tt.answer, out)
			}
			if m.Filtering() {
				t.Error("still asking after the answer")
			}
		})
	}
}

func TestFilesPaneReadOnlyAndPlanError(t *testing.T) {
	f := newFixture(t)
	m := openSession(t, f, newPane(100, 30))
	m.SetReadOnly(true)
	m, out := press(t, m, "a")
	if s, ok := out[0].(msgs.Status); len(out) != 1 || !ok || !s.Error {
		t.Fatalf("read-only a sent %#v", out)
	}
	m.SetReadOnly(false)
	cmd := m.setPlan(nil, errors.New("no snapshot"))
	if s, ok := run(cmd)[0].(msgs.Status); !ok || !strings.Contains(s.Text, "no snapshot") || m.Filtering() {
		t.Errorf("plan error: %#v, confirming %v", s, m.Filtering())
	}
}

func TestFilesPaneReloadKeepsPlace(t *testing.T) {
	f := newFixture(t)
	m := openSession(t, f, newPane(100, 30))
	m, _ = press(t, m, "down", "enter", "down", "enter") // README.md versions at U2
	m, _ = press(t, m, "down")                           // v3
	again := f.s
	out := run(m.setSession(&again))
	if r, _ := m.list.Selected(); m.Level() != LevelVersions || m.file == nil || m.file.TrackingPath != "README.md" || r.Version == nil || r.Version.Version != 3 {
		t.Errorf("after reload: level %v file %+v row %+v", m.Level(), m.file, r)
	}
	// The disk may have changed: the diff shown is asked for again.
	want := DiffRequest{SessionID: filehistgen.SessionID, TrackingPath: "README.md", From: filehist.VersionRef{Version: 3}, To: filehist.DiskRef}
	if len(out) != 1 || out[0] != want {
		t.Errorf("reload sent %#v, want %#v", out, want)
	}
}

// Text from transcripts reaches the screen without its control
// sequences.
func TestFilesPaneSanitizes(t *testing.T) {
	f := newFixture(t)
	s := f.s
	s.Turns = append([]filehist.FileTurn(nil), s.Turns...)
	s.Turns[0].Prompt = "evil \x1b]0;pwned\x07 title \x1b[2J"
	m := newPane(100, 30)
	m.setSessions(sessionsFixture)
	m, _ = press(t, m, "enter")
	m.setSession(&s)
	v := m.View()
	if strings.Contains(v, "\x1b]0;") || strings.Contains(v, "\x1b[2J") || strings.Contains(v, "\x07") {
		t.Errorf("control sequences reached the view: %q", v)
	}
	if !strings.Contains(ansi.Strip(v), "title") {
		t.Errorf("prompt text lost:\n%s", ansi.Strip(v))
	}
}

func TestFilesPaneEmpty(t *testing.T) {
	m := newPane(80, 20)
	if !strings.Contains(ansi.Strip(m.View()), "loading file history") {
		t.Errorf("before data:\n%s", ansi.Strip(m.View()))
	}
	m.setSessions(nil)
	if !strings.Contains(ansi.Strip(m.View()), "no session has file history") {
		t.Errorf("no sessions:\n%s", ansi.Strip(m.View()))
	}
	if _, out := press(t, m, "enter", "a", "esc"); len(out) != 0 {
		t.Errorf("keys on an empty list sent %#v", out)
	}
}

// The pane stays inside the size it is given, at every level.
func TestFilesPaneFitsItsSize(t *testing.T) {
	f := newFixture(t)
	for _, size := range []struct{ w, h int }{{60, 15}, {45, 14}, {40, 10}, {30, 8}, {120, 40}} {
		m := newPane(size.w, size.h)
		m.setSessions(sessionsFixture)
		// The last file (src/app.go) has the longest version rows.
		for _, k := range []string{"", "enter", "enter", "G", "enter", "space", "a"} {
			if k != "" {
				m = pressAnswered(t, f, m, k)
			}
			lines := strings.Split(ansi.Strip(m.View()), "\n")
			if len(lines) > size.h {
				t.Errorf("%dx%d after %q: %d lines", size.w, size.h, k, len(lines))
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size.w {
					t.Errorf("%dx%d after %q: line of %d cells: %q", size.w, size.h, k, w, l)
				}
			}
		}
	}
}

// A diff keeps a file's indentation (tabs expanded to the next stop,
// never drawn as one space) and a row cut at the border ends in "…".
func TestDiffTabsAndCuts(t *testing.T) {
	f := newFixture(t)
	m := newPane(60, 30)
	m.setSessions(sessionsFixture)
	for _, k := range []string{"enter", "down", "enter", "down", "enter"} {
		m = pressAnswered(t, f, m, k)
	}
	req, ok := m.diffRequest()
	if !ok {
		t.Fatal("no version selected")
	}
	long := strings.Repeat("word ", 30)
	m.setDiff(DiffResult{Request: req, Diff: "--- a\n+++ b\n@@ -1 +1 @@\n-\tif x {\n+\t\treturn y\n+" + long + "\n"})
	s := screen(f, m)
	if !strings.Contains(s, "-   if x {") || !strings.Contains(s, "+       return y") {
		t.Errorf("tabs not expanded:\n%s", s)
	}
	cut := false
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "+word") {
			cut = strings.HasSuffix(l, "…") && len([]rune(l)) == 60
		}
	}
	if !cut {
		t.Errorf("the long row is not cut with … at the border:\n%s", s)
	}
	// In the zoom the row is not cut: the detail wraps it, and it reads
	// whole.
	m = pressAnswered(t, f, m, "z")
	flat := strings.Join(strings.Fields(screen(f, m)), " ")
	if !strings.Contains(flat, "+"+strings.TrimSpace(long)) {
		t.Errorf("the long row is not whole in the zoom:\n%s", screen(f, m))
	}
}

// answerContent answers a Content request as the root does.
func answerContent(t *testing.T, f fixture, m *Model, req DiffRequest) {
	t.Helper()
	tf, _ := f.s.File(req.TrackingPath)
	data, exists, err := filehist.ReadFileVersion(f.home.FS, tf, req.From)
	m.setDiff(DiffResult{Request: req, Diff: string(data), Err: err, Absent: err == nil && !exists, Loaded: true})
}

// OpenHit before the sessions are listed waits for them, asks for the
// hit's session, goes to the backed-up file's version with its text and
// marks the hit's line; esc goes back to the files with that file
// selected, at the turn that saved the version.
func TestFilesPaneOpensSearchHit(t *testing.T) {
	f := newFixture(t)
	m := newPane(100, 30)
	backup := model.FileHistoryDir + "/" + filehistgen.SessionID + "/" + f.l.BackupName("README.md", 2)
	h := FileHit{SessionID: filehistgen.SessionID, Backup: backup, Note: "hit 1/1",
		Spot: hit.Spot{Line: 2, Offset: len("# App\n"), Where: "backup v2 of README.md", Snippet: "new line", Match: [2]int{0, 3}}}
	if out := run(m.OpenHit(h)); len(out) != 0 {
		t.Fatalf("before the sessions are listed the hit should wait, sent %#v", out)
	}
	out := run(m.setSessions(sessionsFixture))
	if len(out) != 1 || out[0] != (LoadSession{SessionID: filehistgen.SessionID, Transcript: sessionsFixture[0].Transcript}) {
		t.Fatalf("the listed sessions should ask for the hit's, sent %#v", out)
	}
	out = run(m.setSession(&f.s))
	req, ok := out[0].(DiffRequest)
	if len(out) != 1 || !ok || !req.Content || req.TrackingPath != "README.md" || req.From.Version != 2 {
		t.Fatalf("at the version, the pane should ask for its text, sent %#v", out)
	}
	answerContent(t, f, &m, req)
	v := ansi.Strip(m.View())
	for _, want := range []string{"turn a0000002 › README.md", "README.md  v2 · the version's text", "⌕ search hit: line 2 · backup v2 of README.md", "▶ 2 │ «new» line", "  1 │ # App"} {
		if !strings.Contains(v, want) {
			t.Errorf("the pane should show %q:\n%s", want, v)
		}
	}
	m, _ = press(t, m, "esc")
	if r, ok := m.Selected(); m.Level() != LevelFiles || !ok || r.File == nil || r.File.TrackingPath != "README.md" {
		t.Errorf("esc should go back to the files with README.md selected:\n%s", ansi.Strip(m.View()))
	}
	// Another version of the file shows its text without a mark.
	m = pressAnswered(t, f, m, "enter")
	m, out = press(t, m, "k")
	if len(out) == 1 {
		answerContent(t, f, &m, out[0].(DiffRequest))
	}
	if v := ansi.Strip(m.View()); strings.Contains(v, "▶") || !strings.Contains(v, "old line") {
		t.Errorf("v1's text should show, unmarked:\n%s", v)
	}
}

// A hit the pane cannot show says why, after what the root said of it.
func TestFilesPaneSearchHitNotFound(t *testing.T) {
	f := newFixture(t)
	m := newPane(100, 30)
	m.setSessions(sessionsFixture)
	out := run(m.OpenHit(FileHit{SessionID: "gone-session", Backup: "file-history/gone-session/x@v1", Note: "hit 2/3"}))
	if st, ok := out[0].(msgs.Status); len(out) != 1 || !ok || !strings.HasPrefix(st.Text, "hit 2/3: the Files pane does not list session gone-ses") {
		t.Errorf("an unlisted session should be named, sent %#v", out)
	}
	m = openSession(t, f, m)
	out = run(m.OpenHit(FileHit{SessionID: filehistgen.SessionID, Backup: "file-history/" + filehistgen.SessionID + "/0000000000000000@v9", Note: "hit 1/1"}))
	if st, ok := out[0].(msgs.Status); len(out) != 1 || !ok || !strings.Contains(st.Text, "tracks no file whose backup is 0000000000000000@v9") {
		t.Errorf("a backup no file has should be named, sent %#v", out)
	}
	if m.Level() != LevelTurns {
		t.Errorf("the pane should stay where it was, at level %d", m.Level())
	}
}

// space cycles the selected version's detail: the diff against the disk,
// against the next version, the version's text.
func TestFilesPaneToggleCycles(t *testing.T) {
	f := newFixture(t)
	m := openSession(t, f, newPane(100, 30))
	m, _ = press(t, m, "enter", "j") // the first turn's files: README.md
	m = pressAnswered(t, f, m, "enter")
	want := []string{"v1 → disk", "v1 → v2", "v1 · the version's text", "v1 → disk"}
	for i, w := range want {
		if i > 0 {
			var out []tea.Msg
			m, out = press(t, m, "space")
			for _, o := range out {
				if req := o.(DiffRequest); req.Content {
					answerContent(t, f, &m, req)
				} else {
					answerDiff(t, f, &m, req)
				}
			}
		}
		if v := ansi.Strip(m.View()); !strings.Contains(v, w) {
			t.Errorf("step %d should show %q:\n%s", i, w, v)
		}
	}
}

// A hit whose session the list shown lacks waits for the list being
// read again (Relisting), then asks for the session.
func TestFilesPaneSearchHitWaitsForTheNewList(t *testing.T) {
	m := newPane(100, 30)
	m.setSessions(sessionsFixture[1:])
	h := FileHit{SessionID: filehistgen.SessionID, Backup: "file-history/" + filehistgen.SessionID + "/x@v1", Relisting: true}
	if out := run(m.OpenHit(h)); len(out) != 0 {
		t.Fatalf("the hit should wait for the new list, sent %#v", out)
	}
	out := run(m.setSessions(sessionsFixture))
	if len(out) != 1 || out[0] != (LoadSession{SessionID: filehistgen.SessionID, Transcript: sessionsFixture[0].Transcript}) {
		t.Fatalf("the new list should ask for the hit's session, sent %#v", out)
	}
	// Without a new list coming, a missing session is said at once.
	m = newPane(100, 30)
	m.setSessions(sessionsFixture[1:])
	h.Relisting = false
	if out := run(m.OpenHit(h)); len(out) != 1 {
		t.Fatalf("a missing session should be said, sent %#v", out)
	}
}

// A session with one backup says "1 backup" in its row and its detail
// (the Count writer), in the row's column width; before, "1 backups".
func TestOneBackupIsSingular(t *testing.T) {
	m := newPane(100, 20)
	s := filehist.SessionSummary{SessionID: "0ne5e55-0000", Transcript: "projects/p/0ne5e55-0000.jsonl", Backups: 1, Bytes: 10, ModTime: time.Date(2026, 10, 1, 8, 0, 0, 0, time.UTC)}
	many := s
	many.Backups = 12
	one, twelve := m.renderRow(Row{Session: &s}, false, 100), m.renderRow(Row{Session: &many}, false, 100)
	if !strings.Contains(one, "  1 backup ") || strings.Contains(one, "1 backups") || !strings.Contains(twelve, " 12 backups ") {
		t.Errorf("rows:\n%s\n%s", one, twelve)
	}
	if strings.Index(one, "10B") != strings.Index(twelve, "10B") {
		t.Errorf("the size column moved:\n%s\n%s", one, twelve)
	}
}

// At 80 columns the restore question wraps instead of being cut (it was
// cut before "y/n"), and under a head that wraps (the crumbs at 30
// columns) a click selects the row clicked.
func TestHeadWrapsAndClicksLand(t *testing.T) {
	f := newFixture(t)
	m := newPane(80, 24)
	m.setSessions(sessionsFixture)
	for _, k := range []string{"enter", "enter", "G", "enter", "space", "a"} {
		m = pressAnswered(t, f, m, k)
	}
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if !m.confirm || !strings.Contains(squeeze(screen(f, m)), squeeze(m.confirmLine())) {
		t.Errorf("the question is not whole (asking: %v):\n%s", m.confirm, screen(f, m))
	}
	m = newPane(30, 20)
	m.setSessions(sessionsFixture)
	for _, k := range []string{"enter", "enter", "G", "enter"} {
		m = pressAnswered(t, f, m, k)
	}
	if m.headRows() < 2 || m.list.Len() < 2 {
		t.Fatalf("want a head of 2 lines or more over 2 rows or more: %d, %d\n%s", m.headRows(), m.list.Len(), screen(f, m))
	}
	lines := strings.Split(screen(f, m), "\n")
	second := m.list.View(m.renderRow)
	row := ansi.Strip(strings.Split(second, "\n")[1])
	y := -1
	for i, l := range lines {
		if strings.TrimRight(l, " ") == strings.TrimRight(row, " ") {
			y = i
		}
	}
	m.ClickRow(y)
	if m.list.Index() != 1 {
		t.Errorf("a click on the second row (line %d) selected row %d:\n%s", y+1, m.list.Index()+1, screen(f, m))
	}
}
