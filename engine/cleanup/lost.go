package cleanup

import (
	"strings"
	"time"

	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// history.jsonl outlives the transcripts: the client's cleanup never
// sweeps it, so it keeps naming sessions whose transcripts are gone and
// pastes whose text is gone. Lost is that list: what earlier sweeps
// already deleted, which no archive taken now can bring back.

// maxPromptRunes bounds the first prompt kept for a lost session.
const maxPromptRunes = 100

// Lost is what history names that is no longer on disk.
type Lost struct {
	// Sessions are the sessions history names without a transcript,
	// oldest first.
	Sessions []LostSession `json:"sessions"`
	// Pastes are the history references whose paste text is gone.
	Pastes []LostPaste `json:"pastes"`
	// From and To span the lost sessions' prompts (zero when none).
	From time.Time `json:"from,omitzero"`
	To   time.Time `json:"to,omitzero"`
	// Unattributed counts history lines without a sessionId (written by
	// older clients), which cannot be matched with a transcript.
	Unattributed int `json:"unattributed"`
}

// LostSession is a session history names whose transcript is gone.
type LostSession struct {
	SessionID model.SessionID `json:"sessionId"`
	Project   string          `json:"project"`
	First     time.Time       `json:"first"`
	Last      time.Time       `json:"last"`
	Prompts   int             `json:"prompts"`
	// FirstPrompt is the session's first prompt as history shows it,
	// cut to about 100 characters.
	FirstPrompt string `json:"firstPrompt"`
	// Line is the first prompt's line in history.jsonl.
	Line int `json:"line"`
}

// LostPaste is a history reference to a paste that is gone.
type LostPaste struct {
	File      string          `json:"file"`
	Line      int             `json:"line"`
	PasteID   model.PasteID   `json:"pasteId"`
	Hash      model.PasteHash `json:"hash"`
	Project   string          `json:"project,omitempty"`
	SessionID model.SessionID `json:"sessionId,omitempty"`
	Time      time.Time       `json:"time,omitzero"`
}

// firstWords is a prompt on one line, cut at a word near maxPromptRunes.
func firstWords(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= maxPromptRunes {
		return s
	}
	cut := string(r[:maxPromptRunes])
	if i := strings.LastIndexByte(cut, ' '); i > maxPromptRunes/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

// span sets From and To from the sessions.
func (l *Lost) span() {
	for _, s := range l.Sessions {
		if !s.First.IsZero() && (l.From.IsZero() || s.First.Before(l.From)) {
			l.From = s.First
		}
		if s.Last.After(l.To) {
			l.To = s.Last
		}
	}
}

// Summary says in one line what is lost: "already lost: 14 sessions,
// 2026-06-01 … 2026-09-30; 3 pastes", or "" when nothing is.
func (l Lost) Summary(loc *time.Location) string {
	var parts []string
	if n := len(l.Sessions); n > 0 {
		s := format.Count(n, "session", "sessions")
		if !l.From.IsZero() {
			s += ", " + l.From.In(loc).Format("2006-01-02") + " … " + l.To.In(loc).Format("2006-01-02")
		}
		parts = append(parts, s)
	}
	if n := len(l.Pastes); n > 0 {
		parts = append(parts, format.Count(n, "paste", "pastes"))
	}
	if len(parts) == 0 {
		return ""
	}
	return "already lost: " + strings.Join(parts, "; ")
}

// ArchiveAdvice is what to do so the next sweep loses nothing more.
const ArchiveAdvice = "history still names them, but their text is gone for good; so that the next sweep loses nothing more, archive first: memscope archive --to DIR (a in the Retention pane)"
