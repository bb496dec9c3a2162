package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"
	"time"

	"github.com/memscope/memscope/model"
)

// Path is the undo journal, relative to the memory folder. The
// client skips paths with a segment starting with ".", so it never reads
// the journal (nor .trash/) as memory.
const Path = ".memscope/journal.jsonl"

// MaxEntries is how many changes the journal keeps; the oldest
// are dropped first. Memory files are small, so this is a few MB at most.
const MaxEntries = 100

// Entry is one journaled change: what it was and the bytes every
// file had before it, so undo restores them exactly. One JSON object per
// line of the journal, oldest first.
type Entry struct {
	ID      string    `json:"id"`
	Time    time.Time `json:"time"`
	Op      OpKind    `json:"op"`
	Summary string    `json:"summary"`
	// Folder is the folder the files' paths are relative to, for a
	// document journal (edits of CLAUDE.md and rules: store.OpenDocument);
	// empty in a memory folder's journal, whose folder it is.
	Folder string `json:"folder,omitempty"`
	Files  []File `json:"files"`
	// Pending marks an entry written before its change (the intent): it
	// is cleared once every file is written. An entry still pending was
	// interrupted (killed, or failed part way): its files are each as
	// before or as after, and undo puts back those that changed.
	Pending bool `json:"pending,omitempty"`
}

// File is one file of a journaled change.
type File struct {
	// Path is relative to the memory folder.
	Path string `json:"path"`
	// Existed says whether the file existed before; Before holds its bytes
	// (base64 in JSON, so any byte survives) and Mode its permissions.
	Existed bool        `json:"existed"`
	Before  []byte      `json:"before,omitempty"`
	Mode    fs.FileMode `json:"mode,omitempty"`
	// ModTime is the file's mtime before the change, so undo puts back
	// its age too (the client's staleness and cleanup read the mtime).
	// Zero in entries written before memscope kept it: undo then leaves
	// the restored file with the time of the undo.
	ModTime time.Time `json:"mtime,omitzero"`
	// After is the SHA-256 (hex) of the bytes the change wrote, "" when
	// the change removed the file. Undo refuses when the file is neither
	// as the change left it nor as it was before.
	After string `json:"after"`
}

// Journal is the journal file as lines: parsed entries and, kept verbatim
// so a rewrite never drops them, lines that did not parse.
type Journal struct {
	lines []journalLine
}

type journalLine struct {
	raw   []byte
	entry *Entry
}

// ParseEntries reads journal bytes. Lines that are not valid entries are
// reported (a last line without a newline as ProblemIncompleteTail: an
// interrupted write) and skipped; name is the file name for the problems.
func ParseEntries(name string, data []byte) ([]Entry, []model.Problem) {
	j, probs := Parse(name, data)
	return j.Entries(), probs
}

func Parse(name string, data []byte) (*Journal, []model.Problem) {
	j := &Journal{}
	var probs []model.Problem
	lr := model.NewLineReader(bytes.NewReader(data))
	// An entry holds whole files: its line may be as long as the journal
	// may be (the journal's own size is bounded when it is read).
	lr.MaxLine = model.MaxJournalBytes
	for {
		l, ok := lr.Next()
		if !ok {
			break
		}
		if l.TooLong {
			// Cannot happen: data is no longer than MaxJournalBytes.
			probs = append(probs, l.TooLongProblem(name))
			continue
		}
		raw := bytes.Clone(l.Bytes)
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		var e Entry
		err := json.Unmarshal(raw, &e)
		if err == nil {
			err = e.validate()
		}
		if err != nil {
			kind := model.ProblemMalformed
			if !l.Terminated {
				kind = model.ProblemIncompleteTail
			}
			probs = append(probs, model.Problem{File: name, Line: l.Number, Kind: kind, Reason: fmt.Sprintf("journal entry skipped: %v", err)})
			j.lines = append(j.lines, journalLine{raw: raw})
			continue
		}
		j.lines = append(j.lines, journalLine{raw: raw, entry: &e})
	}
	if err := lr.Err(); err != nil {
		probs = append(probs, model.Problem{File: name, Kind: model.ProblemUnreadable, Reason: fmt.Sprintf("read journal: %v", err)})
	}
	return j, probs
}

func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

// validate checks what undo relies on.
func (e *Entry) validate() error {
	if e.ID == "" {
		return fmt.Errorf("no id")
	}
	if len(e.Files) == 0 {
		return fmt.Errorf("entry %s lists no files", e.ID)
	}
	for _, f := range e.Files {
		if !fs.ValidPath(f.Path) || f.Path == "." {
			return fmt.Errorf("entry %s: invalid path %q", e.ID, f.Path)
		}
		if f.After != "" && !isSHA256Hex(f.After) {
			return fmt.Errorf("entry %s: %s: after is not a SHA-256", e.ID, f.Path)
		}
		if !f.Existed && len(f.Before) > 0 {
			return fmt.Errorf("entry %s: %s did not exist but has content", e.ID, f.Path)
		}
	}
	return nil
}

func (j *Journal) Entries() []Entry {
	var out []Entry
	for _, l := range j.lines {
		if l.entry != nil {
			out = append(out, *l.entry)
		}
	}
	return out
}

// Bytes writes the journal back: every line read as it was read (entries
// and lines that did not parse alike), new entries encoded.
func (j *Journal) Bytes() []byte {
	var b bytes.Buffer
	for _, l := range j.lines {
		if l.raw != nil {
			b.Write(l.raw)
		} else {
			line, _ := json.Marshal(l.entry)
			b.Write(line)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// NewID is a readable id from the time, unique in the journal.
func (j *Journal) NewID(now time.Time) string {
	base := now.UTC().Format("20060102-150405.000")
	id := base
	for n := 2; j.has(id); n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	return id
}

func (j *Journal) has(id string) bool {
	for _, l := range j.lines {
		if l.entry != nil && l.entry.ID == id {
			return true
		}
	}
	return false
}

// Add appends e and drops the oldest entries past JournalMaxEntries.
func (j *Journal) Add(e Entry) {
	j.lines = append(j.lines, journalLine{entry: &e})
	n := len(j.Entries())
	for i := 0; n > MaxEntries && i < len(j.lines); {
		if j.lines[i].entry != nil {
			j.lines = append(j.lines[:i], j.lines[i+1:]...)
			n--
			continue
		}
		i++
	}
}

// Clone is a copy of j that later changes to j leave as it is: a
// writer keeps one to put the journal back whole when its change fails
// (Add may have dropped the oldest entry to make room for the new one).
func (j *Journal) Clone() *Journal {
	c := *j
	c.lines = append([]journalLine(nil), j.lines...)
	return &c
}

// Done clears the Pending mark of the entry with id: its change is
// complete. It reports whether there was such an entry.
func (j *Journal) Done(id string) bool {
	for i, l := range j.lines {
		if l.entry != nil && l.entry.ID == id {
			e := *l.entry
			e.Pending = false
			j.lines[i] = journalLine{entry: &e}
			return true
		}
	}
	return false
}

// Drop removes the entry with id.
func (j *Journal) Drop(id string) {
	for i, l := range j.lines {
		if l.entry != nil && l.entry.ID == id {
			j.lines = append(j.lines[:i], j.lines[i+1:]...)
			return
		}
	}
}

// Last returns the newest entry.
func (j *Journal) Last() (Entry, bool) {
	for i := len(j.lines) - 1; i >= 0; i-- {
		if e := j.lines[i].entry; e != nil {
			return *e, true
		}
	}
	return Entry{}, false
}
