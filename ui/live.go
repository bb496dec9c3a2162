package ui

import (
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/msgs"
)

// The Live pane is fed by feed.Live (ui/feed/live.go): the shell hands it
// the file events under the home, its snapshots to the pane, and tells it
// when the pane comes in front (its poll runs only while the pane is
// shown and something on it can change).

// newLive is the Live feed of the app's home; memory folders are resolved
// through the machine's file system (with the home mounted at its folder).
// The transcripts it follows for the 5-hour block only are kept in the
// app's cache (live.UsageKind): a start reads none that is unchanged.
func (m *Model) newLive() *feed.Live {
	return feed.NewLive(live.Options{
		Home: m.opts.Home, Root: m.root(), Now: m.opts.Now, Alive: m.opts.Alive, Cache: m.opts.Cache,
		Session: live.SessionOptions{Getenv: m.opts.Getenv},
	}, m.opts.Watch)
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
	var rels []string
	for _, name := range names {
		if rel := m.homeRel(name); rel != "" {
			rels = append(rels, rel)
			cmds = append(cmds, m.noteTimelineChange(rel))
		}
	}
	return tea.Batch(append(cmds, m.lv.Changed(rels...))...)
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
	case feed.LivePoll:
		return m, m.lv.Poll(m.focus == paneLive), true
	case feed.LiveSnap:
		data, events, cmd := m.lv.Loaded(msg, m.focus == paneLive)
		m.announce(events)
		m.p.livePane, _ = m.p.livePane.Update(data)
		m.overviewLive(m.lv.Last())
		return m, cmd, true
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
	return m.replayFrom(r, nil)
}
