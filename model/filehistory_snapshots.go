package model

import (
	"fmt"
	"maps"
	"path"
	"sort"
	"time"
)

// FileSnapshot is the state of every tracked file before one user prompt.
type FileSnapshot struct {
	// MessageID is the user prompt's uuid.
	MessageID string
	Timestamp time.Time
	// Files maps tracking paths to their backups.
	Files map[string]FileBackup
	// Synthesized is true when no snapshot record with this id was seen:
	// a delta named it, and it was built from the previous snapshot.
	Synthesized bool
	// Line is the transcript line of the record that created it.
	Line int
}

// FileHistory is the snapshot set of one session, built from its
// file-history records.
type FileHistory struct {
	// Snapshots are in order of first appearance.
	Snapshots []*FileSnapshot
	byID      map[string]*FileSnapshot
}

// BuildFileHistory applies file-history records in the order given:
// a snapshot record adds a snapshot (one with isSnapshotUpdate, or one
// whose id is already known, replaces the earlier one's files in place; a
// snapshot first created by a delta keeps the delta's files the record
// does not list); a delta merges its file into the snapshot named by
// snapshotMessageId, building that snapshot from the previous one when it
// is missing.
func BuildFileHistory(recs []FileHistoryRecord) *FileHistory {
	h := &FileHistory{byID: make(map[string]*FileSnapshot)}
	for i := range recs {
		r := &recs[i]
		switch r.Kind {
		case FileHistorySnapshotRecord:
			h.applySnapshot(r)
		case FileHistoryDeltaRecord:
			h.applyDelta(r)
		}
	}
	return h
}

func (h *FileHistory) applySnapshot(r *FileHistoryRecord) {
	files := maps.Clone(r.Files)
	if files == nil {
		files = map[string]FileBackup{}
	}
	s, ok := h.byID[r.MessageID]
	if !ok {
		s = &FileSnapshot{MessageID: r.MessageID, Line: r.Line}
		h.byID[r.MessageID] = s
		h.Snapshots = append(h.Snapshots, s)
	} else if s.Synthesized && !r.IsSnapshotUpdate {
		// The delta was written before its snapshot (writes are
		// asynchronous): keep what the delta added.
		for p, b := range s.Files {
			if _, listed := files[p]; !listed {
				files[p] = b
			}
		}
	}
	s.Files = files
	s.Timestamp = r.Timestamp
	s.Synthesized = false
}

func (h *FileHistory) applyDelta(r *FileHistoryRecord) {
	s, ok := h.byID[r.SnapshotMessageID]
	if !ok {
		s = &FileSnapshot{MessageID: r.SnapshotMessageID, Timestamp: r.Timestamp, Synthesized: true, Line: r.Line, Files: map[string]FileBackup{}}
		if n := len(h.Snapshots); n > 0 && h.Snapshots[n-1].Files != nil {
			s.Files = maps.Clone(h.Snapshots[n-1].Files)
		}
		h.byID[s.MessageID] = s
		h.Snapshots = append(h.Snapshots, s)
	}
	s.Files[r.TrackingPath] = r.Backup
}

// Snapshot returns the snapshot with the given message id, or nil.
func (h *FileHistory) Snapshot(messageID string) *FileSnapshot {
	return h.byID[messageID]
}

// TrackedPaths lists every tracking path any snapshot mentions, sorted.
func (h *FileHistory) TrackedPaths() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range h.Snapshots {
		for p := range s.Files {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// firstVersion returns the version-1 entry of a tracked path: the file as
// it was before the session's first edit of it.
func (h *FileHistory) firstVersion(p string) (FileBackup, bool) {
	for _, s := range h.Snapshots {
		if b, ok := s.Files[p]; ok && b.Version == 1 {
			return b, true
		}
	}
	return FileBackup{}, false
}

// RestoreAction is what restoring a snapshot does to one file.
type RestoreAction string

// The restore actions.
const (
	// RestoreCopy copies the backup over the file.
	RestoreCopy RestoreAction = "restore"
	// RestoreDelete deletes the file: it did not exist at that point.
	RestoreDelete RestoreAction = "delete"
	// RestoreLeave leaves the file alone: neither the target snapshot nor
	// a version-1 backup says what it was.
	RestoreLeave RestoreAction = "leave"
)

// RestoreStep is one file of a restore plan.
type RestoreStep struct {
	TrackingPath string        `json:"trackingPath"`
	Action       RestoreAction `json:"action"`
	// Target is the absolute path of the file on disk.
	Target string `json:"target"`
	// BackupPath is the backup inside the home
	// (file-history/<sessionId>/<h16>@v<N>); empty unless Action is
	// RestoreCopy.
	BackupPath string     `json:"backupPath,omitempty"`
	Backup     FileBackup `json:"backup"`
	// FromFirstVersion is true when the target snapshot had no entry and
	// the version-1 entry was used.
	FromFirstVersion bool `json:"fromFirstVersion,omitempty"`
}

// RestorePlan says what /rewind "Restore code" would do to go back to the
// snapshot target of session sid: for each tracked file, its entry in the
// target snapshot, else its version-1 entry; a null backup deletes the
// file. cwd resolves relative tracking paths that carry no realParentDir.
// Steps are sorted by tracking path.
func (h *FileHistory) RestorePlan(sid SessionID, target, cwd string) ([]RestoreStep, error) {
	snap := h.byID[target]
	if snap == nil {
		return nil, fmt.Errorf("restore plan: no snapshot %s in session %s", target, sid)
	}
	var steps []RestoreStep
	for _, p := range h.TrackedPaths() {
		st := RestoreStep{TrackingPath: p, Action: RestoreLeave}
		b, ok := snap.Files[p]
		if !ok {
			b, ok = h.firstVersion(p)
			st.FromFirstVersion = ok
		}
		if ok {
			st.Backup = b
			if b.FileAbsent {
				st.Action = RestoreDelete
			} else {
				st.Action = RestoreCopy
				st.BackupPath = path.Join(FileHistoryDir, string(sid), b.BackupFileName)
			}
		}
		st.Target = trackedFileTarget(p, b.RealParentDir, cwd)
		steps = append(steps, st)
	}
	return steps, nil
}

// trackedFileTarget turns a tracking path into an absolute path: the
// backup's realParentDir plus the base name when known, else the path
// itself when absolute, else relative to cwd.
func trackedFileTarget(trackingPath, realParentDir, cwd string) string {
	switch {
	case realParentDir != "":
		return path.Join(realParentDir, path.Base(trackingPath))
	case path.IsAbs(trackingPath):
		return path.Clean(trackingPath)
	default:
		return path.Join(cwd, trackingPath)
	}
}
