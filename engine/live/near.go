package live

import "github.com/memscope/memscope/engine/window"

// Levels are the user's warning levels in percent of the context window
// (the settings file's live section); a zero keeps the client's level.
type Levels struct {
	WarnPct, AlertPct float64
}

// Alarm is how loud a session's context is: LevelWarning,
// LevelAutocompact or LevelOK. The client's own levels decide, unless the
// user set percentages. The Live pane colours a session by it, and the
// Overview's autocompact line counts the sessions it does not call OK.
func (lv Levels) Alarm(s *SessionStatus) window.Level {
	pct := 100 * s.Fill
	switch {
	case lv.AlertPct > 0 && pct >= lv.AlertPct:
		return window.LevelAutocompact
	case lv.WarnPct > 0 && pct >= lv.WarnPct:
		return window.LevelWarning
	case lv.AlertPct == 0 && (s.Level == window.LevelAutocompact || s.Level == window.LevelBlocked):
		return window.LevelAutocompact
	case lv.WarnPct == 0 && s.Level == window.LevelWarning:
		return window.LevelWarning
	}
	return window.LevelOK
}

// Near reports whether a session is near autocompact: its context is
// known and its alarm is not OK.
func (lv Levels) Near(s *SessionStatus) bool {
	return s != nil && s.ContextKnown && lv.Alarm(s) != window.LevelOK
}

// NearAutocompact counts a snapshot's running sessions (by id: a running
// process, or a status of one) and those of them near autocompact: the
// one rule of the Overview's autocompact line and the Live pane's "near"
// rows.
func NearAutocompact(snap Snapshot, lv Levels) (near, running int) {
	ids := map[string]bool{}
	for _, r := range snap.Running {
		ids[r.SessionID] = true
	}
	for i := range snap.Sessions {
		ids[snap.Sessions[i].SessionID] = true
		if lv.Near(&snap.Sessions[i]) {
			near++
		}
	}
	return near, len(ids)
}
