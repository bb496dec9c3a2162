package feed

import (
	"io/fs"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/diskcache"
	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/replay"
)

// Sessions feeds the Replay pane the open project's sessions: each
// transcript summarized (records, compactions, time span, title) by a
// follower that reads only what was appended since, so a reload after
// appends reads the new lines of the sessions named, not the project.
// One load runs at a time (the shell's flight); the list and the
// followers are the feed's, handed on from load to load.
type Sessions struct {
	// slug is the project list and followers are of.
	slug string
	list []replay.Session
	// followers summarize the project's transcripts, by path.
	followers map[string]*enginesessions.Follower
	// cache keeps the full lists' summaries across runs for the home at
	// homeDir (NewSessionsOn; nil: none).
	cache   *diskcache.Store
	homeDir string
	// handoff has the followers the Overview's pass built (nil: none),
	// active the last activities it found (nil: none).
	handoff *enginesessions.Handoff
	active  *enginesessions.ActiveHandoff
}

// NewSessions returns a feed with no project read.
func NewSessions() *Sessions { return &Sessions{} }

// TakeFrom makes a full load take the followers h holds (the Overview's
// pass read those transcripts to their end) instead of reading them
// again.
func (s *Sessions) TakeFrom(h *enginesessions.Handoff) { s.handoff = h }

// TakeActiveFrom makes a full load take the last activity of each
// transcript whose follower it took from the pass (TakeFrom) from a
// (the same pass's), not read the transcript's end again.
func (s *Sessions) TakeActiveFrom(a *enginesessions.ActiveHandoff) { s.active = a }

// SessionsReq asks for a project's sessions: all of them (Full), or the
// sessions IDs whose transcripts changed.
type SessionsReq struct {
	Slug string
	Full bool
	IDs  map[string]bool
}

// MergeSessions is the request that does what a and then b ask.
func MergeSessions(a, b SessionsReq) SessionsReq {
	if a.Slug != b.Slug {
		return SessionsReq{Slug: b.Slug, Full: true}
	}
	a.Full = a.Full || b.Full
	for id := range b.IDs {
		if a.IDs == nil {
			a.IDs = map[string]bool{}
		}
		a.IDs[id] = true
	}
	return a
}

// SessionsLoaded is a project's sessions for the Replay pane.
type SessionsLoaded struct {
	Slug     string
	Sessions []replay.Session
	// MayLoad says what the sessions loaded may have changed: a
	// transcript was read from its start, or an attachment record was
	// appended (summarizeSessions). Other appends leave the loads be.
	MayLoad   bool
	followers map[string]*enginesessions.Follower
}

// List is the sessions last loaded (Loaded).
func (s *Sessions) List() []replay.Session { return s.list }

// Follower is the follower of the transcript at path (nil when it is
// not listed).
func (s *Sessions) Follower(path string) *enginesessions.Follower { return s.followers[path] }

// Loaded keeps a load's list and followers: the open project's (the
// shell drops another project's).
func (s *Sessions) Loaded(msg SessionsLoaded) {
	s.list, s.followers, s.slug = msg.Sessions, msg.followers, msg.Slug
}

// Load lists the project's transcripts through the home fsys with a
// summary of each (records, compactions, time span): all of them, or,
// when the list is that project's, only the sessions whose transcripts
// changed, each read from where its follower stopped.
func (s *Sessions) Load(fsys fs.FS, r SessionsReq) tea.Cmd {
	if r.Full || s.slug != r.Slug {
		cache, homeDir := s.cache, s.homeDir
		handoff, active := s.handoff, s.active
		return func() tea.Msg {
			sf, _ := model.FindProjectSessionFiles(fsys, r.Slug)
			// A session's .replaced copies (the client's local GC kept
			// them) are listed too: its history before the rewrite.
			ts := append(sf.Transcripts, sf.Replaced...)
			fw := make(map[string]*enginesessions.Follower, len(ts))
			out := make([]replay.Session, len(ts))
			handed := map[string]enginesessions.Active{}
			for i, t := range ts {
				if fw[t.Path] = handoff.Take(t); fw[t.Path] == nil {
					fw[t.Path] = enginesessions.NewFollower()
				} else if a, ok := active.Take(t); ok {
					handed[t.Path] = a
				}
				out[i].File = t
			}
			summarizeListed(fsys, cache, homeDir, r.Slug, out, fw, handed)
			return SessionsLoaded{Slug: r.Slug, Sessions: sortSessions(out), followers: fw, MayLoad: true}
		}
	}
	prev, fw := slices.Clone(s.list), s.followers
	return func() tea.Msg {
		var out, changed []replay.Session
		for _, s := range prev {
			if !r.IDs[s.File.SessionID] {
				out = append(out, s)
			}
		}
		keep := map[string]bool{}
		for id := range r.IDs {
			ts, _ := model.FindSessionTranscripts(fsys, r.Slug, id)
			ts = append(ts, model.FindSessionReplaced(fsys, r.Slug, id)...)
			for _, t := range ts {
				keep[t.Path] = true
				if s, ok := unchangedSession(prev, fw[t.Path], t); ok {
					// A transcript of the session that was not written
					// (a subagent's, when the main one was): as it was.
					out = append(out, s)
					continue
				}
				if fw[t.Path] == nil {
					fw[t.Path] = enginesessions.NewFollower()
				}
				changed = append(changed, replay.Session{File: t})
			}
		}
		for p := range fw {
			if s, ok := sessionOf(prev, p); ok && r.IDs[s] && !keep[p] {
				delete(fw, p) // the transcript is gone
			}
		}
		mayLoad := SummarizeSessions(fsys, changed, fw)
		return SessionsLoaded{Slug: r.Slug, Sessions: sortSessions(append(out, changed...)), followers: fw, MayLoad: mayLoad}
	}
}

// SameListing reports whether a and b list the same version of a
// transcript (path, size, mtime and meta file): what was read of a holds
// for b.
func SameListing(a, b model.TranscriptFile) bool {
	return a.Path == b.Path && a.Size == b.Size && a.ModTime.Equal(b.ModTime) && a.MetaPath == b.MetaPath
}

// unchangedSession is the row of transcript t in ss when t is listed as
// it was then (SameListing) and its follower read all of it: nothing was
// written to it since.
func unchangedSession(ss []replay.Session, f *enginesessions.Follower, t model.TranscriptFile) (replay.Session, bool) {
	if f == nil || f.Read().Offset != t.Size {
		return replay.Session{}, false
	}
	for _, s := range ss {
		if s.File.Path == t.Path {
			return s, SameListing(s.File, t)
		}
	}
	return replay.Session{}, false
}

// sessionOf is the session id of transcript path in ss.
func sessionOf(ss []replay.Session, path string) (string, bool) {
	for _, s := range ss {
		if s.File.Path == path {
			return s.File.SessionID, true
		}
	}
	return "", false
}

// SummarizeSessions brings each session's counts up to date through its
// follower (fw, by path), on as many workers as there are processors.
// mayLoad says a transcript was read from its start or an attachment
// record was read (Follower.Attachments): only then can what the
// sessions loaded have changed.
func SummarizeSessions(fsys fs.FS, ss []replay.Session, fw map[string]*enginesessions.Follower) (mayLoad bool) {
	return summarizeSessions(fsys, ss, fw, nil)
}

// summarizeSessions is SummarizeSessions taking the last activity of the
// transcripts in handed (by path: the shared pass's, which read them
// whole) rather than reading their ends.
func summarizeSessions(fsys fs.FS, ss []replay.Session, fw map[string]*enginesessions.Follower, handed map[string]enginesessions.Active) (mayLoad bool) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	var attached atomic.Bool
	for range min(runtime.GOMAXPROCS(0), len(ss)) {
		wg.Go(func() {
			for i := range jobs {
				s := &ss[i]
				f := fw[s.File.Path]
				starts, lines := f.Attachments()
				sum, _ := f.Update(fsys, s.File.Path)
				if s2, l2 := f.Attachments(); s2 != starts || l2 != lines {
					attached.Store(true)
				}
				s.Records, s.Boundaries, s.Micro = sum.Records, sum.CompactBoundaries, sum.MicrocompactBoundaries
				if s.File.MetaPath != "" {
					if meta, err := model.ReadSubagentMeta(fsys, s.File.MetaPath); err == nil {
						s.Agent = meta.Label()
					}
				}
				s.Title = f.Title()
				if a, ok := handed[s.File.Path]; ok {
					s.Active = a
				} else {
					s.Active = enginesessions.LastActive(fsys, s.File)
				}
			}
		})
	}
	for i := range ss {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return attached.Load()
}

// sortSessions orders the Replay list newest first (by path among
// equals, as the transcripts are listed).
func sortSessions(ss []replay.Session) []replay.Session {
	sort.Slice(ss, func(i, j int) bool { return ss[i].File.Path < ss[j].File.Path })
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].File.ModTime.After(ss[j].File.ModTime) })
	return ss
}
