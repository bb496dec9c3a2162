package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memscope/memscope/internal/jsonscan"
)

// HistoryUpArrowLimit is how many prompts per project the client offers on
// the up arrow: the newest 100.
const HistoryUpArrowLimit = 100

// HistoryPath is where the prompt history lives inside a Claude home.
const HistoryPath = "history.jsonl"

// SessionID names one Claude Code session (the transcript file's base name).
type SessionID string

// HistoryFormat says which layout a history line was written in.
type HistoryFormat string

// The history line layouts memscope reads.
const (
	// HistoryFormatCurrent is the real client's layout: display,
	// pastedContents (an object keyed by id), project, sessionId.
	HistoryFormatCurrent HistoryFormat = "current"
	// HistoryFormatSeed is the older layout from the seed documents:
	// prompt, pastedContent (an array), projectName. A secondary source.
	HistoryFormatSeed HistoryFormat = "seed"
)

// PasteID is the number of a paste within one prompt (the N of
// "[Pasted text #N]").
type PasteID int

// PasteKind is what was pasted.
type PasteKind string

// The paste kinds the client writes.
const (
	PasteText  PasteKind = "text"
	PasteImage PasteKind = "image"
)

// PastedContent is one paste referenced by a history entry: either inline
// (Content, for pastes up to 1024 characters) or by Hash (the text lives in
// paste-cache/<hash>.txt, or paste-store/<hash> in the seed layout).
type PastedContent struct {
	ID   PasteID   `json:"id"`
	Kind PasteKind `json:"type"`
	// Inline is true when the line carried a "content" field.
	Inline  bool   `json:"inline"`
	Content string `json:"content,omitempty"`
	// Hash is the contentHash; empty when absent or null.
	Hash      PasteHash `json:"contentHash,omitempty"`
	MediaType string    `json:"mediaType,omitempty"`
	Filename  string    `json:"filename,omitempty"`
}

// HistoryEntry is one prompt from history.jsonl.
type HistoryEntry struct {
	// Display is the prompt as typed, with placeholders for pastes.
	Display string `json:"display"`
	// PastedContents maps paste ids to their content or hash; nil when the
	// prompt had no pastes.
	PastedContents map[PasteID]PastedContent `json:"pastedContents,omitempty"`
	// Timestamp is zero when the line had none.
	Timestamp time.Time `json:"timestamp"`
	// Project is the startup directory (current layout) or the project
	// name (seed layout).
	Project string `json:"project"`
	// SessionID is empty in old lines.
	SessionID SessionID `json:"sessionId,omitempty"`
	// Line is the 1-based line number in history.jsonl.
	Line   int           `json:"line"`
	Format HistoryFormat `json:"format"`
	// InUpArrow is true when the entry is among the newest
	// HistoryUpArrowLimit of its project. Set by ReadHistory.
	InUpArrow bool `json:"inUpArrow"`
}

// History is the whole of history.jsonl.
type History struct {
	// Path is the file the entries came from.
	Path string
	// Entries are in file order (oldest first, as the client appends).
	Entries []HistoryEntry
	// Problems are the lines that were skipped or kept with a warning.
	Problems []Problem

	byProject map[string][]int
	projects  []string
}

// historyLine is the union of the current and the seed layouts of a line.
type historyLine struct {
	Display        *string                    `json:"display"`
	PastedContents map[string]json.RawMessage `json:"pastedContents"`
	Timestamp      json.RawMessage            `json:"timestamp"`
	Project        string                     `json:"project"`
	SessionID      string                     `json:"sessionId"`

	Prompt        *string           `json:"prompt"`
	PastedContent []json.RawMessage `json:"pastedContent"`
	ProjectName   string            `json:"projectName"`
}

type pasteJSON struct {
	ID          json.RawMessage `json:"id"`
	Type        string          `json:"type"`
	Content     *string         `json:"content"`
	ContentHash *string         `json:"contentHash"`
	MediaType   string          `json:"mediaType"`
	Filename    string          `json:"filename"`
}

// ParseHistoryLine decodes one line of history.jsonl in either layout.
// lineNo is stored in the entry. The error says why the line is unusable.
func ParseHistoryLine(line []byte, lineNo int) (HistoryEntry, error) {
	if e, ok := fastHistoryLine(line, lineNo, nil); ok {
		return e, nil
	}
	return decodeHistoryLine(line, lineNo)
}

// decodeHistoryLine is ParseHistoryLine through encoding/json: the
// reference the fast path must agree with, and the source of errors.
func decodeHistoryLine(line []byte, lineNo int) (HistoryEntry, error) {
	var raw historyLine
	if err := json.Unmarshal(line, &raw); err != nil {
		return HistoryEntry{}, fmt.Errorf("invalid JSON: %w", err)
	}
	e := HistoryEntry{Line: lineNo}
	switch {
	case raw.Display != nil:
		e.Format = HistoryFormatCurrent
		e.Display = *raw.Display
		e.Project = raw.Project
		if e.Project == "" {
			e.Project = raw.ProjectName
		}
	case raw.Prompt != nil:
		e.Format = HistoryFormatSeed
		e.Display = *raw.Prompt
		e.Project = raw.ProjectName
		if e.Project == "" {
			e.Project = raw.Project
		}
	default:
		return HistoryEntry{}, fmt.Errorf("no display or prompt field")
	}
	e.SessionID = SessionID(raw.SessionID)
	ts, err := parseMillisOrISO(raw.Timestamp)
	if err != nil {
		return HistoryEntry{}, fmt.Errorf("timestamp: %w", err)
	}
	e.Timestamp = ts
	if len(raw.PastedContents) > 0 || len(raw.PastedContent) > 0 {
		e.PastedContents = make(map[PasteID]PastedContent, len(raw.PastedContents)+len(raw.PastedContent))
	}
	// Sorted keys make the result deterministic when two keys carry the
	// same id.
	keys := make([]string, 0, len(raw.PastedContents))
	for key := range raw.PastedContents {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	msgs := make([]json.RawMessage, 0, len(keys)+len(raw.PastedContent))
	names := make([]string, 0, cap(msgs))
	for _, key := range keys {
		msgs, names = append(msgs, raw.PastedContents[key]), append(names, key)
	}
	for i, msg := range raw.PastedContent {
		msgs, names = append(msgs, msg), append(names, strconv.Itoa(i+1))
	}
	for i, msg := range msgs {
		p, err := parsePaste(msg, names[i])
		if err != nil {
			return HistoryEntry{}, fmt.Errorf("paste %s: %w", names[i], err)
		}
		e.PastedContents[p.ID] = p
	}
	return e, nil
}

// parsePaste decodes one paste object; key is its map key (or position),
// used when the object carries no usable id.
func parsePaste(msg json.RawMessage, key string) (PastedContent, error) {
	var pj pasteJSON
	if err := json.Unmarshal(msg, &pj); err != nil {
		return PastedContent{}, err
	}
	id, ok := parsePasteID(pj.ID)
	if !ok {
		id, ok = parsePasteID(json.RawMessage(key))
	}
	if !ok {
		return PastedContent{}, fmt.Errorf("no numeric id")
	}
	p := PastedContent{ID: id, Kind: PasteKind(pj.Type), MediaType: pj.MediaType, Filename: pj.Filename}
	if p.Kind == "" {
		p.Kind = PasteText
	}
	if pj.Content != nil {
		p.Inline = true
		p.Content = *pj.Content
	}
	if pj.ContentHash != nil {
		p.Hash = PasteHash(*pj.ContentHash)
	}
	return p, nil
}

// parsePasteID accepts 3, "3" and 3.0 alike: the id is a number in the
// real layout but a string map key.
func parsePasteID(raw json.RawMessage) (PasteID, bool) {
	s := strings.Trim(string(bytes.TrimSpace(raw)), `"`)
	if s == "" || s == "null" {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || f < math.MinInt32 || f > math.MaxInt32 {
		return 0, false
	}
	return PasteID(f), true
}

// parseMillisOrISO reads a timestamp given as epoch milliseconds (the real
// layout) or as an ISO string. Absent or null gives the zero time.
func parseMillisOrISO(raw json.RawMessage) (time.Time, error) {
	if ms, ok := plainMillis(raw); ok {
		return time.UnixMilli(ms).UTC(), nil
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return time.Time{}, err
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return time.Time{}, fmt.Errorf("not epoch milliseconds or ISO time: %q", s)
		}
		return t, nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("not a number: %s", raw)
	}
	// Keep far-out values representable instead of wrapping around.
	const limit = 1 << 53
	if f > limit || f < -limit {
		return time.Time{}, fmt.Errorf("out of range: %s", raw)
	}
	return time.UnixMilli(int64(f)).UTC(), nil
}

// plainMillis reads the usual timestamp, a JSON integer (epoch
// milliseconds) within ±2^53, without strconv.ParseFloat, which cost a
// sixth of a cold start's read of history.jsonl for its sums (issue
// 28). Such an integer's float is exact, so parseMillisOrISO's float
// path makes the same time of it: ok false leaves any other form to it.
func plainMillis(raw []byte) (int64, bool) {
	v, ok := jsonscan.Int(raw)
	if !ok || v > 1<<53 || v < -(1<<53) {
		return 0, false
	}
	return v, true
}

// ScanHistory streams history lines from r, calling fn with each entry
// that parses (fn may keep the pointer). name labels problems. Blank lines
// are skipped; malformed lines are reported and skipped; a last line
// without a newline that does not parse is reported as an incomplete tail;
// a line that is not valid UTF-8 is kept and reported. The error is a read
// error of r.
func ScanHistory(r io.Reader, name string, fn func(*HistoryEntry)) ([]Problem, error) {
	var problems []Problem
	hs := historyScanner{name: name, hd: newHistoryDecoder(make(map[string]string))}
	lr := NewLineReader(r)
	for {
		ln, ok := lr.Next()
		if !ok {
			break
		}
		if e, ok := hs.line(ln, &problems); ok {
			fn(&e)
		}
	}
	if err := lr.Err(); err != nil {
		return problems, fmt.Errorf("read %s: %w", name, err)
	}
	return problems, nil
}

// historyScanner decodes history lines one at a time, the way ScanHistory
// does; HistoryTail uses it for the lines it finds.
type historyScanner struct {
	name string
	hd   *historyDecoder
}

// line decodes one line, appending its problems to problems. ok is false
// for a blank or unusable line.
func (hs *historyScanner) line(ln Line, problems *[]Problem) (HistoryEntry, bool) {
	if ln.TooLong {
		*problems = append(*problems, ln.TooLongProblem(hs.name))
		return HistoryEntry{}, false
	}
	if len(bytes.TrimSpace(ln.Bytes)) == 0 {
		return HistoryEntry{}, false
	}
	e, ok := hs.hd.line(ln.Bytes, ln.Number)
	var err error
	if !ok {
		e, err = decodeHistoryLine(ln.Bytes, ln.Number)
	}
	if err != nil {
		kind := ProblemMalformed
		if !ln.Terminated {
			kind = ProblemIncompleteTail
		}
		*problems = append(*problems, Problem{File: hs.name, Line: ln.Number, Kind: kind, Reason: err.Error()})
		return HistoryEntry{}, false
	}
	// The decoder's scanner has just read the line: ASCII is valid UTF-8.
	if !hs.hd.js.ASCII() && !utf8.Valid(ln.Bytes) {
		*problems = append(*problems, Problem{File: hs.name, Line: ln.Number, Kind: ProblemEncoding, Reason: "invalid UTF-8 (replaced with U+FFFD)"})
	}
	return e, true
}

// ReadHistory reads the history file at path (slash-separated, inside
// fsys; usually HistoryPath) and indexes it by project. A missing file is
// an error wrapping fs.ErrNotExist. A read error midway returns the entries
// read so far together with the error.
func ReadHistory(fsys fs.FS, path string) (*History, error) {
	f, err := OpenRegular(fsys, path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	h := &History{Path: path}
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		// About 150 bytes a line: one allocation instead of a dozen, for
		// up to 65 536 lines (a few MB: a file's size says nothing of its
		// lines when it holds a run of NUL bytes).
		h.Entries = make([]HistoryEntry, 0, min(st.Size()/150+16, 1<<16))
	}
	h.Problems, err = ScanHistory(f, path, func(e *HistoryEntry) {
		h.Entries = append(h.Entries, *e)
	})
	h.index()
	return h, err
}

// NewHistory builds a History over entries given in file order, as
// ReadHistory does; for callers that scanned the lines themselves.
func NewHistory(path string, entries []HistoryEntry, problems []Problem) *History {
	h := &History{Path: path, Entries: entries, Problems: problems}
	h.index()
	return h
}

// index groups entries by project and marks the up-arrow window. Newest
// means latest in the file: the client appends and reads history
// backwards, and timestamps from separate processes may interleave.
func (h *History) index() {
	h.byProject = make(map[string][]int)
	h.projects = nil
	h.add(0)
}

// add indexes the entries from h.Entries[from:] on, which are newer than
// all before them: each goes at the end of its project's list (lists are
// oldest first), is in the up-arrow window, and pushes the entry
// HistoryUpArrowLimit places older out of it.
func (h *History) add(from int) {
	added := false
	for i := from; i < len(h.Entries); i++ {
		p := h.Entries[i].Project
		list, seen := h.byProject[p]
		if !seen {
			added = true
		}
		list = append(list, i)
		h.byProject[p] = list
		h.Entries[i].InUpArrow = true
		if n := len(list); n > HistoryUpArrowLimit {
			h.Entries[list[n-1-HistoryUpArrowLimit]].InUpArrow = false
		}
	}
	if added {
		// A new slice: callers may hold the previous one.
		ps := make([]string, 0, len(h.byProject))
		for p := range h.byProject {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		h.projects = ps
	}
}

// Append adds entries read after the ones h holds (TailHistory's), in
// file order, with their problems, and updates the index and the
// up-arrow window. It costs what was appended, not the size of h (plus
// the sorted project list when a new project appears). Entries that
// moved out of the up-arrow window are changed in place, so h must not
// be read concurrently.
func (h *History) Append(entries []HistoryEntry, problems []Problem) {
	from := len(h.Entries)
	h.Entries = append(h.Entries, entries...)
	h.Problems = append(h.Problems, problems...)
	if h.byProject == nil {
		h.byProject = make(map[string][]int)
	}
	h.add(from)
}

// Projects lists the distinct project values, sorted.
func (h *History) Projects() []string {
	return h.projects
}

// ForProject returns the entries whose project is exactly project, newest
// first. The pointers point into h.Entries.
func (h *History) ForProject(project string) []*HistoryEntry {
	idx := h.byProject[project]
	out := make([]*HistoryEntry, len(idx))
	for i, j := range idx {
		out[len(idx)-1-i] = &h.Entries[j]
	}
	return out
}

// UpArrow returns what the client offers on the up arrow for project: its
// newest HistoryUpArrowLimit entries, newest first.
func (h *History) UpArrow(project string) []*HistoryEntry {
	all := h.ForProject(project)
	if len(all) > HistoryUpArrowLimit {
		all = all[:HistoryUpArrowLimit]
	}
	return all
}

// SortedPastes returns the entry's pastes ordered by id.
func (e *HistoryEntry) SortedPastes() []PastedContent {
	out := make([]PastedContent, 0, len(e.PastedContents))
	for _, p := range e.PastedContents {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
