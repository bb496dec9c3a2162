package filehist

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/model"
)

// A restore writes each file of a project through the atomic writer: a
// temporary ".<name>.memscope-<n>" beside it, renamed over it. A restore
// killed mid-way leaves that copy in the user's project tree, where
// nothing of memscope's looks. The restore journals name every file a
// restore wrote, so the folders that can hold such a copy are known.

// Leftover is a copy an interrupted restore left beside a file it wrote.
type Leftover struct {
	// Path is the copy's absolute path; Of the file it is a copy of.
	Path    string    `json:"path"`
	Of      string    `json:"of"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
	// Session is the session whose restore journal names Of.
	Session model.SessionID `json:"session"`
}

// FindLeftovers looks beside every file the restore journals of the home
// (homeFS) name for the atomic writer's temporary copies of it, through
// root (the machine from "/", names as model.RootName gives them). Copies
// younger than minAge (a restore may be writing them now) are left out.
func FindLeftovers(homeFS, root fs.FS, now time.Time, minAge time.Duration) ([]Leftover, []model.Problem) {
	sessions, err := fs.ReadDir(homeFS, RestoreJournalDir)
	if err != nil {
		return nil, nil
	}
	var out []Leftover
	var probs []model.Problem
	seen := map[string]bool{}
	for _, d := range sessions {
		if !d.IsDir() {
			continue
		}
		sid := model.SessionID(d.Name())
		entries, p, err := Restores(homeFS, sid)
		probs = append(probs, p...)
		if err != nil {
			probs = append(probs, model.Problem{File: RestoreJournal(sid), Kind: model.ProblemUnreadable, Reason: err.Error()})
			continue
		}
		for _, e := range entries {
			for _, f := range e.Files {
				target := "/" + f.Path
				if seen[target] {
					continue
				}
				seen[target] = true
				out = append(out, leftoversBeside(root, target, sid, now, minAge)...)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, probs
}

// leftoversBeside lists the temporary copies of target in its folder.
func leftoversBeside(root fs.FS, target string, sid model.SessionID, now time.Time, minAge time.Duration) []Leftover {
	dir, base := path.Split(target)
	ents, err := fs.ReadDir(root, model.RootName(dir))
	if err != nil {
		return nil
	}
	prefix := "." + base + ".memscope-"
	var out []Leftover
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), prefix) || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil || !now.IsZero() && now.Sub(info.ModTime()) < minAge {
			continue
		}
		out = append(out, Leftover{Path: path.Join(dir, e.Name()), Of: target, Size: info.Size(), ModTime: info.ModTime(), Session: sid})
	}
	return out
}

// String says what the copy is, for a report.
func (l Leftover) String() string {
	return fmt.Sprintf("%s: a copy of %s left by an interrupted memscope restore (session %s; %d bytes, %s)",
		l.Path, l.Of, l.Session, l.Size, l.ModTime.UTC().Format(time.DateTime))
}

// LintCopies are the leftovers as lint reports them (lint.Input.Elsewhere).
func LintCopies(found []Leftover) []lint.LeftoverCopy {
	out := make([]lint.LeftoverCopy, 0, len(found))
	for _, l := range found {
		out = append(out, lint.LeftoverCopy{Path: l.Path, Of: l.Of, Why: "an interrupted memscope restore (session " + string(l.Session) + ")", Size: l.Size, ModTime: l.ModTime})
	}
	return out
}
