package ui

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/live"
	livepane "github.com/memscope/memscope/views/live"
	"github.com/memscope/memscope/views/msgs"
)

// The Live pane is fed by an engine/live Tracker. At start the tracker
// lists the home (Refresh); afterwards every file event under the home
// hands its path to Update, which reads only what was appended to the
// transcripts it follows. One tracker call runs at a time; paths that
// arrive meanwhile are gathered for the next. With live reload on, a
// poll every livePoll looks at the process files and memory folders
// again (a process can end without a file event, and a -p run leaves the
// running set when its transcript goes quiet), and every liveRelist
// polls the transcripts are listed again, in case an event was lost.

// livePoll and liveRelist pace the Live pane's polling (see above).
const (
	livePoll   = 5 * time.Second
	liveRelist = 12
)

// liveState is the root's side of the Live pane.
type liveState struct {
	tracker *live.Tracker
	// inflight says a tracker call is running; pending are the home paths
	// changed since it started; relist and poll ask for a Refresh or a
	// path-less Update.
	inflight     bool
	pending      map[string]bool
	relist, poll bool
	polls        int
	// prev is the last snapshot, which the next is compared with for the
	// events announced in the status bar.
	prev *live.Snapshot
}

// liveSnapMsg carries a tracker snapshot.
type liveSnapMsg struct{ snap live.Snapshot }

// livePollMsg paces the polling.
type livePollMsg struct{}

// newTracker follows the app's home; memory folders are resolved through
// the machine's file system (with the home mounted at its folder).
func (m *Model) newTracker() *live.Tracker {
	return live.NewTracker(live.Options{
		Home: m.opts.Home, Root: m.root(), Now: m.opts.Now, Alive: m.opts.Alive,
		Session: live.SessionOptions{Getenv: m.opts.Getenv},
	})
}

// liveCmd starts the next tracker call when one is due and none runs.
func (m *Model) liveCmd() tea.Cmd {
	s := m.lv
	if s.inflight || !s.relist && !s.poll && len(s.pending) == 0 {
		return nil
	}
	tr, relist := s.tracker, s.relist
	paths := slices.Sorted(maps.Keys(s.pending))
	clear(s.pending)
	s.inflight, s.relist, s.poll = true, false, false
	return func() tea.Msg {
		if relist {
			return liveSnapMsg{snap: tr.Refresh()}
		}
		return liveSnapMsg{snap: tr.Update(paths...)}
	}
}

// livePollCmd waits for the next poll.
func livePollCmd() tea.Cmd {
	return tea.Tick(livePoll, func(time.Time) tea.Msg { return livePollMsg{} })
}

// homeRel is an event's path relative to the home, slash-separated; ""
// outside it.
func (m Model) homeRel(name string) string {
	rel, err := filepath.Rel(m.opts.Home.Dir, name)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return ""
	}
	return filepath.ToSlash(rel)
}

// fileEvents hands the file names (absolute) events named to the
// tracker and to the open session's follower.
func (m *Model) fileEvents(names []string) tea.Cmd {
	var cmds []tea.Cmd
	for _, name := range names {
		if rel := m.homeRel(name); rel != "" {
			m.lv.pending[rel] = true
			cmds = append(cmds, m.noteTimelineChange(rel))
		}
	}
	return tea.Batch(append(cmds, m.liveCmd())...)
}

// handleLive feeds file events to the tracker and the open session's
// follower (and on to the reload of the other panes), takes snapshots,
// and opens sessions in Replay for the Live pane.
func (m Model) handleLive(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case fileChangedMsg:
		live := m.fileEvents(msg.paths)
		// Process files concern the Live pane only (classify gives them
		// no store to reload); the rest goes on to the reload.
		next, cmd, _ := m.handleWatch(msg)
		return next, tea.Batch(live, cmd), true
	case livePollMsg:
		m.lv.polls++
		m.lv.poll = true
		if m.lv.polls%liveRelist == 0 {
			m.lv.relist = true
		}
		return m, tea.Batch(m.liveCmd(), livePollCmd()), true
	case liveSnapMsg:
		m.lv.inflight = false
		if prev := m.lv.prev; prev != nil {
			m.announce(live.Diff(*prev, msg.snap))
		}
		m.lv.prev = &msg.snap
		m.p.livePane, _ = m.p.livePane.Update(livepane.DataMsg{Data: livepane.FromSnapshot(msg.snap), Now: msg.snap.Time})
		return m, m.liveCmd(), true
	case timelineMsg:
		next, cmd := m.handleTimeline(msg)
		return next, cmd, true
	case msgs.ReplayAt:
		return m, m.replayAt(msg), true
	}
	return m, nil, false
}

// announce says in the status bar what the Live pane's sessions just did
// that matters now: a compaction (with the key that shows it) or a
// context level reached.
func (m *Model) announce(events []live.Event) {
	for _, e := range events {
		switch {
		case e.Kind == live.EventCompaction:
			m.setStatus("⟲ "+e.Text+" — "+m.keys.Panes[paneLive].Help().Key+" then "+m.keys.LiveCompaction.Help().Key+" replays it", false)
		case e.Kind == live.EventContextLevel && levelUp(e):
			m.setStatus(e.Text, false)
		}
	}
}

func levelUp(e live.Event) bool { return e.Threshold > 0 && e.Tokens >= e.Threshold }

// replayAt opens a session in the Replay pane, in its project (opened
// first when another one is), at the step asked for.
func (m *Model) replayAt(r msgs.ReplayAt) tea.Cmd {
	var cmds []tea.Cmd
	if parts := strings.Split(r.Path, "/"); len(parts) == 3 && parts[0] == "projects" && parts[1] != m.data.open {
		m.openProject(parts[1])
		cmds = append(cmds, m.loadOpenProject())
	}
	jump := r
	cmds = append(cmds, m.openTimelineCmd(r.Path, &jump), m.setFocus(paneReplay))
	return tea.Batch(cmds...)
}
