package live

import (
	"io/fs"
	"slices"
	"time"

	"github.com/memscope/memscope/model"
)

// DefaultRecent is how recently a transcript must have been appended to
// for its session to count as running without a live process file (a
// `claude -p` run).
const DefaultRecent = 5 * time.Minute

// RunKind says how a running session was found.
type RunKind string

// The kinds of running session.
const (
	// RunInteractive: an interactive client's sessions/<pid>.json, whose
	// process is alive.
	RunInteractive RunKind = "interactive"
	// RunPrint: a transcript appended within the recent window with no
	// live process file (a -p run, or a client too old to write one).
	RunPrint RunKind = "print"
)

// Running is one session running now.
type Running struct {
	Kind      RunKind `json:"kind"`
	SessionID string  `json:"sessionId"`
	// PID, Status and StartedAt come from the process file.
	PID       int              `json:"pid,omitempty"`
	Status    model.LiveStatus `json:"status,omitempty"`
	StartedAt time.Time        `json:"startedAt,omitzero"`
	// CWD is the process file's; "" for a -p run (its transcript says).
	CWD string `json:"cwd,omitempty"`
	// Transcript is the main transcript in the home; "" when the client
	// has not written one yet. LastWrite is its mtime.
	Transcript string    `json:"transcript,omitempty"`
	LastWrite  time.Time `json:"lastWrite,omitzero"`
}

// RunningOptions say where to look and what counts as alive.
type RunningOptions struct {
	// FS is the home.
	FS fs.FS
	// Now is the current time.
	Now time.Time
	// Alive reports whether a process exists (nil: model.ProcessAlive).
	// Injected so tests do not depend on the machine's processes.
	Alive func(pid int) bool
	// Recent is the -p window (default DefaultRecent).
	Recent time.Duration
	// Transcripts are the home's transcripts; nil lists them with
	// model.FindSessionFiles.
	Transcripts []model.TranscriptFile
}

// RunningReport is what FindRunning found.
type RunningReport struct {
	// Sessions are interactive sessions by pid, then -p runs by their
	// latest write, newest first.
	Sessions []Running `json:"sessions"`
	// Stale are process files whose process is gone (the client deletes
	// its file on exit, so these are crashes or kills).
	Stale    []model.LiveSession `json:"stale"`
	Problems []model.Problem     `json:"problems,omitempty"`
}

// FindRunning lists the sessions running now: every sessions/<pid>.json
// whose process is alive, and every main transcript appended within the
// recent window that no live process owns.
func FindRunning(o RunningOptions) RunningReport {
	alive := o.Alive
	if alive == nil {
		alive = model.ProcessAlive
	}
	if o.Recent <= 0 {
		o.Recent = DefaultRecent
	}
	rep := RunningReport{Sessions: []Running{}, Stale: []model.LiveSession{}}
	files := o.Transcripts
	if files == nil {
		var probs []model.Problem
		files, probs = model.FindTranscripts(o.FS)
		rep.Problems = append(rep.Problems, probs...)
	}
	procs, probs := model.ReadLiveSessions(o.FS)
	rep.Problems = append(rep.Problems, probs...)
	owned := map[string]bool{}
	for _, p := range procs {
		if !alive(p.PID) {
			rep.Stale = append(rep.Stale, p)
			continue
		}
		r := Running{Kind: RunInteractive, SessionID: string(p.SessionID), PID: p.PID, Status: p.Status, StartedAt: p.StartedAt, CWD: p.CWD}
		if f, ok := transcriptOf(files, r.SessionID, p.CWD); ok {
			r.Transcript, r.LastWrite = f.Path, f.ModTime
		}
		owned[r.SessionID] = true
		rep.Sessions = append(rep.Sessions, r)
	}
	var prints []Running
	for _, f := range files {
		if f.Kind != model.TranscriptMain || owned[f.SessionID] || o.Now.Sub(f.ModTime) > o.Recent {
			continue
		}
		prints = append(prints, Running{Kind: RunPrint, SessionID: f.SessionID, Transcript: f.Path, LastWrite: f.ModTime})
	}
	slices.SortStableFunc(prints, func(a, b Running) int { return b.LastWrite.Compare(a.LastWrite) })
	rep.Sessions = append(rep.Sessions, prints...)
	return rep
}

// transcriptOf finds a session's main transcript, preferring the folder
// of its startup directory's slug when there are several (an id is
// unique, but a copied project folder holds the same one twice).
func transcriptOf(files []model.TranscriptFile, id, cwd string) (model.TranscriptFile, bool) {
	var found model.TranscriptFile
	ok := false
	slug := model.Slug(cwd)
	for _, f := range files {
		if f.Kind == model.TranscriptMain && f.SessionID == id && (!ok || f.ProjectSlug == slug) {
			found, ok = f, true
		}
	}
	return found, ok
}
