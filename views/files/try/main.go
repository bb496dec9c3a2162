// Command try runs the Files pane alone on a home, with a minimal root
// that does the pane's I/O the way ui/ should: it answers LoadSession,
// DiffRequest, PlanRequest, RestoreRequest and UndoRequest with the
// engine calls they name. For trying the pane by hand (and in tmux):
//
//	go run ./views/files/try --home DIR
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/files"
	"github.com/memscope/memscope/views/msgs"
	"github.com/memscope/memscope/views/style"
)

type root struct {
	home   *model.Home
	keys   keymap.KeyMap
	pane   files.Model
	status string
}

type sessionMsg struct {
	s   *engine.SessionFileHistory
	err error
}

type planMsg struct {
	p   *engine.FileRestorePlan
	err error
}

type doneMsg struct {
	sid string
	ch  engine.Change
	err error
}

func (r root) Init() tea.Cmd {
	fsys := r.home.FS
	return func() tea.Msg {
		s, _ := engine.FileHistorySessions(fsys)
		return s
	}
}

func (r root) load(sid, transcript string) tea.Cmd {
	fsys := r.home.FS
	return func() tea.Msg {
		s, err := engine.ReadSessionFileHistory(fsys, model.SessionID(sid), transcript)
		return sessionMsg{&s, err}
	}
}

func (r root) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	fsys, dir := r.home.FS, r.home.Dir
	cur := r.pane.Session()
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		r.pane.SetSize(msg.Width, msg.Height-2)
		return r, nil
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, r.keys.Quit) && !r.pane.Filtering():
			return r, tea.Quit
		case key.Matches(msg, r.keys.Undo) && !r.pane.Filtering() && cur != nil:
			return r, func() tea.Msg { return files.UndoRequest{SessionID: string(cur.SessionID)} }
		}
	case []engine.FileHistorySessionSummary:
		r.pane.SetSessions(msg)
		return r, nil
	case files.LoadSession:
		return r, r.load(msg.SessionID, msg.Transcript)
	case sessionMsg:
		if msg.err != nil {
			r.status = msg.err.Error()
			return r, nil
		}
		return r, r.pane.SetSession(msg.s)
	case files.DiffRequest:
		return r, func() tea.Msg {
			f, ok := cur.File(msg.TrackingPath)
			if !ok {
				return files.DiffResult{Request: msg, Err: fmt.Errorf("no file %s", msg.TrackingPath)}
			}
			d, err := engine.FileVersionDiff(fsys, f, msg.From, msg.To)
			return files.DiffResult{Request: msg, Diff: d, Err: err}
		}
	case files.DiffResult:
		r.pane.SetDiff(msg)
		return r, nil
	case files.PlanRequest:
		return r, func() tea.Msg {
			if msg.Turn != "" {
				p, err := engine.PlanTurnRestore(fsys, cur, msg.Turn)
				return planMsg{p, err}
			}
			p, err := engine.PlanVersionRestore(fsys, cur, msg.TrackingPath, msg.Version)
			return planMsg{p, err}
		}
	case planMsg:
		return r, r.pane.SetPlan(msg.p, msg.err)
	case files.RestoreRequest:
		p := msg.Plan
		return r, func() tea.Msg {
			ch, err := engine.ApplyFileRestore(dir, fsys, p, time.Now())
			return doneMsg{string(p.SessionID), ch, err}
		}
	case files.UndoRequest:
		return r, func() tea.Msg {
			ch, err := engine.UndoFileRestore(dir, model.SessionID(msg.SessionID))
			return doneMsg{msg.SessionID, ch, err}
		}
	case doneMsg:
		if msg.err != nil {
			r.status = "error: " + msg.err.Error()
			return r, nil
		}
		r.status = fmt.Sprintf("%s: %d file(s)", msg.ch.Summary, len(msg.ch.Files))
		if msg.ch.ID != "" && msg.ch.Op != "" && !strings.HasPrefix(msg.ch.Summary, "undo:") {
			r.status += "; u undoes it"
		}
		return r, r.load(msg.sid, cur.Transcript)
	case msgs.Status:
		r.status = msg.Text
		return r, nil
	}
	var cmd tea.Cmd
	r.pane, cmd = r.pane.Update(msg)
	return r, cmd
}

func (r root) View() tea.View {
	v := tea.NewView(r.pane.View() + "\n" + model.SanitizeForTerminal(r.status))
	v.AltScreen = true
	return v
}

func main() {
	dir := flag.String("home", "", "Claude home folder")
	flag.Parse()
	home, err := model.OpenHome(*dir, model.HomeFromFlag)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	keys := keymap.Default()
	r := root{home: home, keys: keys, pane: files.New(keys, style.New(true, os.Getenv("NO_COLOR") != ""))}
	if _, err := tea.NewProgram(r).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
