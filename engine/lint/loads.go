package lint

import (
	"fmt"
	"strings"
	"time"

	"github.com/memscope/memscope/internal/format"
)

// The checks on what the transcripts say was loaded.
const (
	// RuleNeverLoaded: a rule no recorded session loaded in the window,
	// though sessions ran after it was written.
	RuleNeverLoaded Kind = "rule-never-loaded"
	// ImportNeverResolved: an @import no session loaded, though sessions
	// loaded the file that imports it.
	ImportNeverResolved Kind = "import-never-resolved"
)

// LoadFacts are what the project's transcripts say was loaded
// (engine/loads fills them): the rules and imports the next session would
// load, each with the recorded sessions that did.
type LoadFacts struct {
	// Days is the window; Sessions the sessions in it that recorded
	// their loads.
	Days     int
	Sessions int
	Rules    []RuleLoads
	Imports  []ImportLoads
}

// RuleLoads is one rules file and its loads in the window.
type RuleLoads struct {
	Path string
	// Conditional rules have paths: globs and load mid-session.
	Conditional bool
	Globs       []string
	// Sessions loaded it in the window; Eligible sessions in the window
	// started after it was last written. Last is its last load ever.
	Sessions, Eligible int
	Last               time.Time
}

// ImportLoads is one @import and its loads in the window.
type ImportLoads struct {
	Path, From string
	// Line and Raw place a missing import's "@raw" in From (0 and "" when
	// the file exists).
	Line int
	Raw  string
	// Sessions loaded it in the window; FromSessions loaded From.
	Sessions, FromSessions int
	Missing                bool
}

// lintLoads reports rules that never load and imports that never resolve.
func (l *linter) lintLoads() {
	lf := l.in.Loads
	if lf == nil {
		return
	}
	for _, r := range lf.Rules {
		if r.Sessions > 0 || r.Eligible == 0 {
			continue
		}
		last := "no recorded session ever loaded it"
		if !r.Last.IsZero() {
			last = "last loaded " + r.Last.UTC().Format("2006-01-02")
		}
		why := "it should load at every session start: check claudeMdExcludes and the folder sessions start in"
		if r.Conditional {
			why = "its paths: (" + strings.Join(r.Globs, ", ") + ") matched no file the model read"
		}
		l.add(Finding{Kind: RuleNeverLoaded, Severity: SevWarning, Path: r.Path,
			Message: fmt.Sprintf("rule never loaded in the last %d days (%s since it was written; %s): %s", lf.Days, format.Count(r.Eligible, "session", "sessions"), last, why)})
	}
	for _, im := range lf.Imports {
		if im.Sessions > 0 || im.FromSessions == 0 {
			continue
		}
		why := "outside the project and not approved, excluded, or nested too deep"
		if im.Missing {
			why = "the file does not exist"
		}
		f := Finding{Kind: ImportNeverResolved, Severity: SevWarning, Path: im.From, Line: im.Line, Related: []string{im.Path},
			Message: fmt.Sprintf("import of %s never resolved in the %s of the last %d days that loaded this file (%s); the client skips it without a word", im.Path, format.Count(im.FromSessions, "session", "sessions"), lf.Days, why)}
		if im.Raw != "" {
			f.Message = fmt.Sprintf("@%s: ", im.Raw) + f.Message
		}
		l.add(f)
	}
}
