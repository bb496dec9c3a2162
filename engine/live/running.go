package live

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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
	// Evidence says why the session counts as running: its live process
	// file, or (a -p run) the time of its transcript's newest record.
	Evidence string `json:"evidence"`
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
			// An interactive session (it wrote a process file) whose
			// process is gone: not a -p run, whatever its transcript's age.
			owned[string(p.SessionID)] = true
			rep.Stale = append(rep.Stale, p)
			continue
		}
		r := Running{Kind: RunInteractive, SessionID: string(p.SessionID), PID: p.PID, Status: p.Status, StartedAt: p.StartedAt, CWD: p.CWD,
			Evidence: fmt.Sprintf("process %d of sessions/%d.json is alive", p.PID, p.PID)}
		if f, ok := transcriptOf(files, r.SessionID, p.CWD); ok {
			r.Transcript, r.LastWrite = f.Path, f.ModTime
		}
		owned[r.SessionID] = true
		rep.Sessions = append(rep.Sessions, r)
	}
	var prints []Running
	for _, f := range files {
		// The mtime only narrows the search (a copied, restored or
		// generated home has every file new): a -p run is one whose
		// newest record was written within the window.
		if f.Kind != model.TranscriptMain || owned[f.SessionID] || o.Now.Sub(f.ModTime) > o.Recent {
			continue
		}
		last, entry, ok := newestRecord(o.FS, f.Path)
		if !ok || o.Now.Sub(last) > o.Recent || last.Sub(o.Now) > o.Recent {
			continue
		}
		if entry == InteractiveEntrypoint {
			// The interactive client deletes its process file on exit: a
			// recent "cli" record with no process file is a session that
			// was quit, not a -p run.
			continue
		}
		ev := "no process file; its newest record is from " + last.UTC().Format("2006-01-02 15:04:05") + " UTC"
		if entry != "" {
			ev += ", entrypoint " + entry
		}
		prints = append(prints, Running{Kind: RunPrint, SessionID: f.SessionID, Transcript: f.Path, LastWrite: f.ModTime, Evidence: ev})
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

// tailProbe is how much of a transcript's end newestRecord reads.
const tailProbe = 256 << 10

// InteractiveEntrypoint is the records' entrypoint of the interactive
// client, which keeps sessions/<pid>.json while it runs ("sdk-cli" is a
// -p run, "sdk-ts"/"sdk-py" the SDKs).
const InteractiveEntrypoint = "cli"

// newestRecord is the timestamp and entrypoint of the newest record of
// the transcript at name that has a timestamp, read from its last
// tailProbe bytes.
func newestRecord(fsys fs.FS, name string) (time.Time, string, bool) {
	f, err := fsys.Open(name)
	if err != nil {
		return time.Time{}, "", false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return time.Time{}, "", false
	}
	if s, ok := f.(io.Seeker); ok && st.Size() > tailProbe {
		if _, err := s.Seek(st.Size()-tailProbe, io.SeekStart); err != nil {
			return time.Time{}, "", false
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, tailProbe))
	if err != nil {
		return time.Time{}, "", false
	}
	lines := bytes.Split(data, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		var r struct {
			Timestamp  time.Time `json:"timestamp"`
			Entrypoint string    `json:"entrypoint"`
		}
		if json.Unmarshal(lines[i], &r) == nil && !r.Timestamp.IsZero() {
			return r.Timestamp, r.Entrypoint, true
		}
	}
	return time.Time{}, "", false
}
