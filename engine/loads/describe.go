package loads

import (
	"fmt"
	"strings"
	"time"

	"github.com/memscope/memscope/internal/format"
)

// Summary says in words what the recorded sessions saw of the memory's
// index line: the line the CLI's loads report and the Memories pane show.
func (m Memory) Summary() string {
	switch {
	case m.IndexLine == 0 && m.Sessions == 0:
		return "not in MEMORY.md: never in a loaded index"
	case m.PastCut && m.Sessions == 0:
		return fmt.Sprintf("line %d, past the cut: %s", m.IndexLine, m.Unseen())
	case m.PastCut:
		return fmt.Sprintf("line %d, past the cut: %s (seen in %s before)", m.IndexLine, m.Unseen(), sessionsText(m.Sessions))
	case m.IndexLine == 0:
		return fmt.Sprintf("not in MEMORY.md now; loaded in %s, last %s", sessionsText(m.Sessions), day(m.Last))
	case m.Sessions == 0:
		return fmt.Sprintf("line %d: in no recorded session's MEMORY.md", m.IndexLine)
	}
	return fmt.Sprintf("line %d: loaded in %s, last %s", m.IndexLine, sessionsText(m.Sessions), day(m.Last))
}

// Unseen says since when the model has not seen a memory past the cut:
// "" for one whose index line loads.
func (m Memory) Unseen() string {
	switch {
	case !m.PastCut:
		return ""
	case m.Sessions == 0:
		return "never seen by the model (records since " + day(m.UnseenSince) + ")"
	}
	return "not seen by the model since " + day(m.UnseenSince)
}

// day is a date in the report's words.
func day(t time.Time) string { return t.UTC().Format("2006-01-02") }

// sessionsText is "1 session" or "3 sessions".
func sessionsText(n int) string { return format.Count(n, "session", "sessions") }

// Summary says in words which recorded sessions loaded the file.
func (f File) Summary() string {
	s := "loaded in " + sessionsText(f.Sessions)
	if f.MidSession > 0 {
		s += fmt.Sprintf(" (%d times mid-session)", f.MidSession)
		if f.MidSession == 1 {
			s = "loaded in " + sessionsText(f.Sessions) + " (once mid-session)"
		}
	}
	return s + ", last " + day(f.Last)
}

// FileSummary says what the recorded sessions loaded of the file at path
// (as the preview names it): "" when no session recorded its loads.
func (r Report) FileSummary(path string) string {
	if r.Sessions == 0 {
		return ""
	}
	for _, f := range r.Files {
		if f.Path == path {
			return f.Summary()
		}
	}
	return "loaded in none of the " + sessionsText(r.Sessions) + " on record"
}

// Summary says in words a rule's or import's loads in the window;
// sessions is how many sessions of the window recorded their loads.
func (x Expected) Summary(sessions int) string {
	var what string
	switch {
	case x.Kind == KindImport:
		what = fmt.Sprintf("imported by %s (%s now): loaded in %d of the %s that loaded it", x.ImportedFrom, x.Status, x.SessionsInWindow, sessionsText(x.Eligible))
	case x.Conditional:
		what = fmt.Sprintf("paths: %s: joined %d of %s", strings.Join(x.Globs, ", "), x.SessionsInWindow, sessionsText(sessions))
	default:
		what = fmt.Sprintf("at session start: loaded by %d of %s", x.SessionsInWindow, sessionsText(sessions))
	}
	if x.Kind == KindRule && x.Eligible < sessions {
		what += fmt.Sprintf(" (%d since it was last written, %s)", x.Eligible, day(x.ModTime))
	}
	if !x.Last.IsZero() {
		what += ", last " + day(x.Last)
	}
	return what
}
