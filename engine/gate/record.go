package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// Record is one decision of the gate, a line of gate.jsonl. It names the
// rules that fired and where, never the text written (so never a secret).
type Record struct {
	Time    time.Time `json:"time"`
	Session string    `json:"session,omitempty"`
	Tool    string    `json:"tool"`
	Path    string    `json:"path"`
	// Kind is what the file is to the client ("" for a path the gate
	// passed without judging).
	Kind     Kind        `json:"kind,omitempty"`
	Decision Decision    `json:"decision"`
	Rules    []RuleFired `json:"rules,omitempty"`
	// Micros is how long the hook process worked, from start to answer.
	Micros int64 `json:"micros"`
	// Error is why the gate decided nothing (a malformed event, a
	// timeout, an internal error): the call went ahead.
	Error string `json:"error,omitempty"`
}

// RuleFired is a fired rule as recorded: no message text, which may quote
// what was written.
type RuleFired struct {
	Rule     Rule     `json:"rule"`
	Decision Decision `json:"decision"`
	Line     int      `json:"line,omitempty"`
}

// Held reports whether the gate stopped the call or put it to the user.
func (r Record) Held() bool { return r.Decision == Deny || r.Decision == Ask }

// NewRecord is the record of a verdict on a call (its Micros is the
// caller's to set once the answer is out).
func NewRecord(now time.Time, ev Event, t Target, v Verdict) Record {
	r := Record{Time: now.UTC(), Session: ev.SessionID, Tool: ev.ToolName, Path: t.Path, Kind: t.Kind, Decision: v.Decision}
	for _, f := range v.Fired {
		r.Rules = append(r.Rules, RuleFired{Rule: f.Rule, Decision: f.Decision, Line: f.Line})
	}
	return r
}

// StateDir is memscope's state folder: $XDG_STATE_HOME/memscope, else
// ~/.local/state/memscope.
func StateDir(getenv func(string) string, userHome func() (string, error)) (string, error) {
	dir, err := model.XDGState.Memscope(getenv, userHome)
	if err != nil {
		return "", fmt.Errorf("find the state folder: %w", err)
	}
	return dir, nil
}

// LogName is the gate's record in the state folder; ErrorLogName is
// memscope's log of what went wrong where nobody watches (the hook).
const (
	LogName      = "gate.jsonl"
	ErrorLogName = "memscope.log"
)

// MaxLogBytes is how much of gate.jsonl ReadLog reads: its end.
const MaxLogBytes = 8 << 20

// Append adds line to the file at path with one write in append mode, so
// hooks running side by side never interleave their lines; the folder is
// made when missing. A log line is not memory: it needs no journal.
func Append(path string, line []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("%s: %s, not a file", path, model.NotRegularReason(st.Mode()))
	}
	_, err = f.Write(line)
	return errors.Join(err, f.Close())
}

// AppendRecord adds r to the gate log at path.
func AppendRecord(path string, r Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return Append(path, append(b, '\n'))
}

// ReadLog reads the gate log at path (its last MaxLogBytes when larger):
// the records oldest first, and how many lines were malformed and skipped.
// A missing log is no records.
func ReadLog(path string) ([]Record, int, error) {
	f, err := model.OpenRegularFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	skipFirst := false
	if st.Size() > MaxLogBytes {
		if _, err := f.Seek(st.Size()-MaxLogBytes, io.SeekStart); err != nil {
			return nil, 0, err
		}
		skipFirst = true
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxLogBytes))
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	if skipFirst {
		// The first line was cut by the seek.
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	var out []Record
	bad := 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil || r.Tool == "" {
			bad++
			continue
		}
		out = append(out, r)
	}
	return out, bad, nil
}

// HeldSince counts the calls the gate denied or asked about at or after
// since: the Overview's "3 memory writes held today".
func HeldSince(records []Record, since time.Time) int {
	n := 0
	for _, r := range records {
		if r.Held() && !r.Time.Before(since) {
			n++
		}
	}
	return n
}

// HeldLine is the Overview's line for the records ("" when none was held
// since the start of now's day, in now's location).
func HeldLine(records []Record, now time.Time) string {
	_, line := HeldToday(records, now)
	return line
}

// HeldToday counts the writes held since the start of now's day, and says
// so as HeldLine does.
func HeldToday(records []Record, now time.Time) (int, string) {
	y, m, d := now.Date()
	n := HeldSince(records, time.Date(y, m, d, 0, 0, 0, 0, now.Location()))
	if n == 0 {
		return 0, ""
	}
	return n, format.Count(n, "memory write", "") + " held today"
}

// HeldFor are the denied and asked records of the memory folder dir (the
// Review pane shows them beside its memories), newest first.
func HeldFor(records []Record, dir string) []Record {
	var out []Record
	prefix := filepath.Clean(dir) + string(filepath.Separator)
	for i := len(records) - 1; i >= 0; i-- {
		if r := records[i]; r.Held() && strings.HasPrefix(r.Path, prefix) {
			out = append(out, r)
		}
	}
	return out
}
