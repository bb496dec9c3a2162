package feed

import (
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/projects"
)

// The Projects list's start: the transcripts' last activities from the
// Overview's shared pass (enginesessions.ActiveHandoff), not from a read
// of each transcript's end before the pass reads it whole.

// TakeActiveFrom makes the start's whole read take the last activities
// of the transcripts the cache does not answer for from the shared pass
// (the Overview's, which reads every transcript a moment later) rather
// than read their ends first: the list shows their modification times
// until the pass ends (HomeActive). When start (memscope's start folder,
// Options.Project) names no listed project, the project opened is the
// most recently active: the read first reads the ends that can make one
// so (enginesessions.LastActiveNewest) and leaves the others to the pass.
func (h *Home) TakeActiveFrom(a *enginesessions.ActiveHandoff, start string) {
	h.handoff, h.start = a, start
}

// HomeActive is the last activity of the transcripts a whole read left
// pending, by path, with each transcript as it was listed.
type HomeActive struct {
	active map[string]enginesessions.Active
	files  map[string]model.TranscriptFile
}

// startsIn says start names a project of ps, or a folder below one
// (Listed's projectFor on the list ps): the project to open does not
// depend on when each was last active.
func startsIn(fsys fs.FS, ps []model.Project, start string) bool {
	if start == "" {
		return false
	}
	for d := filepath.Clean(start); ; d = filepath.Dir(d) {
		for _, p := range ps {
			if p.Path == d {
				return true
			}
		}
		if _, ok := model.FindProjectDir(fsys, d); ok {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// FillActive is the read that fills in the last activities the start's
// list left pending (nil when none are): the shared pass's answers once
// it ended, else, when no pass reads the transcripts now (passRunning
// false: the Overview counts no line, so none will run before the app
// asks again), their ends read at once. While the pass runs it is nil:
// the list never reads an end the pass is reading. The app asks after
// the list and after each Overview line (the pass runs in one).
func (h *Home) FillActive(passRunning bool) tea.Cmd {
	if len(h.pending) == 0 || passRunning && !h.handoff.HasEnded() {
		return nil
	}
	pending := h.pending
	h.pending = nil
	fsys, from, cache, homeDir := h.home.FS, h.handoff, h.cache, h.home.Dir
	return func() tea.Msg {
		files := make(map[string]model.TranscriptFile, len(pending))
		for _, t := range pending {
			files[t.Path] = t
		}
		return HomeActive{active: enginesessions.LastActiveFrom(fsys, pending, from, cache, homeDir), files: files}
	}
}

// Active takes the last activities of the transcripts the start's read
// left pending: each one still listed as it was then updates its
// project's row.
//
// The list that opened the most recently active project without reading
// the pending ends (enginesessions.LastActiveNewest) checks its pick:
// when a pending transcript turns out newer than its modification time
// said and another project is the most recently active, Open names it
// (open is the project open now: a project the user opened since stays).
func (h *Home) Active(msg HomeActive, open string, now time.Time) HomeOut {
	rows := slices.Clone(h.rows)
	if h.active == nil {
		h.active = map[string]enginesessions.Active{}
	}
	for i := range rows {
		slug := rows[i].Project.Slug
		touched := false
		for _, t := range h.files[slug] {
			was, ok := msg.files[t.Path]
			if !ok || !SameListing(was, t) {
				continue
			}
			h.active[t.Path] = msg.active[t.Path]
			touched = true
		}
		if touched {
			rows[i].LastActive = lastActive(h.files[slug], h.active)
		}
	}
	h.rows = rows
	out := HomeOut{Rows: projects.RowsMsg{Rows: rows, Now: now}}
	if h.picked != "" && open == h.picked && len(rows) > 0 {
		if newest := newestRow(rows); newest != h.picked {
			out.Open = newest
		}
	}
	h.picked = ""
	return out
}
