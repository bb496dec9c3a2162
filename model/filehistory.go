package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// FileHistoryDir is the folder of /rewind backups inside a Claude home:
// file-history/<sessionId>/<h16>@v<N>.
const FileHistoryDir = "file-history"

// MaxFileSnapshots is how many snapshots the client keeps per session.
// Transcripts may hold more records; memscope shows them all.
const MaxFileSnapshots = 100

// FileHistoryRecordKind is the type of a file-history transcript record.
type FileHistoryRecordKind string

// The two file-history record types.
const (
	FileHistorySnapshotRecord FileHistoryRecordKind = "file-history-snapshot"
	FileHistoryDeltaRecord    FileHistoryRecordKind = "file-history-delta"
)

// FileBackup is one tracked file's state in a snapshot.
type FileBackup struct {
	// BackupFileName is "<h16>@v<N>" inside file-history/<sessionId>/;
	// empty when FileAbsent.
	BackupFileName string `json:"backupFileName"`
	// FileAbsent is true when backupFileName was null: the file did not
	// exist, so restoring deletes it.
	FileAbsent    bool      `json:"fileAbsent"`
	Version       int       `json:"version"`
	BackupTime    time.Time `json:"backupTime"`
	RealParentDir string    `json:"realParentDir,omitempty"`
}

// FileHistoryRecord is a decoded file-history-snapshot or
// file-history-delta line.
type FileHistoryRecord struct {
	Kind FileHistoryRecordKind `json:"kind"`
	// MessageID is the user prompt's uuid (snapshot) or the assistant
	// message's uuid (delta).
	MessageID string `json:"messageId"`
	// IsSnapshotUpdate (older builds) replaces the earlier snapshot with
	// the same MessageID.
	IsSnapshotUpdate bool `json:"isSnapshotUpdate,omitempty"`
	// Files are a snapshot's trackedFileBackups, keyed by tracking path.
	Files map[string]FileBackup `json:"files,omitempty"`
	// SnapshotMessageID names the snapshot a delta merges into.
	SnapshotMessageID string `json:"snapshotMessageId,omitempty"`
	// TrackingPath and Backup are a delta's file: relative to the cwd
	// when the absolute path starts with the cwd string, else absolute.
	TrackingPath string     `json:"trackingPath,omitempty"`
	Backup       FileBackup `json:"backup"`
	Timestamp    time.Time  `json:"timestamp"`
	// Line is the 1-based line in the transcript, set by the caller.
	Line int `json:"line,omitempty"`
}

type fileBackupJSON struct {
	BackupFileName *string `json:"backupFileName"`
	Version        int     `json:"version"`
	BackupTime     string  `json:"backupTime"`
	RealParentDir  string  `json:"realParentDir"`
}

type fileHistoryJSON struct {
	Type      string `json:"type"`
	MessageID string `json:"messageId"`
	Snapshot  *struct {
		MessageID          string                    `json:"messageId"`
		TrackedFileBackups map[string]fileBackupJSON `json:"trackedFileBackups"`
		Timestamp          string                    `json:"timestamp"`
	} `json:"snapshot"`
	IsSnapshotUpdate  bool            `json:"isSnapshotUpdate"`
	SnapshotMessageID string          `json:"snapshotMessageId"`
	TrackingPath      string          `json:"trackingPath"`
	Backup            *fileBackupJSON `json:"backup"`
	Timestamp         string          `json:"timestamp"`
}

var fileHistoryMarker = []byte(`file-history-`)

// ParseFileHistoryRecord decodes a transcript line if it is a
// file-history-snapshot or file-history-delta record. ok is false (and err
// nil) for any other line that is valid JSON; err says why a line is
// unusable. Lines without the record type's text are rejected without
// decoding, so callers can pass every transcript line cheaply.
func ParseFileHistoryRecord(line []byte) (rec FileHistoryRecord, ok bool, err error) {
	if !bytes.Contains(line, fileHistoryMarker) {
		return FileHistoryRecord{}, false, nil
	}
	// Decode the type alone first: other records may mention the marker
	// and carry fields of the same names with other shapes.
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return FileHistoryRecord{}, false, fmt.Errorf("invalid JSON: %w", err)
	}
	kind := FileHistoryRecordKind(head.Type)
	if kind != FileHistorySnapshotRecord && kind != FileHistoryDeltaRecord {
		return FileHistoryRecord{}, false, nil
	}
	var raw fileHistoryJSON
	if err := json.Unmarshal(line, &raw); err != nil {
		return FileHistoryRecord{}, false, fmt.Errorf("%s: %w", kind, err)
	}
	rec = FileHistoryRecord{Kind: kind, MessageID: raw.MessageID}
	switch rec.Kind {
	case FileHistorySnapshotRecord:
		if raw.Snapshot == nil {
			return FileHistoryRecord{}, false, fmt.Errorf("%s without snapshot", rec.Kind)
		}
		if rec.MessageID == "" {
			rec.MessageID = raw.Snapshot.MessageID
		}
		rec.IsSnapshotUpdate = raw.IsSnapshotUpdate
		rec.Timestamp = parseISOLoose(raw.Snapshot.Timestamp)
		rec.Files = make(map[string]FileBackup, len(raw.Snapshot.TrackedFileBackups))
		for p, b := range raw.Snapshot.TrackedFileBackups {
			rec.Files[p] = b.decode()
		}
	case FileHistoryDeltaRecord:
		if raw.Backup == nil || raw.TrackingPath == "" || raw.SnapshotMessageID == "" {
			return FileHistoryRecord{}, false, fmt.Errorf("%s without snapshotMessageId, trackingPath or backup", rec.Kind)
		}
		rec.SnapshotMessageID = raw.SnapshotMessageID
		rec.TrackingPath = raw.TrackingPath
		rec.Backup = raw.Backup.decode()
		rec.Timestamp = parseISOLoose(raw.Timestamp)
	}
	if rec.MessageID == "" {
		return FileHistoryRecord{}, false, fmt.Errorf("%s without messageId", rec.Kind)
	}
	return rec, true, nil
}

func (b fileBackupJSON) decode() FileBackup {
	fb := FileBackup{Version: b.Version, BackupTime: parseISOLoose(b.BackupTime), RealParentDir: b.RealParentDir}
	if b.BackupFileName == nil {
		fb.FileAbsent = true
	} else {
		fb.BackupFileName = *b.BackupFileName
	}
	return fb
}

// parseISOLoose reads an ISO time; anything else gives the zero time,
// since these times are only shown, never relied on.
func parseISOLoose(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
