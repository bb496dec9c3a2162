package feed

import (
	"fmt"
	"io/fs"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/files"
)

// Files feeds the Files pane: the sessions with file history, one
// session's turns and versions, diffs, restore plans, and the restores
// and their undo. File history is read only while the pane is focused
// (Load): the list again only when file history or the project list
// changed, the open session again only when its transcript changed.
type Files struct {
	// stale says the next Load lists the sessions again; session that
	// it reads the open session again (its transcript changed).
	stale, session bool
	// listing says a list read is under way.
	listing bool
}

// NewFiles returns a feed with nothing read: its first Load lists the
// sessions.
func NewFiles() *Files { return &Files{stale: true} }

// FileSessions is the sessions with file history, listed by a Load.
type FileSessions struct {
	sessions []filehist.SessionSummary
	problems []model.Problem
}

// FileSession is one session's file history, read by a Load or
// ReadSession.
type FileSession struct {
	s   *filehist.SessionFileHistory
	err error
}

// FileRestored ends a restore or its undo.
type FileRestored struct {
	sid, transcript string
	ch              store.Change
	err             error
}

// Invalidate makes the next Load list the sessions again (ctrl+r).
func (f *Files) Invalidate() { f.stale, f.session = true, false }

// Stale reports whether the next Load lists the sessions.
func (f *Files) Stale() bool { return f.stale }

// Listing reports whether a list read is under way.
func (f *Files) Listing() bool { return f.listing }

// Changed notes what a batch of file events (names relative to the
// home) means to the pane showing open (nil for none): file history or
// the project list changed (projects) makes the list stale; the open
// session's transcript, that session.
func (f *Files) Changed(names map[string]bool, projects bool, open *filehist.SessionFileHistory) {
	if projects {
		f.stale = true
	}
	for n := range names {
		switch {
		case n == model.FileHistoryDir || strings.HasPrefix(n, model.FileHistoryDir+"/"):
			f.stale = true
		case open != nil && n == open.Transcript:
			f.session = true
		}
	}
}

// Load reads what is stale, through the home fsys: the list (then the
// open session comes with the list's arrival, Loaded), else the open
// session. nil when nothing is.
func (f *Files) Load(fsys fs.FS, open *filehist.SessionFileHistory) tea.Cmd {
	switch {
	case f.stale:
		f.stale, f.session, f.listing = false, false, true
		return func() tea.Msg {
			s, probs := filehist.Sessions(fsys)
			return FileSessions{sessions: s, problems: probs}
		}
	case f.session && open != nil:
		f.session = false
		return ReadFileSession(fsys, string(open.SessionID), open.Transcript)
	}
	return nil
}

// Loaded takes a list read by Load: the pane's message. (The shell then
// reads the open session again: the disk changed under it.)
func (f *Files) Loaded(msg FileSessions) files.SessionsMsg {
	f.listing = false
	return files.SessionsMsg{Sessions: msg.sessions}
}

// ReadFileSession reads one session's file history.
func ReadFileSession(fsys fs.FS, sid, transcript string) tea.Cmd {
	return func() tea.Msg {
		s, err := filehist.ReadSessionFileHistory(fsys, model.SessionID(sid), transcript)
		return FileSession{&s, err}
	}
}

// Session is the pane's message for a session read, or the error that
// kept it from being read.
func (msg FileSession) Session() (files.SessionMsg, error) {
	return files.SessionMsg{Session: msg.s}, msg.err
}

// FileDiff reads what a diff request asks of the session cur: a
// version's content, or the diff between two versions.
func FileDiff(fsys fs.FS, cur *filehist.SessionFileHistory, req files.DiffRequest) tea.Cmd {
	return func() tea.Msg {
		f, ok := cur.File(req.TrackingPath)
		if !ok {
			return files.DiffResult{Request: req, Err: fmt.Errorf("no tracked file %s", req.TrackingPath)}
		}
		if req.Content {
			data, exists, err := filehist.ReadFileVersion(fsys, f, req.From)
			return files.DiffResult{Request: req, Diff: string(data), Err: err, Absent: err == nil && !exists, Loaded: true}
		}
		d, err := filehist.FileVersionDiff(fsys, f, req.From, req.To)
		return files.DiffResult{Request: req, Diff: d, Err: err, Loaded: true}
	}
}

// FilePlan plans the restore a request asks of the session cur: a turn's
// files, or one file's version.
func FilePlan(fsys fs.FS, cur *filehist.SessionFileHistory, req files.PlanRequest) tea.Cmd {
	return func() tea.Msg {
		if req.Turn != "" {
			p, err := filehist.PlanTurnRestore(fsys, cur, req.Turn)
			return files.PlanMsg{Plan: p, Err: err}
		}
		p, err := filehist.PlanVersionRestore(fsys, cur, req.TrackingPath, req.Version)
		return files.PlanMsg{Plan: p, Err: err}
	}
}

// FileRestore applies a restore plan through the writer w (journaled in
// the home dir, read through fsys); transcript is the open session's,
// read again when it is done.
func FileRestore(w model.WriteFS, dir string, fsys fs.FS, p *filehist.RestorePlan, transcript string, now time.Time) tea.Cmd {
	return func() tea.Msg {
		ch, err := filehist.ApplyRestoreWith(w, dir, fsys, p, now)
		return FileRestored{string(p.SessionID), transcript, ch, err}
	}
}

// FileUndo reverts the session sid's newest restore.
func FileUndo(w model.WriteFS, dir, sid, transcript string) tea.Cmd {
	return func() tea.Msg {
		ch, err := filehist.UndoRestoreWith(w, dir, model.SessionID(sid))
		return FileRestored{sid, transcript, ch, err}
	}
}

// Done is what a restore or undo changed (the status line's summary),
// the session to read again and its transcript, or the error.
func (msg FileRestored) Done() (ch store.Change, sid, transcript string, err error) {
	return msg.ch, msg.sid, msg.transcript, msg.err
}
