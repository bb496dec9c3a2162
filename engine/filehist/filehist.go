package filehist

import (
	"io/fs"
	"path"
	"sort"
	"time"

	"github.com/memscope/memscope/model"
)

// TouchKind says how a turn involved a tracked file.
type TouchKind string

// The ways a turn involves a file.
const (
	// TouchEdited: a file-history-delta says the turn first touched the
	// file; the backup is the file before the turn's edit.
	TouchEdited TouchKind = "edited"
	// TouchBackedUp: the turn's snapshot holds a new version of the file,
	// saved at the turn's start because it changed since its last backup.
	TouchBackedUp TouchKind = "backed-up"
)

// TurnFile is one file a turn touched.
type TurnFile struct {
	TrackingPath   string    `json:"trackingPath"`
	How            TouchKind `json:"how"`
	Version        int       `json:"version"`
	BackupFileName string    `json:"backupFileName,omitempty"`
	// Absent is true for a null backup: the file did not exist.
	Absent bool `json:"absent,omitempty"`
	// Line is the transcript line of the delta or snapshot record.
	Line int `json:"line,omitempty"`
}

// FileTurn is one user prompt with a file-history snapshot: the point
// /rewind can go back to.
type FileTurn struct {
	// MessageID is the prompt's uuid, the snapshot's key.
	MessageID string `json:"messageId"`
	// Time is the prompt's time, else the snapshot's.
	Time time.Time `json:"time,omitzero"`
	// Prompt is the prompt's first line; empty when the prompt is not in
	// the transcript (records are written asynchronously).
	Prompt     string `json:"prompt"`
	PromptLine int    `json:"promptLine,omitempty"`
	// SnapshotLine is the line of the record that created the snapshot.
	SnapshotLine int `json:"snapshotLine,omitempty"`
	// Synthesized is true when the snapshot record is missing and the
	// snapshot was built from the previous one and the turn's deltas.
	Synthesized bool `json:"synthesized,omitempty"`
	// Tracked counts the files in the snapshot.
	Tracked int        `json:"tracked"`
	Touched []TurnFile `json:"touched"`
}

// FileVersion is one version of a tracked file.
type FileVersion struct {
	Version        int    `json:"version"`
	BackupFileName string `json:"backupFileName,omitempty"`
	// Absent is true for a null backup: the file did not exist then, and
	// restoring this version deletes it.
	Absent     bool      `json:"absent"`
	BackupTime time.Time `json:"backupTime,omitzero"`
	// BackupPath is the backup inside the home, "" when Absent.
	BackupPath string `json:"backupPath,omitempty"`
	// BackupExists says whether the backup file is on disk; Size and
	// Mode are its size and permissions when it is.
	BackupExists bool        `json:"backupExists"`
	Size         int64       `json:"size"`
	Mode         fs.FileMode `json:"mode,omitempty"`
	// Turns are the snapshots that list this version, in turn order.
	Turns []string `json:"turns"`
	// Unreferenced is true for a backup found on disk that no record
	// names; its path hash ties it to this file.
	Unreferenced bool `json:"unreferenced,omitempty"`
}

// TrackedFile is every version of one tracked file.
type TrackedFile struct {
	TrackingPath string `json:"trackingPath"`
	// Target is the file's absolute path on disk.
	Target   string        `json:"target"`
	Versions []FileVersion `json:"versions"`
}

// MissingBackup is a record that names a backup file that is not on disk.
type MissingBackup struct {
	TrackingPath   string `json:"trackingPath"`
	BackupFileName string `json:"backupFileName"`
	Version        int    `json:"version"`
	// Turn is the first snapshot naming it.
	Turn string `json:"turn"`
}

// SessionFileHistory is what memscope shows of one session's file
// history: its turns, every version of every tracked file, and what is
// out of step between the records and the backup folder.
type SessionFileHistory struct {
	SessionID model.SessionID `json:"sessionId"`
	// Transcript is the transcript's path inside the home.
	Transcript string `json:"transcript,omitempty"`
	CWD        string `json:"cwd,omitempty"`
	// BackupDir is file-history/<sessionId> inside the home;
	// BackupDirExists is false when the folder is gone (swept).
	BackupDir       string                    `json:"backupDir"`
	BackupDirExists bool                      `json:"backupDirExists"`
	Turns           []FileTurn                `json:"turns"`
	Files           []TrackedFile             `json:"files"`
	Unreferenced    []model.FileHistoryBackup `json:"unreferenced"`
	Missing         []MissingBackup           `json:"missingBackups"`
	Problems        []model.Problem           `json:"problems"`
	// History is the snapshot set, for restore plans.
	History *model.FileHistory `json:"-"`
}

// BuildSessionFileHistory puts together a session's file history from
// its transcript's records and prompts and its backup folder (nil when
// the folder does not exist). Turns are in time order (a record's place
// in the file is not reliable); files by tracking path; versions by
// number.
func BuildSessionFileHistory(sid model.SessionID, transcript string, t model.FileHistoryTranscript, folder *model.FileHistorySession) SessionFileHistory {
	h := model.BuildFileHistory(t.Records)
	s := SessionFileHistory{SessionID: sid, Transcript: transcript, CWD: t.CWD, BackupDir: path.Join(model.FileHistoryDir, string(sid)),
		History: h, Problems: append([]model.Problem{}, t.Problems...), Turns: []FileTurn{}, Files: []TrackedFile{},
		Unreferenced: []model.FileHistoryBackup{}, Missing: []MissingBackup{}}
	var backups []model.FileHistoryBackup
	if folder != nil {
		s.BackupDirExists = true
		backups = folder.Backups
	}
	order := s.buildTurns(t)
	s.buildFiles(order, backups)
	return s
}

func turnFile(p string, how TouchKind, b model.FileBackup, line int) TurnFile {
	return TurnFile{TrackingPath: p, How: how, Version: b.Version, BackupFileName: b.BackupFileName, Absent: b.FileAbsent, Line: line}
}

func sameBackup(a, b model.FileBackup) bool {
	return a.Version == b.Version && a.FileAbsent == b.FileAbsent && a.BackupFileName == b.BackupFileName
}

func sortedPaths(m map[string]model.FileBackup) []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func sortedTrackedPaths(m map[string]*TrackedFile) []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// buildTurns fills s.Turns and returns the snapshots in the same order.
func (s *SessionFileHistory) buildTurns(t model.FileHistoryTranscript) []*model.FileSnapshot {
	snaps := append([]*model.FileSnapshot(nil), s.History.Snapshots...)
	when := func(sn *model.FileSnapshot) time.Time {
		if p, ok := t.Prompts[sn.MessageID]; ok && !p.Time.IsZero() {
			return p.Time
		}
		return sn.Timestamp
	}
	// A snapshot without a time sorts with the one before it in the file,
	// so the order is total and a missing time moves nothing.
	key := map[*model.FileSnapshot]time.Time{}
	var last time.Time
	for _, sn := range snaps {
		if t := when(sn); !t.IsZero() {
			last = t
		}
		key[sn] = last
	}
	sort.SliceStable(snaps, func(i, j int) bool { return key[snaps[i]].Before(key[snaps[j]]) })
	deltas := map[string][]model.FileHistoryRecord{}
	for _, r := range t.Records {
		if r.Kind == model.FileHistoryDeltaRecord {
			deltas[r.SnapshotMessageID] = append(deltas[r.SnapshotMessageID], r)
		}
	}
	var prev map[string]model.FileBackup
	for _, sn := range snaps {
		ft := FileTurn{MessageID: sn.MessageID, Time: when(sn), SnapshotLine: sn.Line, Synthesized: sn.Synthesized, Tracked: len(sn.Files), Touched: []TurnFile{}}
		if p, ok := t.Prompts[sn.MessageID]; ok {
			ft.Prompt, ft.PromptLine = p.FirstLine, p.Line
		}
		edited := map[string]bool{}
		for _, d := range deltas[sn.MessageID] {
			// The snapshot's entry is what counts when a record replaced
			// the delta's (see model.BuildFileHistory).
			b, ok := sn.Files[d.TrackingPath]
			if !ok || edited[d.TrackingPath] {
				continue
			}
			edited[d.TrackingPath] = true
			ft.Touched = append(ft.Touched, turnFile(d.TrackingPath, TouchEdited, b, d.Line))
		}
		for _, p := range sortedPaths(sn.Files) {
			b := sn.Files[p]
			if edited[p] {
				continue
			}
			if old, ok := prev[p]; ok && sameBackup(old, b) {
				continue
			}
			if _, ok := prev[p]; !ok && b.Version == 1 {
				// A version-1 entry first seen here without a delta: the
				// delta never reached the file, but this turn touched it.
				ft.Touched = append(ft.Touched, turnFile(p, TouchEdited, b, sn.Line))
				continue
			}
			ft.Touched = append(ft.Touched, turnFile(p, TouchBackedUp, b, sn.Line))
		}
		sort.SliceStable(ft.Touched, func(i, j int) bool { return ft.Touched[i].TrackingPath < ft.Touched[j].TrackingPath })
		s.Turns = append(s.Turns, ft)
		prev = sn.Files
	}
	return snaps
}

// buildFiles fills s.Files, s.Unreferenced and s.Missing from the
// snapshots in turn order and the backups on disk.
func (s *SessionFileHistory) buildFiles(snaps []*model.FileSnapshot, backups []model.FileHistoryBackup) {
	onDisk := map[string]model.FileHistoryBackup{}
	for _, b := range backups {
		onDisk[b.Name] = b
	}
	byPath := map[string]*TrackedFile{}
	missing := map[string]bool{}
	for _, sn := range snaps {
		for _, p := range sortedPaths(sn.Files) {
			b := sn.Files[p]
			tf := byPath[p]
			if tf == nil {
				tf = &TrackedFile{TrackingPath: p}
				byPath[p] = tf
			}
			if tf.Target == "" || b.RealParentDir != "" && tf.Target == model.TrackedFileTarget(p, "", s.CWD) {
				tf.Target = model.TrackedFileTarget(p, b.RealParentDir, s.CWD)
			}
			i := tf.version(b)
			if i < 0 {
				v := FileVersion{Version: b.Version, BackupFileName: b.BackupFileName, Absent: b.FileAbsent, BackupTime: b.BackupTime, Turns: []string{}}
				if !b.FileAbsent {
					v.BackupPath = path.Join(s.BackupDir, b.BackupFileName)
					if d, ok := onDisk[b.BackupFileName]; ok {
						v.BackupExists, v.Size, v.Mode = true, d.Size, d.Mode
					} else if !missing[b.BackupFileName] {
						missing[b.BackupFileName] = true
						s.Missing = append(s.Missing, MissingBackup{TrackingPath: p, BackupFileName: b.BackupFileName, Version: b.Version, Turn: sn.MessageID})
					}
				}
				tf.Versions = append(tf.Versions, v)
				i = len(tf.Versions) - 1
			}
			tf.Versions[i].Turns = append(tf.Versions[i].Turns, sn.MessageID)
		}
	}
	s.Unreferenced = append(s.Unreferenced, s.History.Unreferenced(backups)...)
	// An unreferenced backup whose path hash is a tracked file's is a
	// version of it that no record reached the transcript for.
	for _, u := range s.Unreferenced {
		for _, tf := range byPath {
			if tf.hashMatches(u.PathHash, s.CWD) && tf.version(model.FileBackup{BackupFileName: u.Name, Version: u.Version}) < 0 {
				// The backup's mtime is when the client copied it.
				tf.Versions = append(tf.Versions, FileVersion{Version: u.Version, BackupFileName: u.Name, BackupPath: u.Path, BackupTime: u.ModTime,
					BackupExists: true, Size: u.Size, Mode: u.Mode, Turns: []string{}, Unreferenced: true})
			}
		}
	}
	for _, p := range sortedTrackedPaths(byPath) {
		tf := byPath[p]
		sort.SliceStable(tf.Versions, func(i, j int) bool { return tf.Versions[i].Version < tf.Versions[j].Version })
		s.Files = append(s.Files, *tf)
	}
}

// version is the index of the version b names, or -1.
func (tf *TrackedFile) version(b model.FileBackup) int {
	for i, v := range tf.Versions {
		if v.Version == b.Version && v.Absent == b.FileAbsent && v.BackupFileName == b.BackupFileName {
			return i
		}
	}
	return -1
}

// hashMatches reports whether a backup's path hash is this file's: the
// hash of its target, or of its tracking path resolved against cwd (the
// client hashes the path it was given, which may differ from the real
// parent folder's).
func (tf *TrackedFile) hashMatches(hash, cwd string) bool {
	if hash == model.FileHistoryPathHash(tf.Target) {
		return true
	}
	return hash == model.FileHistoryPathHash(model.TrackedFileTarget(tf.TrackingPath, "", cwd))
}

// Turn returns the turn whose message id is id or starts with it (a
// unique prefix).
func (s *SessionFileHistory) Turn(id string) (*FileTurn, bool) {
	var hit *FileTurn
	for i := range s.Turns {
		t := &s.Turns[i]
		if t.MessageID == id {
			return t, true
		}
		if id != "" && len(t.MessageID) > len(id) && t.MessageID[:len(id)] == id {
			if hit != nil {
				return nil, false
			}
			hit = t
		}
	}
	return hit, hit != nil
}

// File returns the tracked file named by its tracking path or its
// absolute path on disk.
func (s *SessionFileHistory) File(name string) (*TrackedFile, bool) {
	for i := range s.Files {
		f := &s.Files[i]
		if f.TrackingPath == name || f.Target == name {
			return f, true
		}
	}
	return nil, false
}

// Version returns version n of the file: the referenced one when an
// unreferenced backup carries the same number.
func (tf *TrackedFile) Version(n int) (*FileVersion, bool) {
	var hit *FileVersion
	for i := range tf.Versions {
		v := &tf.Versions[i]
		if v.Version == n && (hit == nil || hit.Unreferenced && !v.Unreferenced) {
			hit = v
		}
	}
	return hit, hit != nil
}
