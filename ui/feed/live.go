package feed

import (
	"io/fs"
	"maps"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/model"
	livepane "github.com/memscope/memscope/views/live"
)

// Live feeds the Live pane from an engine/live Tracker. At start the
// tracker lists the home (Refresh); afterwards every file event under the
// home is handed to Changed, and the tracker reads only what was appended
// to the transcripts it follows. One tracker call runs at a time; paths
// that arrive meanwhile are gathered for the next.
//
// With live reload on, a poll looks at the process files and memory
// folders again (a process can end without a file event, and a -p run
// leaves the running set when its transcript goes quiet), and every
// liveRelist polls the transcripts are listed again, in case an event was
// lost. Idle means idle: the poll runs only while the Live pane is shown
// and something on it can change with time (a session running, a
// transcript not read to its end, a usage block open); otherwise no tick
// is armed, and only file events wake the app.
type Live struct {
	tracker *live.Tracker
	// watch says live reload is on: without it nothing polls.
	watch bool
	// inflight says a tracker call is running; pending are the home paths
	// changed since it started; relist and poll ask for a Refresh or a
	// path-less Update.
	inflight     bool
	pending      map[string]bool
	relist, poll bool
	polls        int
	// ticking says a poll tick is armed (at most one is).
	ticking bool
	// prev is the last snapshot, which the next is compared with for the
	// events announced in the status bar.
	prev *live.Snapshot
	// home and listed, when set (ListFrom), list the home for the first
	// Refresh; handed says it was asked.
	home   *model.Home
	listed func(*model.Home) *model.Home
	handed bool
}

// LivePollEvery and liveRelist pace the Live pane's polling (see Live).
const (
	LivePollEvery = 5 * time.Second
	liveRelist    = 12
)

// LiveSnap carries a tracker snapshot.
type LiveSnap struct{ Snap live.Snapshot }

// LivePoll is the poll tick.
type LivePoll struct{}

// NewLive returns the feed of a tracker with these options; watch says
// live reload is on (polling is allowed). Its first Next lists the home.
func NewLive(o live.Options, watch bool) *Live {
	return &Live{tracker: live.NewTracker(o), watch: watch, pending: map[string]bool{}, relist: true}
}

// ListFrom makes the first listing of the home (the start's Refresh)
// go through listed's answer for home (the Overview's Listed: the home
// listed once, whose walk of the session folders the Projects list and
// the Overview's lines share). Later listings (a relist, a poll) read
// the home as it is then.
func (l *Live) ListFrom(home *model.Home, listed func(*model.Home) *model.Home) {
	l.home, l.listed = home, listed
}

// Changed notes home paths (slash-separated, relative to the home) named
// by file events, and returns the tracker call that reads them when none
// runs.
func (l *Live) Changed(rels ...string) tea.Cmd {
	for _, r := range rels {
		l.pending[r] = true
	}
	return l.Next()
}

// Next starts the next tracker call when one is due and none runs.
func (l *Live) Next() tea.Cmd {
	if l.inflight || !l.relist && !l.poll && len(l.pending) == 0 {
		return nil
	}
	tr, relist := l.tracker, l.relist
	paths := slices.Sorted(maps.Keys(l.pending))
	clear(l.pending)
	l.inflight, l.relist, l.poll = true, false, false
	var fsys fs.FS
	if relist && !l.handed && l.listed != nil {
		// The start's listing is the Overview's (asked here, not in the
		// Cmd): the session folders are walked once between them.
		fsys = l.listed(l.home).FS
	}
	l.handed = l.handed || relist
	return func() tea.Msg {
		if fsys != nil {
			return LiveSnap{Snap: tr.RefreshFrom(fsys)}
		}
		if relist {
			return LiveSnap{Snap: tr.Refresh()}
		}
		return LiveSnap{Snap: tr.Update(paths...)}
	}
}

// Tick arms the poll when it is due: live reload on, the pane shown
// (shown), something on it changing with time, and no tick armed yet.
func (l *Live) Tick(shown bool) tea.Cmd {
	if !l.watch || !shown || l.ticking || !changing(l.prev) {
		return nil
	}
	l.ticking = true
	return tea.Tick(LivePollEvery, func(time.Time) tea.Msg { return LivePoll{} })
}

// Ticking reports whether a poll tick is armed.
func (l *Live) Ticking() bool { return l.ticking }

// Poll handles a poll tick: while the pane is shown it asks the tracker
// to look again (and, every liveRelist polls, to list the home) and arms
// the next tick if something can still change; hidden, it does nothing
// and arms nothing (Shown picks up when the pane comes back).
func (l *Live) Poll(shown bool) tea.Cmd {
	l.ticking = false
	if !shown {
		return nil
	}
	l.polls++
	l.poll = true
	if l.polls%liveRelist == 0 {
		l.relist = true
	}
	return tea.Batch(l.Next(), l.Tick(shown))
}

// Shown is called when the Live pane comes in front: with live reload
// on, it looks again at once (processes may have ended while the pane was
// hidden, unpolled) and arms the poll. Before the first snapshot it does
// nothing: the first listing is the app's start's.
func (l *Live) Shown() tea.Cmd {
	if !l.watch || l.prev == nil {
		return nil
	}
	l.poll = true
	return tea.Batch(l.Next(), l.Tick(true))
}

// Loaded takes a snapshot: it returns the pane's message, what changed
// since the last snapshot (for the status line), and the next tracker
// call or poll tick due (shown says the pane is in front).
func (l *Live) Loaded(msg LiveSnap, shown bool) (livepane.DataMsg, []live.Event, tea.Cmd) {
	l.inflight = false
	var events []live.Event
	if l.prev != nil {
		events = live.Diff(*l.prev, msg.Snap)
	}
	l.prev = &msg.Snap
	data := livepane.DataMsg{Data: livepane.FromSnapshot(msg.Snap), Now: msg.Snap.Time}
	return data, events, tea.Batch(l.Next(), l.Tick(shown))
}

// Last is the last snapshot (nil before the first).
func (l *Live) Last() *live.Snapshot { return l.prev }

// changing reports whether the Live pane can change with time alone,
// without a file event: a session is running (its process can end, a -p
// run goes quiet), a transcript is not read to its end, or a usage block
// is open (it closes).
func changing(s *live.Snapshot) bool {
	return s != nil && (len(s.Running) > 0 || len(s.Behind) > 0 || s.Block != nil)
}
