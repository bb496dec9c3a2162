package provenance

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// Slack is how far apart two clocks of one write may be and still agree:
// the call's record, its result, the file's mtime, metadata.modified.
const Slack = time.Minute

// Source says who made a file's last change, as far as the disk tells.
type Source string

// The sources of a change.
const (
	// SourceTranscript: Claude Code, by a call recorded in a transcript.
	SourceTranscript Source = "transcript"
	// SourceStamp: Claude Code (its frontmatter stamp says so), but the
	// session's transcript is not on disk.
	SourceStamp Source = "stamp"
	// SourceMemscope: memscope (its undo journal holds the change).
	SourceMemscope Source = "memscope"
	// SourceUnknown: no record of it — by hand, or a session that was
	// swept.
	SourceUnknown Source = "unknown"
)

// NoOrigin is what a file without any recorded origin says.
const NoOrigin = "written outside any transcript on disk — by hand, or its session was swept"

// JournalChange is one change memscope journaled to a file.
type JournalChange struct {
	// Abs is the file (absolute); Dir the memory folder of the journal.
	Abs     string         `json:"-"`
	ID      string         `json:"id"`
	Time    time.Time      `json:"time"`
	Op      journal.OpKind `json:"op"`
	Summary string         `json:"summary"`
	// After is the SHA-256 the change left the file with; "" when it
	// removed it.
	After string `json:"after"`
	// Created says the file did not exist before the change: memscope
	// made it (a new memory), so its frontmatter stamps are memscope's.
	Created bool `json:"created,omitempty"`
}

// ReadJournals reads the undo journal of each memory folder in dirs
// (absolute, through root as model.RootName names it) and returns every
// file change, oldest first. A missing journal is no problem.
func ReadJournals(root fs.FS, dirs ...string) ([]JournalChange, []model.Problem) {
	var out []JournalChange
	var probs []model.Problem
	for _, dir := range dirs {
		name := model.RootName(path.Join(dir, journal.Path))
		data, err := model.ReadFileBounded(root, name, model.MaxJournalBytes)
		if err != nil {
			if !errorsIsNotExist(err) {
				probs = append(probs, model.Problem{File: path.Join(dir, journal.Path), Kind: model.ProblemUnreadable, Reason: err.Error()})
			}
			continue
		}
		entries, p := journal.ParseEntries(path.Join(dir, journal.Path), data)
		probs = append(probs, p...)
		for _, e := range entries {
			for _, f := range e.Files {
				out = append(out, JournalChange{Abs: path.Join(dir, f.Path), ID: e.ID, Time: e.Time, Op: e.Op, Summary: e.Summary, After: f.After, Created: !f.Existed && f.After != ""})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out, probs
}

// Change is a file's last change.
type Change struct {
	Source Source    `json:"source"`
	Time   time.Time `json:"time,omitzero"`
	// Write is the call when Source is transcript; Journal the entry when
	// it is memscope.
	Write   *Write         `json:"write,omitempty"`
	Journal *JournalChange `json:"journal,omitempty"`
	// Text says it in a sentence.
	Text string `json:"text"`
}

// Check is one cross-check of a file's records against each other.
type Check struct {
	// What is checked: "originSessionId", "modified", "content",
	// "journal".
	What string `json:"what"`
	OK   bool   `json:"ok"`
	Text string `json:"text"`
}

// Origin is where one memory file came from and who changed it last.
type Origin struct {
	Kind  Kind   `json:"kind"`
	Agent string `json:"agent,omitempty"`
	Path  string `json:"path"`
	Abs   string `json:"abs"`
	Size  int64  `json:"size"`
	// ModTime is the file's mtime; SHA256 its bytes'.
	ModTime time.Time `json:"mtime"`
	SHA256  string    `json:"sha256"`
	// OriginSessionID and Modified are the client's frontmatter stamps.
	OriginSessionID string     `json:"originSessionId,omitempty"`
	Modified        *time.Time `json:"modified,omitempty"`
	// Created is the first call that wrote the file; nil when the
	// transcripts on disk hold none (then Text says why).
	Created *Write `json:"created,omitempty"`
	Last    Change `json:"last"`
	// Writes are every call on the file, failed ones included, oldest
	// first; Failed counts those that did not write.
	Writes []Write `json:"writes"`
	Failed int     `json:"failed"`
	Checks []Check `json:"checks"`
	// ModelTime is Claude Code's last change to the file: its last
	// recorded call that wrote, else its frontmatter stamp; zero when
	// there is no sign of one (the review inbox compares it with when
	// the user last accepted the file).
	ModelTime time.Time `json:"modelTime,omitzero"`
	// Text says where the file came from in a sentence.
	Text string `json:"text"`

	file *model.MemoryFile
}

// File is the memory file as read.
func (o *Origin) File() *model.MemoryFile { return o.file }

// ByModel reports whether Claude Code made the file's last change, as
// far as the disk tells (a recorded call, or its stamp).
func (o *Origin) ByModel() bool {
	return o.Last.Source == SourceTranscript || o.Last.Source == SourceStamp
}

// Origins says for each file where it came from: the calls on it in
// writes (Scan), the journal changes (ReadJournals), and which sessions
// still have a transcript on disk (by id).
func Origins(files []MemoryFile, writes []Write, changes []JournalChange, onDisk map[string]bool) []Origin {
	byFile := map[string][]Write{}
	for _, w := range writes {
		k := fileKey(w.Folder, w.Rel)
		byFile[k] = append(byFile[k], w)
	}
	byAbs := map[string][]JournalChange{}
	for _, c := range changes {
		byAbs[c.Abs] = append(byAbs[c.Abs], c)
	}
	out := make([]Origin, 0, len(files))
	for _, mf := range files {
		out = append(out, origin(mf, byFile[fileKey(mf.Folder, mf.Rel)], byAbs[mf.Abs], onDisk))
	}
	return out
}

func fileKey(folder int, rel string) string { return fmt.Sprintf("%d\x00%s", folder, rel) }

func origin(mf MemoryFile, ws []Write, js []JournalChange, onDisk map[string]bool) Origin {
	f := mf.File
	o := Origin{Kind: mf.Kind, Agent: mf.Agent, Path: mf.Rel, Abs: mf.Abs, Size: f.Size, ModTime: f.ModTime,
		SHA256: store.Hash(f.Raw()), OriginSessionID: f.OriginSessionID, Modified: f.Modified,
		Writes: ws, Checks: []Check{}, file: f}
	if o.Writes == nil {
		o.Writes = []Write{}
	}
	var last *Write
	for i := range ws {
		w := &o.Writes[i]
		if !w.OK() {
			o.Failed++
			continue
		}
		if o.Created == nil {
			o.Created = w
		}
		last = w
	}
	// memscope's last change, and whether the file is as it left it.
	var mine *JournalChange
	asLeft := false
	if n := len(js); n > 0 {
		mine = &js[n-1]
		asLeft = mine.After == o.SHA256
	}
	// A file memscope created that no call in a transcript wrote since
	// carries memscope's stamps (it writes modified as the client does):
	// they say nothing of Claude Code.
	stampsMine := false
	for _, j := range js {
		if j.Created && last == nil {
			stampsMine = true
		}
	}
	holds, known := false, false
	if last != nil {
		holds, known = last.probe.check(f)
		// An Edit's text still being there does not say nothing was
		// added since: then the mtime must agree too.
		if holds && last.probe.body == nil && after(f.ModTime, writeTime(last)) {
			holds = false
		}
	}
	switch {
	case mine != nil && asLeft && (last == nil || !mine.Time.Before(writeTime(last))):
		o.Last = Change{Source: SourceMemscope, Time: mine.Time, Journal: mine,
			Text: fmt.Sprintf("memscope %s, %s", mine.Summary, format.Timestamp(mine.Time))}
	case last != nil && (holds || !known && !after(o.bestClock(), writeTime(last))):
		o.Last = Change{Source: SourceTranscript, Time: writeTime(last), Write: last, Text: writeText(last)}
	case last != nil:
		o.Last = Change{Source: SourceUnknown, Time: o.bestClock(),
			Text: fmt.Sprintf("changed outside any transcript on disk after %s (%s)", writeText(last), format.Timestamp(o.bestClock()))}
	case !stampsMine && (o.OriginSessionID != "" || o.Modified != nil):
		o.Last = Change{Source: SourceStamp, Time: o.bestClock(), Text: "Claude Code, by its frontmatter stamp (" + format.Timestamp(o.bestClock()) + "); no call on it in the transcripts on disk"}
	default:
		o.Last = Change{Source: SourceUnknown, Time: f.ModTime, Text: "no record of who; the file's mtime is " + format.Timestamp(f.ModTime)}
	}
	switch {
	case last != nil:
		o.ModelTime = writeTime(last)
	case !stampsMine && (o.OriginSessionID != "" || o.Modified != nil):
		o.ModelTime = o.bestClock()
	}
	o.Text = o.originText(onDisk)
	if stampsMine && o.Created == nil {
		o.Text = "created in memscope (" + js[0].Summary + ", " + format.Timestamp(js[0].Time) + ")"
	}
	o.crossCheck(last, holds, known, mine, asLeft, onDisk)
	return o
}

// writeTime is when a call wrote: its result's time, else its own.
func writeTime(w *Write) time.Time {
	if !w.ResultTime.IsZero() {
		return w.ResultTime
	}
	return w.Time
}

// after reports whether a is later than b by more than Slack.
func after(a, b time.Time) bool { return !a.IsZero() && !b.IsZero() && a.Sub(b) > Slack }

// bestClock is when the file last changed: metadata.modified when the
// client stamped it, else the mtime.
func (o *Origin) bestClock() time.Time {
	if o.Modified != nil && !o.Modified.IsZero() {
		return *o.Modified
	}
	return o.ModTime
}

// ByText names who made a call: "the main agent" or the subagent.
func (w *Write) ByText() string {
	if w.By == nil {
		return "the main agent"
	}
	s := "subagent " + format.ShortID(w.By.ID)
	if w.By.Type != "" {
		s = "subagent " + w.By.Type + " (" + format.ShortID(w.By.ID) + ")"
	}
	return s
}

func writeText(w *Write) string {
	return fmt.Sprintf("%s by %s in session %s at %s", w.Tool, w.ByText(), format.ShortID(w.SessionID), format.Timestamp(w.Time))
}

func stampText(o *Origin, onDisk map[string]bool) string {
	var stamps []string
	if o.OriginSessionID != "" {
		stamps = append(stamps, "originSessionId "+format.ShortID(o.OriginSessionID))
	}
	if o.Modified != nil {
		stamps = append(stamps, "modified "+format.Timestamp(*o.Modified))
	}
	s := "Claude Code wrote it (frontmatter " + strings.Join(stamps, ", ") + ")"
	if o.OriginSessionID != "" && !onDisk[o.OriginSessionID] {
		return s + ", but that session's transcript is not on disk (swept)"
	}
	return s + ", but no call on it is in the transcripts on disk"
}

func (o *Origin) originText(onDisk map[string]bool) string {
	switch {
	case o.Created != nil && o.Created.Tool == "Write":
		return "created with a " + writeText(o.Created)
	case o.Created != nil:
		return "created before the oldest transcript on disk; first changed by " + writeText(o.Created)
	case o.OriginSessionID != "" || o.Modified != nil:
		return stampText(o, onDisk)
	case o.Last.Source == SourceMemscope:
		return "no call on it in the transcripts on disk; memscope changed it"
	}
	return NoOrigin
}

// crossCheck compares the records of one file with each other.
func (o *Origin) crossCheck(last *Write, holds, known bool, mine *JournalChange, asLeft bool, onDisk map[string]bool) {
	add := func(what string, ok bool, format string, args ...any) {
		o.Checks = append(o.Checks, Check{What: what, OK: ok, Text: fmt.Sprintf(format, args...)})
	}
	if id := o.OriginSessionID; id != "" {
		creator := ""
		if o.Created != nil {
			creator = o.Created.SessionID
		}
		switch {
		case creator == id:
			add("originSessionId", true, "originSessionId %s is the session whose call created it", format.ShortID(id))
		case creator != "" && o.Created.Tool == "Write":
			add("originSessionId", false, "originSessionId %s, but session %s created it (a Write replaced a file another session made?)", format.ShortID(id), format.ShortID(creator))
		case !onDisk[id]:
			add("originSessionId", false, "originSessionId %s: that session's transcript is not on disk (swept)", format.ShortID(id))
		default:
			add("originSessionId", false, "originSessionId %s: its transcript holds no call on this file (written by Bash, or by another tool?)", format.ShortID(id))
		}
	}
	if m := o.Modified; m != nil && last != nil {
		t := writeTime(last)
		switch {
		case after(*m, t):
			add("modified", false, "metadata.modified %s is after the last recorded write (%s): changed since, outside any transcript on disk", format.Timestamp(*m), format.Timestamp(t))
		case after(t, *m):
			add("modified", false, "metadata.modified %s is before the last recorded write (%s): that write did not restamp it", format.Timestamp(*m), format.Timestamp(t))
		default:
			add("modified", true, "metadata.modified agrees with the last recorded write (%s)", format.Timestamp(t))
		}
	}
	if last != nil && known {
		if holds {
			add("content", true, "the file still holds what the last recorded %s wrote", last.Tool)
		} else {
			add("content", false, "the file changed after the last recorded %s (its text or its mtime says so)", last.Tool)
		}
	}
	if mine != nil {
		if asLeft {
			add("journal", true, "as memscope left it (%s, %s)", mine.Summary, format.Timestamp(mine.Time))
		} else {
			add("journal", true, "changed since memscope's last change (%s, %s)", mine.Summary, format.Timestamp(mine.Time))
		}
	}
}
