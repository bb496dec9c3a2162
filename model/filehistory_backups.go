package model

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"
)

// FileHistoryPathHash is the h16 of a backup name: the first 16 hex digits
// of the sha256 of the file's absolute path.
func FileHistoryPathHash(absPath string) string {
	sum := sha256.Sum256([]byte(absPath))
	return hex.EncodeToString(sum[:8])
}

// BackupFileName returns "<h16>@v<N>" for a file's absolute path and
// version.
func BackupFileName(absPath string, version int) string {
	return FileHistoryPathHash(absPath) + "@v" + strconv.Itoa(version)
}

// ParseBackupFileName splits "<h16>@v<N>" into the path hash and version.
func ParseBackupFileName(name string) (pathHash string, version int, ok bool) {
	h, v, found := strings.Cut(name, "@v")
	if !found || len(h) != 16 || !isLowerHex(h) || v == "" || v[0] == '0' && v != "0" {
		return "", 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return "", 0, false
	}
	return h, n, true
}

// FileHistoryBackup is one backup file on disk.
type FileHistoryBackup struct {
	Name     string      `json:"name"`
	Path     string      `json:"path"`
	PathHash string      `json:"pathHash"`
	Version  int         `json:"version"`
	Size     int64       `json:"size"`
	Mode     fs.FileMode `json:"mode"`
	ModTime  time.Time   `json:"modTime"`
}

// FileHistorySession is the backup folder of one session.
type FileHistorySession struct {
	SessionID SessionID `json:"sessionId"`
	Path      string    `json:"path"`
	// ModTime is the folder's mtime, which cleanupPeriodDays goes by.
	ModTime time.Time           `json:"modTime"`
	Backups []FileHistoryBackup `json:"backups"`
}

// ListFileHistory lists file-history/<sessionId>/ folders of the home
// fsys and their backups, sorted by session id then name. A missing
// file-history folder is empty. Odd entries are reported as problems.
func ListFileHistory(fsys fs.FS) ([]FileHistorySession, []Problem) {
	ents, problems := readStoreDir(fsys, FileHistoryDir)
	var out []FileHistorySession
	for _, de := range ents {
		dir := path.Join(FileHistoryDir, de.Name())
		info, err := de.Info()
		if err != nil {
			problems = append(problems, Problem{File: dir, Kind: ProblemUnreadable, Reason: err.Error()})
			continue
		}
		if !info.IsDir() {
			problems = append(problems, Problem{File: dir, Kind: ProblemMalformed, Reason: "not a session folder"})
			continue
		}
		s := FileHistorySession{SessionID: SessionID(de.Name()), Path: dir, ModTime: info.ModTime()}
		s.Backups, problems = readBackups(fsys, dir, problems)
		out = append(out, s)
	}
	return out, problems
}

// ReadFileHistorySession reads one session's backup folder; nil (and no
// problem) when the folder does not exist.
func ReadFileHistorySession(fsys fs.FS, sid SessionID) (*FileHistorySession, []Problem) {
	dir := path.Join(FileHistoryDir, string(sid))
	if !fs.ValidPath(dir) || strings.Count(dir, "/") != 1 {
		return nil, []Problem{{File: dir, Kind: ProblemMalformed, Reason: "not a session id"}}
	}
	info, err := fs.Stat(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []Problem{{File: dir, Kind: ProblemUnreadable, Reason: err.Error()}}
	}
	if !info.IsDir() {
		return nil, []Problem{{File: dir, Kind: ProblemMalformed, Reason: "not a session folder"}}
	}
	s := &FileHistorySession{SessionID: sid, Path: dir, ModTime: info.ModTime()}
	var problems []Problem
	s.Backups, problems = readBackups(fsys, dir, nil)
	return s, problems
}

// readBackups lists the backups of a session folder, reporting odd
// entries.
func readBackups(fsys fs.FS, dir string, problems []Problem) ([]FileHistoryBackup, []Problem) {
	var out []FileHistoryBackup
	files, err := fs.ReadDir(fsys, dir)
	if err != nil {
		problems = append(problems, Problem{File: dir, Kind: ProblemUnreadable, Reason: err.Error()})
	}
	for _, f := range files {
		p := path.Join(dir, f.Name())
		h, v, ok := ParseBackupFileName(f.Name())
		if !ok {
			problems = append(problems, Problem{File: p, Kind: ProblemMalformed, Reason: "not a backup name (<h16>@v<N>)"})
			continue
		}
		fi, err := f.Info()
		if err != nil {
			problems = append(problems, Problem{File: p, Kind: ProblemUnreadable, Reason: err.Error()})
			continue
		}
		if !fi.Mode().IsRegular() {
			// Kept, so the version shows, but never read or restored.
			reason := NotRegularReason(fi.Mode())
			if fi.Mode()&fs.ModeSymlink != 0 {
				var le *LinkError
				switch target, err := fs.Stat(fsys, p); {
				case err == nil:
					reason = "is a symbolic link to a " + FileKind(target.Mode()) + ", not a regular file"
				case errors.As(err, &le):
					reason = le.Error() // out of the home: not looked at
				}
			}
			problems = append(problems, Problem{File: p, Kind: ProblemMalformed, Reason: reason})
		}
		out = append(out, FileHistoryBackup{Name: f.Name(), Path: p, PathHash: h, Version: v, Size: fi.Size(), Mode: fi.Mode(), ModTime: fi.ModTime()})
	}
	return out, problems
}

// Unreferenced returns the backups of a session folder that no snapshot
// of h refers to (their records never reached the transcript).
func (h *FileHistory) Unreferenced(backups []FileHistoryBackup) []FileHistoryBackup {
	used := map[string]bool{}
	for _, s := range h.Snapshots {
		for _, b := range s.Files {
			if !b.FileAbsent {
				used[b.BackupFileName] = true
			}
		}
	}
	var out []FileHistoryBackup
	for _, b := range backups {
		if !used[b.Name] {
			out = append(out, b)
		}
	}
	return out
}
