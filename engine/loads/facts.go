package loads

import (
	"time"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/preview"
)

// LintFacts are the report's rules and imports as lint checks them.
func (r Report) LintFacts() *lint.LoadFacts {
	lf := &lint.LoadFacts{Days: r.Days, Sessions: r.SessionsInWindow}
	for _, e := range r.Expected {
		switch e.Kind {
		case KindRule:
			lf.Rules = append(lf.Rules, lint.RuleLoads{Path: e.Path, Conditional: e.Conditional, Globs: e.Globs,
				Sessions: e.SessionsInWindow, Eligible: e.Eligible, Last: e.Last})
		case KindImport:
			lf.Imports = append(lf.Imports, lint.ImportLoads{Path: e.Path, From: e.ImportedFrom, Line: e.Line, Raw: e.Raw,
				Sessions: e.SessionsInWindow, FromSessions: e.Eligible, Missing: e.Status == preview.StatusMissing})
		}
	}
	return lf
}

// MemoryLast is, per memory file, the last recorded load whose MEMORY.md
// listed it (absent: none did); Since is the first recorded load of
// MEMORY.md, from when "none" holds. Nil when no session recorded loads.
type MemoryLast struct {
	Since time.Time
	Last  map[string]time.Time
}

// MemoryLoads is the report's memories as prune reads them.
func (r Report) MemoryLoads() *MemoryLast {
	if r.Sessions == 0 {
		return nil
	}
	m := &MemoryLast{Last: map[string]time.Time{}}
	for _, f := range r.Files {
		if f.Kind == KindMemoryIndex && (m.Since.IsZero() || f.First.Before(m.Since)) {
			m.Since = f.First
		}
	}
	if m.Since.IsZero() {
		// No session loaded MEMORY.md: none listed any memory since the first load.
		m.Since = r.First
	}
	for _, mem := range r.Memories {
		if !mem.Last.IsZero() {
			m.Last[mem.File] = mem.Last
		}
	}
	return m
}
