package files

import (
	"fmt"
	"path"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/views/component/hit"
	"github.com/memscope/memscope/views/component/text"
)

// A search hit in a backup opens the pane at it: the session (asked for
// when it is not the one shown), the turn that first saved the version,
// the file and the version, with the version's text shown and the hit's
// line marked.

// FileHit is a search hit in a file-history backup.
type FileHit struct {
	SessionID string
	// Backup is the backup's path inside the home:
	// file-history/<session>/<hash>@v<N>.
	Backup string
	Spot   hit.Spot
	// Note is what the status line says of the hit; when the pane cannot
	// show it, the reason is added to it.
	Note string
	// Relisting says the sessions are being listed again: a session
	// the list shown lacks is looked for in the new one.
	Relisting bool
}

// shownHit is the hit the pane was opened at; pending until the pane
// is at its version.
type shownHit struct {
	FileHit
	pending bool
}

// OpenHit goes to the version of the backed-up file h is in and shows
// its text at the hit: at once when the session is the one shown, else
// after the pane has its sessions and then the session (the returned
// command asks for it).
func (m *Model) OpenHit(h FileHit) tea.Cmd {
	m.hit = &shownHit{FileHit: h, pending: true}
	m.confirm, m.plan = false, nil
	m.det.Unzoom()
	defer m.layout()
	return m.goToHit()
}

// goToHit takes the pending hit one step further: asks for its session,
// or goes to its version.
func (m *Model) goToHit() tea.Cmd {
	h := m.hit
	switch {
	case h == nil || !h.pending:
		return nil
	case m.session != nil && string(m.session.SessionID) == h.SessionID:
		return m.placeHit()
	case m.loading == h.SessionID || !m.loaded:
		return nil // the session, or the list, is on its way
	}
	for i, s := range m.sessions {
		if string(s.SessionID) == h.SessionID {
			m.cursors[LevelSessions] = i
			m.session, m.turn, m.file, m.loading = nil, nil, nil, h.SessionID
			m.showLevel(LevelTurns)
			return send(LoadSession{SessionID: h.SessionID, Transcript: s.Transcript})
		}
	}
	if h.Relisting {
		h.Relisting = false // SetSessions looks again
		return nil
	}
	return m.dropHit("the Files pane does not list session " + format.ShortID(h.SessionID) + ": its file-history folder is gone")
}

// dropHit gives up on the pending hit and says why.
func (m *Model) dropHit(why string) tea.Cmd {
	note := m.hit.Note
	m.hit = nil
	if note != "" {
		why = note + ": " + why
	}
	return status(why, false)
}

// placeHit goes to the hit's version in the session shown.
func (m *Model) placeHit() tea.Cmd {
	h, s := m.hit, m.session
	for i, ss := range m.sessions {
		if string(ss.SessionID) == h.SessionID {
			m.cursors[LevelSessions] = i
		}
	}
	for fi := range s.Files {
		f := &s.Files[fi]
		for vi := range f.Versions {
			v := &f.Versions[vi]
			if v.BackupPath != h.Backup {
				continue
			}
			m.turn, m.cursors[LevelTurns] = nil, 0
			if len(v.Turns) > 0 {
				for ti := range s.Turns {
					if s.Turns[ti].MessageID == v.Turns[0] {
						m.turn, m.cursors[LevelTurns] = &s.Turns[ti], ti
					}
				}
			}
			m.file, m.cursors[LevelFiles] = f, fi
			h.pending = false
			m.base = showContent
			m.showLevel(LevelVersions)
			m.list.Select(vi)
			return m.diffIfMoved(DiffRequest{})
		}
	}
	return m.dropHit("session " + format.ShortID(h.SessionID) + " tracks no file whose backup is " + path.Base(h.Backup) + " (no record of the transcript names it)")
}

// hitIn is the hit when it is in version v of the file shown.
func (m Model) hitIn(v *filehist.FileVersion) *shownHit {
	if m.hit == nil || m.hit.pending || v == nil || v.BackupPath != m.hit.Backup {
		return nil
	}
	return m.hit
}

// contentDoc places the text of a Content result, with the hit when the
// text is the hit's version.
func (m *Model) contentDoc(d DiffResult) *hit.Doc {
	if !d.Request.Content || !d.Loaded || d.Err != nil || d.Absent || strings.IndexByte(d.Diff, 0) >= 0 || m.session == nil {
		return nil
	}
	spot := hit.Spot{Offset: -1}
	if f, ok := m.session.File(d.Request.TrackingPath); ok {
		if v, ok := f.Version(d.Request.From.Version); ok {
			if h := m.hitIn(v); h != nil {
				spot = h.Spot
			}
		}
	}
	return hit.NewDoc(d.Diff, spot)
}

// contentLines are the selected version's text, the hit marked when it
// is in it, and the line the detail opens at.
func (m Model) contentLines(v *filehist.FileVersion) ([]string, int) {
	d := m.diff
	lines := []string{m.styles.Bold.Render(m.fit(fmt.Sprintf("%s  v%d · the version's text", clean(d.Request.TrackingPath), v.Version)))}
	switch {
	case d.Err != nil:
		return append(lines, m.styles.Error.Render(m.fit(clean(d.Err.Error())))), 0
	case !d.Loaded:
		return append(lines, m.styles.Dim.Render("loading the text…")), 0
	case d.Absent:
		return append(lines, m.styles.Dim.Render(m.fit("the file did not exist at this version (restoring it deletes the file)"))), 0
	case m.doc == nil:
		return append(lines, m.styles.Dim.Render(m.fit(fmt.Sprintf("binary content, %s: not shown", text.Bytes(int64(len(d.Diff))))))), 0
	}
	if h := m.hitIn(v); h != nil {
		lines = append(lines, hit.Header(h.Spot, m.styles, m.width)...)
		if !m.doc.Found() {
			lines = append(lines, m.styles.Warn.Render(m.fit(fmt.Sprintf("line %d no longer holds the match: the backup changed since the search", m.doc.Line()))))
		}
	}
	body, at := m.doc.Lines(m.styles, m.cutWidth())
	top := 0
	if m.hitIn(v) != nil && at >= 0 {
		top = max(len(lines)+at-hitContext, 0)
	}
	return append(lines, body...), top
}

// hitContext is how many lines above a hit's line the detail opens at.
const hitContext = 2
