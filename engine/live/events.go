package live

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// EventKind names what happened.
type EventKind string

// The events Diff reports.
const (
	// EventSessionStarted and EventSessionEnded: a session appeared in or
	// left the running set.
	EventSessionStarted EventKind = "session-started"
	EventSessionEnded   EventKind = "session-ended"
	// EventContextLevel: a session's context crossed a level (warning,
	// autocompact, blocked), either way.
	EventContextLevel EventKind = "context-level"
	// EventCompaction: a session compacted (Compaction says where, and the
	// tokens before and after).
	EventCompaction EventKind = "compaction"
	// EventMemoryWritten and EventMemoryDeleted: a memory file was
	// created or changed, or removed.
	EventMemoryWritten EventKind = "memory-written"
	EventMemoryDeleted EventKind = "memory-deleted"
	// EventIndexCap: MEMORY.md went over (or back under) its line or
	// size cap.
	EventIndexCap EventKind = "memory-index-cap"
	// EventPasteMissing: a paste history refers to is no longer there.
	EventPasteMissing EventKind = "paste-missing"
)

// Event is one thing that happened between two snapshots. Kind says which
// of the optional fields are set; Text says it in a sentence. It encodes
// as one JSON object per line (NDJSON) as it is.
type Event struct {
	Kind EventKind `json:"kind"`
	// Time is when it happened: the boundary's timestamp for a
	// compaction, the snapshot's time otherwise.
	Time time.Time `json:"time"`
	// SessionID and Transcript name the session concerned (for memory
	// writes, the running session that wrote the file, when one did).
	SessionID  string `json:"sessionId,omitempty"`
	Transcript string `json:"transcript,omitempty"`
	Project    string `json:"project,omitempty"`
	// From and To are the levels of a context-level event; Tokens the
	// context then and Threshold the level's threshold (To's, or From's
	// when going down).
	From      window.Level  `json:"from,omitempty"`
	To        window.Level  `json:"to,omitempty"`
	Tokens    window.Tokens `json:"tokens,omitempty"`
	Threshold window.Tokens `json:"threshold,omitempty"`
	// Compaction is the compaction of a compaction event.
	Compaction *Compaction `json:"compaction,omitempty"`
	// Path is the memory file (absolute) of a memory or index event;
	// Size its size after a write.
	Path string `json:"path,omitempty"`
	Size int64  `json:"size,omitempty"`
	// Cap is "lines" or "chars" for an index event, Over whether the file
	// is now over it, Value and Limit the figure and the cap.
	Cap   string `json:"cap,omitempty"`
	Over  *bool  `json:"over,omitempty"`
	Value int    `json:"value,omitempty"`
	Limit int    `json:"limit,omitempty"`
	// Hash and Status are the paste of a paste event and how it resolves
	// now.
	Hash   model.PasteHash   `json:"hash,omitempty"`
	Status model.PasteStatus `json:"status,omitempty"`
	Text   string            `json:"text"`
}

// Diff returns what happened between prev and next, in a stable order:
// sessions by id (started, level, compactions, ended; a session is
// running from its process file on, before its transcript has a line),
// then memory
// folders by path, then pastes by hash. It is pure: the same snapshots
// give the same events. A memory folder or paste map that prev did not
// follow gives no events (it is new to the watcher, not new on disk).
func Diff(prev, next Snapshot) []Event {
	var out []Event
	before, beforeRunning := sessionsOf(prev)
	after, afterRunning := sessionsOf(next)
	for _, id := range slices.Sorted(maps.Keys(afterRunning)) {
		s := afterRunning[id]
		if _, was := beforeRunning[id]; !was {
			out = append(out, sessionEvent(EventSessionStarted, next.Time, s, "session "+shortID(id)+" started in "+orUnknown(s.Project)))
			continue
		}
		p, had := before[id]
		n, has := after[id]
		if had && has {
			out = append(out, levelEvents(p, n, next.Time)...)
			out = append(out, compactionEvents(p, n)...)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(beforeRunning)) {
		if _, still := afterRunning[id]; !still {
			p := beforeRunning[id]
			out = append(out, sessionEvent(EventSessionEnded, next.Time, p, "session "+shortID(id)+" is no longer running"))
		}
	}
	out = append(out, memoryEvents(prev, next)...)
	return append(out, pasteEvents(prev, next)...)
}

// sessionsOf are a snapshot's session statuses by id, and every running
// session by id: its status, or for a client that has not written its
// transcript yet, what its process file says.
func sessionsOf(s Snapshot) (status, running map[string]SessionStatus) {
	status, running = map[string]SessionStatus{}, map[string]SessionStatus{}
	for _, st := range s.Sessions {
		status[st.SessionID], running[st.SessionID] = st, st
	}
	for _, r := range s.Running {
		if _, ok := running[r.SessionID]; !ok {
			running[r.SessionID] = SessionStatus{SessionID: r.SessionID, Transcript: r.Transcript, Project: r.CWD}
		}
	}
	return status, running
}

func sessionEvent(k EventKind, t time.Time, s SessionStatus, text string) Event {
	return Event{Kind: k, Time: t, SessionID: s.SessionID, Transcript: s.Transcript, Project: s.Project, Text: text}
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown folder"
	}
	return s
}

// levelRank orders the levels; an unknown context counts as ok.
func levelRank(l window.Level) int {
	return slices.Index([]window.Level{window.LevelOK, window.LevelWarning, window.LevelAutocompact, window.LevelBlocked}, l)
}

func levelEvents(p, s SessionStatus, t time.Time) []Event {
	from, to := p.Level, s.Level
	if !p.ContextKnown {
		from = window.LevelOK
	}
	if !s.ContextKnown || from == to {
		return nil
	}
	e := sessionEvent(EventContextLevel, t, s, "")
	e.From, e.To, e.Tokens = from, to, s.Context
	up := levelRank(to) > levelRank(from)
	e.Threshold = threshold(s, to)
	if !up {
		e.Threshold = threshold(s, from)
	}
	pct := 100 * float64(s.Context) / float64(max(s.Window.ContextWindow, 1))
	if up {
		e.Text = fmt.Sprintf("session %s context reached %s: %d tokens (%.0f%% of %d; %s at %d)", shortID(s.SessionID), to, s.Context, pct, s.Window.ContextWindow, to, e.Threshold)
		if l := s.Limits; l != nil && l.ShortSource() != "" && (to == window.LevelWarning || to == window.LevelAutocompact) {
			// The level is not the default one: say what moved it.
			e.Text += " · " + l.Line()
		}
	} else {
		e.Text = fmt.Sprintf("session %s context fell back to %s: %d tokens (%.0f%%)", shortID(s.SessionID), to, s.Context, pct)
	}
	return []Event{e}
}

func threshold(s SessionStatus, l window.Level) window.Tokens {
	switch l {
	case window.LevelWarning:
		return s.Thresholds.Warning
	case window.LevelAutocompact:
		return s.Thresholds.Autocompact
	case window.LevelBlocked:
		return s.Thresholds.Blocked
	}
	return 0
}

func compactionEvents(p, s SessionStatus) []Event {
	seen := map[string]bool{}
	for _, c := range p.Compactions {
		seen[compactionKey(c)] = true
	}
	var out []Event
	for _, c := range s.Compactions {
		if seen[compactionKey(c)] {
			continue
		}
		e := sessionEvent(EventCompaction, c.Time, s, "")
		cc := c
		e.Compaction = &cc
		e.Text = fmt.Sprintf("session %s compacted (%s) at line %d: %s → %s tokens", shortID(s.SessionID),
			cmp.Or(string(c.Trigger), "unknown trigger"), c.Line, tokens(c.PreTokens), tokens(c.PostTokens))
		if c.Kind != timeline.BoundaryCompact {
			e.Text = fmt.Sprintf("session %s microcompacted at line %d (%s tokens before)", shortID(s.SessionID), c.Line, tokens(c.PreTokens))
		}
		out = append(out, e)
	}
	return out
}

func compactionKey(c Compaction) string { return fmt.Sprintf("%s@%d", c.UUID, c.Line) }

func tokens(n *int) string {
	if n == nil {
		return "?"
	}
	return fmt.Sprint(*n)
}

// memoryEvents compares the memory folders both snapshots follow.
func memoryEvents(prev, next Snapshot) []Event {
	before := map[string]MemoryState{}
	for _, m := range prev.Memory {
		before[m.Dir] = m
	}
	writer := map[string]SessionStatus{} // absolute path → latest writer
	for _, s := range next.Sessions {
		for _, w := range s.MemoryWrites {
			if cur, ok := writer[w.Path]; !ok || latestWrite(s, w.Path).After(latestWrite(cur, w.Path)) {
				writer[w.Path] = s
			}
		}
	}
	var out []Event
	next.Memory = slices.Clone(next.Memory)
	slices.SortFunc(next.Memory, func(a, b MemoryState) int { return strings.Compare(a.Dir, b.Dir) })
	for _, m := range next.Memory {
		p, ok := before[m.Dir]
		if !ok {
			continue
		}
		for _, rel := range slices.Sorted(maps.Keys(m.Files)) {
			st := m.Files[rel]
			if old, had := p.Files[rel]; had && old.Same(st) {
				continue
			}
			abs := path.Join(m.Dir, rel)
			e := Event{Kind: EventMemoryWritten, Time: next.Time, Path: abs, Size: st.Size, Text: "memory file " + abs + " written"}
			if w, ok := writer[abs]; ok {
				e.SessionID, e.Transcript, e.Project = w.SessionID, w.Transcript, w.Project
				e.Text += " by session " + shortID(w.SessionID)
			}
			out = append(out, e)
		}
		for _, rel := range slices.Sorted(maps.Keys(p.Files)) {
			if _, still := m.Files[rel]; !still {
				abs := path.Join(m.Dir, rel)
				out = append(out, Event{Kind: EventMemoryDeleted, Time: next.Time, Path: abs, Text: "memory file " + abs + " deleted"})
			}
		}
		out = append(out, indexEvents(p.Index, m.Index, path.Join(m.Dir, model.MemoryIndexName), next.Time)...)
	}
	return out
}

func latestWrite(s SessionStatus, p string) time.Time {
	for _, w := range s.MemoryWrites {
		if w.Path == p {
			return w.Time
		}
	}
	return time.Time{}
}

// indexEvents reports MEMORY.md crossing its caps; a missing file is
// under both.
func indexEvents(p, n *IndexState, file string, t time.Time) []Event {
	var a, b IndexState
	if p != nil {
		a = *p
	}
	if n != nil {
		b = *n
	}
	var out []Event
	check := func(capName string, was, is bool, value, limit int, show func(int) string) {
		if was == is {
			return
		}
		over := is
		e := Event{Kind: EventIndexCap, Time: t, Path: file, Cap: capName, Over: &over, Value: value, Limit: limit}
		if is {
			e.Text = fmt.Sprintf("%s is over its %s cap: %s (limit %s); the client cuts it when it loads it", file, capName, show(value), show(limit))
		} else {
			e.Text = fmt.Sprintf("%s is back under its %s cap: %s (limit %s)", file, capName, show(value), show(limit))
		}
		out = append(out, e)
	}
	check("lines", a.LinesOver, b.LinesOver, b.Lines, memindex.MaxLines, func(n int) string { return fmt.Sprint(n) })
	check("chars", a.CharsOver, b.CharsOver, b.Chars, memindex.MaxChars, format.ClientFileSize)
	return out
}

// pasteEvents reports pastes that resolved before and are missing now,
// and pastes history newly refers to that are already missing.
func pasteEvents(prev, next Snapshot) []Event {
	if prev.Pastes == nil || next.Pastes == nil {
		return nil
	}
	var out []Event
	for _, h := range slices.Sorted(maps.Keys(next.Pastes)) {
		st := next.Pastes[h]
		old, had := prev.Pastes[h]
		if st != model.PasteMissing || had && old == model.PasteMissing {
			continue
		}
		text := "paste " + string(h) + " went missing (history still refers to it)"
		if !had {
			text = "history refers to paste " + string(h) + ", which is missing"
		}
		out = append(out, Event{Kind: EventPasteMissing, Time: next.Time, Hash: h, Status: st, Text: text})
	}
	return out
}
