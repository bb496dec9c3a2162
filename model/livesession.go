package model

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// LiveSessionsDir holds one <pid>.json per running interactive client
// (deleted on exit). Seed-layout session folders (sessions/<id>/) live
// there too and are not live sessions.
const LiveSessionsDir = "sessions"

// LiveStatus is what a running client reports it is doing.
type LiveStatus string

// The statuses seen in sessions/<pid>.json; others are kept as written.
const (
	LiveBusy LiveStatus = "busy"
	LiveIdle LiveStatus = "idle"
)

// LiveSession is one sessions/<pid>.json file.
type LiveSession struct {
	// Path is the file inside the home.
	Path      string     `json:"path"`
	PID       int        `json:"pid"`
	SessionID SessionID  `json:"sessionId"`
	CWD       string     `json:"cwd"`
	StartedAt time.Time  `json:"startedAt"`
	Status    LiveStatus `json:"status"`
	// Extra holds the other keys as written.
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
	// ModTime is the file's mtime (when it was last rewritten).
	ModTime time.Time `json:"modTime"`
}

// ParseLiveSession decodes the content of a sessions/<pid>.json file.
// pidFromName is used when the file has no pid field.
func ParseLiveSession(data []byte, pidFromName int) (LiveSession, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return LiveSession{}, fmt.Errorf("invalid JSON: %w", err)
	}
	s := LiveSession{PID: pidFromName}
	var err error
	take := func(key string, dst any) {
		raw, ok := all[key]
		if !ok || err != nil {
			return
		}
		delete(all, key)
		if e := json.Unmarshal(raw, dst); e != nil {
			err = fmt.Errorf("%s: %w", key, e)
		}
	}
	var sid, status string
	take("pid", &s.PID)
	take("sessionId", &sid)
	take("cwd", &s.CWD)
	take("status", &status)
	if raw, ok := all["startedAt"]; ok && err == nil {
		delete(all, "startedAt")
		if s.StartedAt, err = parseMillisOrISO(raw); err != nil {
			err = fmt.Errorf("startedAt: %w", err)
		}
	}
	if err != nil {
		return LiveSession{}, err
	}
	s.SessionID, s.Status = SessionID(sid), LiveStatus(status)
	if len(all) > 0 {
		s.Extra = all
	}
	return s, nil
}

// ReadLiveSessions reads every sessions/<pid>.json of the home fsys,
// sorted by pid. Key files (<pid>.<hex>.key) and folders are skipped;
// other names and bad files are reported.
func ReadLiveSessions(fsys fs.FS) ([]LiveSession, []Problem) {
	ents, problems := readStoreDir(fsys, LiveSessionsDir)
	var out []LiveSession
	for _, de := range ents {
		name, p := de.Name(), path.Join(LiveSessionsDir, de.Name())
		if de.IsDir() || strings.HasSuffix(name, ".key") {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSuffix(name, ".json"))
		if !strings.HasSuffix(name, ".json") || err != nil {
			problems = append(problems, Problem{File: p, Kind: ProblemMalformed, Reason: "not a live session file (<pid>.json)"})
			continue
		}
		data, err := ReadFileBounded(fsys, p, MaxSmallBytes)
		if err != nil {
			problems = append(problems, Problem{File: p, Kind: ProblemUnreadable, Reason: err.Error()})
			continue
		}
		s, err := ParseLiveSession(data, pid)
		if err != nil {
			problems = append(problems, Problem{File: p, Kind: ProblemMalformed, Reason: err.Error()})
			continue
		}
		s.Path = p
		if info, err := de.Info(); err == nil {
			s.ModTime = info.ModTime()
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out, problems
}
