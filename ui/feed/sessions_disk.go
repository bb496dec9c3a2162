package feed

import (
	"io/fs"
	"strings"

	"github.com/memscope/memscope/engine/diskcache"
	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/replay"
)

// replayKind names the Replay list's summaries kept across runs
// (diskcache.PerFile's rule): bump it when listedSession changes.
const replayKind = "replay-list.1"

// listedSession is what the Replay list shows of a transcript, computed
// from the version of it an entry's stamp names.
type listedSession struct {
	Records, Boundaries, Micro int
	Title                      enginesessions.Title
	Active                     enginesessions.Active
	// Read is how much of the file the summary covers.
	Read int64
}

// NewSessionsOn returns a feed with no project read whose full loads
// (the start's, a project switch's) keep each transcript's summary in
// cache for the home (nil: none, NewSessions): a transcript as it was
// (its stamp) is not read again at the next start. Its follower then has
// read nothing, so an append to it later reads it whole once.
func NewSessionsOn(home *model.Home, cache *diskcache.Store) *Sessions {
	s := &Sessions{}
	if home != nil && cache != nil {
		s.cache, s.homeDir = cache, home.Dir
	}
	return s
}

// summarizeListed is SummarizeSessions over a full list of project
// slug's sessions, each unchanged transcript's summary from cache (kept
// for the home at homeDir; nil: none); handed are the last activities
// the shared pass found (summarizeSessions).
func summarizeListed(fsys fs.FS, cache *diskcache.Store, homeDir, slug string, ss []replay.Session, fw map[string]*enginesessions.Follower, handed map[string]enginesessions.Active) {
	if cache == nil {
		summarizeSessions(fsys, ss, fw, handed)
		return
	}
	name := diskcache.Name(replayKind, homeDir)
	kept, _ := diskcache.Load[map[string]diskcache.Entry[listedSession]](cache, replayKind, name)
	// The other projects' entries stay as they were.
	next := map[string]diskcache.Entry[listedSession]{}
	prefix := "projects/" + slug + "/"
	for p, e := range kept {
		if !strings.HasPrefix(p, prefix) {
			next[p] = e
		}
	}
	others := len(next)
	names := make([]string, len(ss))
	for i := range ss {
		names[i] = ss[i].File.Path
	}
	compute := func(miss []int) []listedSession {
		sub := make([]replay.Session, len(miss))
		for j, i := range miss {
			sub[j] = ss[i]
		}
		summarizeSessions(fsys, sub, fw, handed)
		out := make([]listedSession, len(miss))
		for j, x := range sub {
			ss[miss[j]] = x
			out[j] = listedSession{Records: x.Records, Boundaries: x.Boundaries, Micro: x.Micro, Title: x.Title, Active: x.Active,
				Read: fw[x.File.Path].Read().Offset}
		}
		return out
	}
	res, hits := diskcache.PerFile(fsys, names, kept, next, compute, func(v listedSession, size int64) bool { return v.Read == size })
	for i, v := range res {
		x := &ss[i]
		x.Records, x.Boundaries, x.Micro, x.Title, x.Active = v.Records, v.Boundaries, v.Micro, v.Title, v.Active
		if x.File.MetaPath != "" && x.Agent == "" {
			// The meta file is not the transcript's: read as
			// SummarizeSessions reads it.
			if meta, err := model.ReadSubagentMeta(fsys, x.File.MetaPath); err == nil {
				x.Agent = meta.Label()
			}
		}
	}
	if hits < len(names) || len(next) != len(kept) || len(next)-others != len(names) {
		// A cache not written costs the next start its time only.
		_ = diskcache.Save(cache, replayKind, name, next)
	}
}
