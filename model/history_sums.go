package model

import (
	"cmp"
	"maps"
	"slices"
	"time"
)

// HistorySums is a run of history entries as the readers that count them
// read it (the cleanup forecast's dangling pastes and lost sessions,
// stat's counts), without the entries themselves: how many there are,
// one sum per session, and the pastes kept by hash. It costs what the
// sessions and pastes cost, not what the entries do: a start that holds
// history.jsonl for those readers (the History feed's digest) builds and
// keeps this instead of 100 000 entries. Add folds entries in; the zero
// value is the sums of no entry.
type HistorySums struct {
	// Entries counts the entries; Unattributed those without a session;
	// Inline their inline pastes.
	Entries, Unattributed, Inline int
	// Sessions are the sessions the entries name, in the order they are
	// first named.
	Sessions []HistorySession
	// Pastes are the entries' pastes kept by hash (not inline, with a
	// hash), in entry order and by id within an entry
	// (HistoryEntry.SortedPastes).
	Pastes []HistoryPasteRef

	// at is where each session is in Sessions (built when first needed).
	at map[SessionID]int
}

// HistorySession is what the entries of one session sum to.
type HistorySession struct {
	ID SessionID
	// Project, Display and Line are the first entry's.
	Project string
	Display string
	Line    int
	// First is the earliest time that is not zero (zero when all are),
	// the first of equal ones; Last the latest, the first of equal ones.
	First, Last time.Time
	// Prompts counts the entries.
	Prompts int
}

// Fold adds the times and prompts of a later run of the same session
// (its First, Last and Prompts): the sum is as if its entries had
// followed s's.
func (s *HistorySession) Fold(first, last time.Time, prompts int) {
	s.Prompts += prompts
	FoldTimes(&s.First, &s.Last, first, last)
}

// FoldTimes folds the times of a later run of entries (its earliest time
// that is not zero, and latest: first, last) into a run's (*runFirst,
// *runLast), as each of its entries' times would: the earliest not zero,
// the latest, the first of equal ones.
func FoldTimes(runFirst, runLast *time.Time, first, last time.Time) {
	if !first.IsZero() && (runFirst.IsZero() || first.Before(*runFirst)) {
		*runFirst = first
	}
	if last.After(*runLast) {
		*runLast = last
	}
}

// HistoryPasteRef is one paste an entry refers to by hash, with the
// entry's line, project, session and time.
type HistoryPasteRef struct {
	Line      int
	ID        PasteID
	Hash      PasteHash
	Project   string
	SessionID SessionID
	Time      time.Time
}

// SumHistory is the sums of entries.
func SumHistory(entries []HistoryEntry) *HistorySums {
	s := &HistorySums{}
	s.Add(entries)
	return s
}

// Add folds entries, which follow the ones already summed, in.
func (s *HistorySums) Add(entries []HistoryEntry) {
	for i := range entries {
		s.add(&entries[i])
	}
}

// add folds one entry in.
func (s *HistorySums) add(e *HistoryEntry) { s.addAt(e, sessionUnknown) }

// addAt folds one entry in whose session is at k in Sessions, not in
// them yet (sessionNew), or not looked up (sessionUnknown).
func (s *HistorySums) addAt(e *HistoryEntry, k int) {
	s.Entries++
	if e.SessionID == "" {
		s.Unattributed++
	} else {
		if s.at == nil {
			s.index()
		}
		ok := k >= 0
		if k == sessionUnknown {
			k, ok = s.at[e.SessionID]
		}
		if !ok {
			k = len(s.Sessions)
			s.at[e.SessionID] = k
			s.Sessions = append(s.Sessions, HistorySession{ID: e.SessionID, Project: e.Project, Display: e.Display, Line: e.Line,
				First: e.Timestamp, Last: e.Timestamp})
		}
		s.Sessions[k].Fold(e.Timestamp, e.Timestamp, 1)
	}
	if len(e.PastedContents) == 0 {
		return
	}
	n := len(s.Pastes)
	for id, p := range e.PastedContents {
		switch {
		case p.Inline:
			s.Inline++
		case p.Hash != "":
			s.Pastes = append(s.Pastes, HistoryPasteRef{Line: e.Line, ID: id, Hash: p.Hash, Project: e.Project, SessionID: e.SessionID, Time: e.Timestamp})
		}
	}
	if len(s.Pastes)-n > 1 {
		slices.SortFunc(s.Pastes[n:], func(a, b HistoryPasteRef) int { return cmp.Compare(a.ID, b.ID) })
	}
}

// index builds at from Sessions.
func (s *HistorySums) index() {
	s.at = make(map[SessionID]int, len(s.Sessions))
	for i := range s.Sessions {
		s.at[s.Sessions[i].ID] = i
	}
}

// Clone is a copy that Add does not change s through.
func (s *HistorySums) Clone() *HistorySums {
	c := *s
	c.Sessions, c.Pastes = slices.Clone(s.Sessions), slices.Clone(s.Pastes)
	if s.at != nil {
		c.at = maps.Clone(s.at)
	}
	return &c
}

// Refs counts the pastes the summed entries refer to, as PasteRefs.Add
// counts the entries' (into r).
func (s *HistorySums) Refs(r *PasteRefs) {
	if len(r.Counts) == 0 {
		// Sized once: grown entry by entry, the map of a history's
		// thousands of pastes was made over several times.
		r.Counts = make(map[PasteHash]int, len(s.Pastes))
	}
	r.Inline += s.Inline
	for i := range s.Pastes {
		r.Counts[s.Pastes[i].Hash]++
	}
}
