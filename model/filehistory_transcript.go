package model

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// promptLineMax caps a prompt's first line, in runes: it labels a turn,
// and a pasted blob on one line would otherwise fill the report.
const promptLineMax = 200

// UserPrompt is a user prompt of a transcript, what a file-history
// snapshot is keyed by.
type UserPrompt struct {
	UUID string    `json:"uuid"`
	Time time.Time `json:"time,omitzero"`
	// FirstLine is the first non-blank line of the prompt's text, cut to
	// 200 runes.
	FirstLine string `json:"firstLine"`
	// Line is the prompt's 1-based line in the transcript.
	Line int `json:"line"`
}

// FileHistoryTranscript is what file history needs from one transcript:
// its file-history records in file order, its user prompts and its cwd.
type FileHistoryTranscript struct {
	SessionID SessionID
	// CWD is the first cwd a record carries; relative tracking paths
	// without realParentDir are relative to it.
	CWD     string
	Records []FileHistoryRecord
	// Prompts are keyed by uuid.
	Prompts  map[string]UserPrompt
	Problems []Problem
}

// ReadFileHistoryTranscript reads a transcript for its file history. Lines
// that do not parse, and file-history records of the wrong shape, are
// reported as problems and skipped; name labels them.
func ReadFileHistoryTranscript(r io.Reader, name string) (FileHistoryTranscript, error) {
	t := FileHistoryTranscript{Prompts: map[string]UserPrompt{}}
	sum, err := ScanTranscript(r, name, ScanOptions{Content: true, KeepText: true, KeepRaw: true}, func(rec *Record) error {
		if t.CWD == "" {
			t.CWD = rec.CWD
		}
		if t.SessionID == "" {
			t.SessionID = SessionID(rec.SessionID)
		}
		switch {
		case FileHistoryRecordKind(rec.Type) == FileHistorySnapshotRecord || FileHistoryRecordKind(rec.Type) == FileHistoryDeltaRecord:
			fr, ok, err := ParseFileHistoryRecord(rec.Raw)
			if err != nil {
				t.Problems = append(t.Problems, Problem{File: name, Line: rec.Line, Kind: ProblemMalformed, Reason: err.Error()})
				return nil
			}
			if ok {
				fr.Line = rec.Line
				t.Records = append(t.Records, fr)
			}
		case rec.Type == RecordUser && rec.UUID != "" && !rec.IsSidechain && !rec.IsCompactSummary:
			if text, ok := promptText(rec); ok {
				t.Prompts[rec.UUID] = UserPrompt{UUID: rec.UUID, Time: rec.Timestamp, FirstLine: firstLine(text), Line: rec.Line}
			}
		}
		return nil
	})
	t.Problems = append(sum.Problems, t.Problems...)
	if err != nil {
		return t, fmt.Errorf("read file history of %s: %w", name, err)
	}
	return t, nil
}

// promptText is the text a user typed: false for a user record that only
// carries tool results.
func promptText(rec *Record) (string, bool) {
	if rec.Message == nil {
		return "", false
	}
	var parts []string
	for _, b := range rec.Message.Content {
		if b.Type == BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n"), len(parts) > 0
}

func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		l = strings.TrimSpace(strings.ToValidUTF8(l, "\uFFFD"))
		if l == "" {
			continue
		}
		if utf8.RuneCountInString(l) > promptLineMax {
			r := []rune(l)
			l = string(r[:promptLineMax]) + "…"
		}
		return l
	}
	return ""
}

// TrackedFileTarget is the absolute path of a tracked file on disk: the
// backup's realParentDir plus the base name when known, else the tracking
// path itself when absolute, else the tracking path relative to cwd.
func TrackedFileTarget(trackingPath, realParentDir, cwd string) string {
	return trackedFileTarget(trackingPath, realParentDir, cwd)
}
