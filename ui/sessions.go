package ui

import (
	"io/fs"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/replay"
)

// sessionsReq asks for the open project's Replay list: all of it, or the
// sessions ids whose transcripts changed.
type sessionsReq struct {
	slug string
	full bool
	ids  map[string]bool
}

func mergeSessions(a, b sessionsReq) sessionsReq {
	if a.slug != b.slug {
		return sessionsReq{slug: b.slug, full: true}
	}
	a.full = a.full || b.full
	for id := range b.ids {
		if a.ids == nil {
			a.ids = map[string]bool{}
		}
		a.ids[id] = true
	}
	return a
}

// sessionsLoadedMsg lists a project's sessions for the Replay pane.
type sessionsLoadedMsg struct {
	slug      string
	sessions  []replay.Session
	followers map[string]*enginesessions.Follower
	// mayLoad says what the sessions loaded may have changed: a
	// transcript was read from its start, or an attachment record was
	// appended (summarizeSessions). Other appends leave the loads be.
	mayLoad bool
}

// requestSessions starts loading the open project's Replay list, or
// queues it behind the running load.
func (m *Model) requestSessions(r sessionsReq) tea.Cmd {
	if r.slug == "" {
		return nil
	}
	return m.fl.sessions.request(m, r, mergeSessions, Model.loadSessionsCmd)
}

// sessionsDone ends a Replay list load and starts the one waiting.
func (m *Model) sessionsDone() tea.Cmd { return m.fl.sessions.finish(m, Model.loadSessionsCmd) }

// loadSessionsCmd lists a project's transcripts with a summary of each
// (records, compactions, time span): all of them, or, when the list is
// that project's, only the sessions whose transcripts changed, each read
// from where its follower stopped.
func (m Model) loadSessionsCmd(r sessionsReq) tea.Cmd {
	fsys := m.opts.Home.FS
	if r.full || m.live.followersOf != r.slug {
		return func() tea.Msg {
			sf, _ := model.FindProjectSessionFiles(fsys, r.slug)
			// A session's .replaced copies (the client's local GC kept
			// them) are listed too: its history before the rewrite.
			ts := append(sf.Transcripts, sf.Replaced...)
			fw := make(map[string]*enginesessions.Follower, len(ts))
			out := make([]replay.Session, len(ts))
			for i, t := range ts {
				fw[t.Path] = enginesessions.NewFollower()
				out[i].File = t
			}
			summarizeSessions(fsys, out, fw)
			return sessionsLoadedMsg{slug: r.slug, sessions: sortSessions(out), followers: fw, mayLoad: true}
		}
	}
	prev, fw := slices.Clone(m.data.sessions), m.live.followers
	return func() tea.Msg {
		var out, changed []replay.Session
		for _, s := range prev {
			if !r.ids[s.File.SessionID] {
				out = append(out, s)
			}
		}
		keep := map[string]bool{}
		for id := range r.ids {
			ts, _ := model.FindSessionTranscripts(fsys, r.slug, id)
			ts = append(ts, model.FindSessionReplaced(fsys, r.slug, id)...)
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
			if s, ok := sessionOf(prev, p); ok && r.ids[s] && !keep[p] {
				delete(fw, p) // the transcript is gone
			}
		}
		mayLoad := summarizeSessions(fsys, changed, fw)
		return sessionsLoadedMsg{slug: r.slug, sessions: sortSessions(append(out, changed...)), followers: fw, mayLoad: mayLoad}
	}
}

// unchangedSession is the row of transcript t in ss when t is listed as
// it was then (sameListing) and its follower read all of it: nothing was
// written to it since.
func unchangedSession(ss []replay.Session, f *enginesessions.Follower, t model.TranscriptFile) (replay.Session, bool) {
	if f == nil || f.Read().Offset != t.Size {
		return replay.Session{}, false
	}
	for _, s := range ss {
		if s.File.Path == t.Path {
			return s, sameListing(s.File, t)
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

// summarizeSessions brings each session's counts up to date through its
// follower (fw, by path), on as many workers as there are processors.
// mayLoad says a transcript was read from its start or an attachment
// record was read (Follower.Attachments): only then can what the
// sessions loaded have changed.
func summarizeSessions(fsys fs.FS, ss []replay.Session, fw map[string]*enginesessions.Follower) (mayLoad bool) {
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
				s.Title, s.Active = f.Title(), enginesessions.LastActive(fsys, s.File)
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
