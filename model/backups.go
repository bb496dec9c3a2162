package model

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ConfigBackupsDir holds copies of ~/.claude.json taken before the client
// rewrites it (at most one a minute, newest 5 kept).
const ConfigBackupsDir = "backups"

// configBackupPrefix starts every backup name; the epoch ms follows.
const configBackupPrefix = ".claude.json.backup."

// readStoreDir lists a store folder of the home. A missing folder is
// empty; an unreadable one is a problem, with whatever entries were read.
func readStoreDir(fsys fs.FS, dir string) ([]fs.DirEntry, []Problem) {
	ents, err := fs.ReadDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return ents, []Problem{{File: dir, Kind: ProblemUnreadable, Reason: err.Error()}}
	}
	return ents, nil
}

// ConfigBackup is one backups/.claude.json.backup.<epoch ms> file.
type ConfigBackup struct {
	Path string `json:"path"`
	// Taken is the time in the file name.
	Taken   time.Time `json:"taken"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
}

// ListConfigBackups lists the ~/.claude.json backups of the home fsys,
// newest first. Other entries of the folder are reported.
func ListConfigBackups(fsys fs.FS) ([]ConfigBackup, []Problem) {
	ents, problems := readStoreDir(fsys, ConfigBackupsDir)
	var out []ConfigBackup
	for _, de := range ents {
		p := path.Join(ConfigBackupsDir, de.Name())
		ms, err := strconv.ParseInt(strings.TrimPrefix(de.Name(), configBackupPrefix), 10, 64)
		if !strings.HasPrefix(de.Name(), configBackupPrefix) || err != nil || de.IsDir() {
			problems = append(problems, Problem{File: p, Kind: ProblemMalformed, Reason: "not a .claude.json.backup.<epoch ms> file"})
			continue
		}
		info, err := de.Info()
		if err != nil {
			problems = append(problems, Problem{File: p, Kind: ProblemUnreadable, Reason: err.Error()})
			continue
		}
		out = append(out, ConfigBackup{Path: p, Taken: time.UnixMilli(ms).UTC(), Size: info.Size(), ModTime: info.ModTime()})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Taken.After(out[j].Taken) })
	return out, problems
}
