package ui

import (
	"github.com/memscope/memscope/views/replay"
	"io/fs"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
)

// The Replay pane's open session follows its transcript: the transcript
// is read once by a model.TranscriptFollower, and each file event that
// names it reads only the appended lines; the timeline is then rebuilt
// from the records in memory (nothing is read again), and only while
// the Replay pane is in front (an event seen elsewhere waits for the
// pane's focus). One read is in flight at a time; events that arrive
// meanwhile make one more.

// keepTextLimit is the largest transcript whose message text the replay
// keeps in memory for its message previews.
const keepTextLimit = 64 << 20

// timelineFollow is the open session's follower and its state.
type timelineFollow struct {
	// gen tells this follow from an earlier one: a message for another
	// gen is stale.
	gen  int
	path string
	// f reads the transcript; nil until the first read is in (it is
	// made there, once the file's size is known).
	f *model.TranscriptFollower
	// autocompactOff is settings.json's autoCompactEnabled: false for the
	// session's project.
	autocompactOff bool
	// limits is what the session's window is resolved from.
	limits window.Input
	// inflight says a read is running; dirty that the file changed since
	// the last read began.
	inflight, dirty bool
	// jump is where to select once the first read is in.
	jump *msgs.ReplayAt
}

// timelineMsg carries a session's timeline: the first read (open) or a
// later one after lines were appended.
type timelineMsg struct {
	gen            int
	path           string
	tl             *timeline.Timeline
	autocompactOff bool
	limits         window.Input
	// f is the follower the first read made (open).
	f    *model.TranscriptFollower
	open bool
	err  error
}

// openTimelineCmd starts following the transcript at p (inside the home)
// and reads it; jump, when set, is the step to select when it is in.
func (m *Model) openTimelineCmd(p string, jump *msgs.ReplayAt) tea.Cmd {
	fsys := m.opts.Home.FS
	return m.openTimelineFrom(p, jump, func() (fs.FS, func(), error) { return fsys, func() {}, nil })
}

// openTimelineFrom is openTimelineCmd reading the first time from the
// file system open returns (done after the read): the home, or the
// rescue vault's copy of a session the home lost (vault.go).
func (m *Model) openTimelineFrom(p string, jump *msgs.ReplayAt, open func() (fs.FS, func(), error)) tea.Cmd {
	m.followGen++
	home, project, root, getenv := m.opts.Home, m.openPath(), m.root(), m.opts.Getenv
	gen := m.followGen
	m.follow = &timelineFollow{gen: gen, path: p, inflight: true, jump: jump}
	m.p.replay, _ = m.p.replay.Update(replay.LoadingMsg{Path: p})
	m.p.replay, _ = m.p.replay.Update(replay.FollowingMsg{On: false})
	return func() tea.Msg {
		fsys, done, err := open()
		if err != nil {
			return timelineMsg{gen: gen, path: p, err: err}
		}
		defer done()
		stack, _ := model.LoadSettings(root, home.Dir, project, model.ManagedDir)
		on, _ := stack.AutoCompactEnabled()
		lim := window.Input{Settings: stack, Getenv: getenv, EnvFrom: "memscope's environment"}
		var size int64
		if st, err := fs.Stat(fsys, p); err == nil {
			size = st.Size()
		}
		f := model.NewTranscriptFollower(p, model.ScanOptions{Content: true, KeepText: size <= keepTextLimit})
		msg := readTimeline(gen, f, fsys, lim)
		msg.open, msg.autocompactOff, msg.f, msg.limits = true, !on, f, lim
		return msg
	}
}

// readTimeline reads what was appended to the transcript f follows and
// builds its timeline; tl is nil when nothing changed.
func readTimeline(gen int, f *model.TranscriptFollower, fsys fs.FS, lim window.Input) timelineMsg {
	msg := timelineMsg{gen: gen, path: f.Path()}
	res, err := f.Next(fsys)
	if err != nil {
		msg.err = err
		return msg
	}
	if res.Changed {
		tl := timeline.BuildResolved(res.Transcript, timeline.Limits(res.Transcript, lim), res.Size)
		msg.tl = &tl
	}
	return msg
}

// followTimelineCmd reads the open session again if it changed and no
// read is running.
func (m *Model) followTimelineCmd() tea.Cmd {
	f := m.follow
	if f == nil || f.f == nil || f.inflight || !f.dirty || m.focus != paneReplay {
		return nil
	}
	if tl := m.p.replay.Timeline(); tl == nil || tl.Path != f.path {
		return nil // the pane closed the session
	}
	f.inflight, f.dirty = true, false
	fsys, gen, tf, lim := m.opts.Home.FS, f.gen, f.f, f.limits
	return func() tea.Msg { return readTimeline(gen, tf, fsys, lim) }
}

// noteTimelineChange marks the open session changed when rel (inside the
// home) is its transcript, and reads it if the Replay pane is in front.
func (m *Model) noteTimelineChange(rel string) tea.Cmd {
	if f := m.follow; f != nil && f.path == rel {
		f.dirty = true
		return m.followTimelineCmd()
	}
	return nil
}

// handleTimeline hands a read timeline to the Replay pane.
func (m Model) handleTimeline(msg timelineMsg) (Model, tea.Cmd) {
	f := m.follow
	if f == nil || msg.gen != f.gen {
		return m, nil // a session the pane has left
	}
	f.inflight = false
	if msg.f != nil {
		f.f = msg.f
	}
	if msg.err != nil {
		m.p.replay, _ = m.p.replay.Update(replay.LoadingMsg{})
		m.setStatus(msg.err.Error(), true)
		return m, nil
	}
	var cmd tea.Cmd
	switch {
	case msg.open:
		f.autocompactOff, f.limits = msg.autocompactOff, msg.limits
		m.p.replay, cmd = m.p.replay.Update(replay.TimelineMsg{Timeline: msg.tl, AutocompactOff: msg.autocompactOff})
		m.p.replay, _ = m.p.replay.Update(replay.FollowingMsg{On: true})
		if j := f.jump; j != nil && j.Hit != nil {
			cmd = m.p.replay.SelectHit(*j.Hit)
		} else if j != nil && (j.Boundary != "" || j.Line > 0) {
			c, ok := m.p.replay.SelectBoundary(j.Boundary, j.Line)
			if ok {
				cmd = c
			} else {
				m.setStatus("that compaction is not in the transcript", true)
			}
		}
		if j := f.jump; j != nil && (j.Message != "" || j.MessageLine > 0) {
			c, ok := m.p.replay.SelectMessage(j.Message, j.MessageLine)
			cmd = c
			if !ok {
				m.setStatus("that message is past the last turn of the transcript: showing the last step", true)
			}
		}
		f.jump = nil
	case msg.tl != nil:
		cmd = m.p.replay.UpdateTimeline(msg.tl)
	}
	return m, tea.Batch(cmd, m.followTimelineCmd())
}
