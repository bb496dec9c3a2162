package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/ui/feed"
)

// Idle means idle (issue 28): the app loaded with live reload on, no
// session running and nothing changing, arms no tick while the Overview
// (the first screen), the Live pane or another pane is shown, through
// two dozen messages (keys, pane switches, a resize):
// only file events (the watcher) wake it. The Live poll is the one tick
// that could; the watcher's debounce runs only after an event, and a
// status line's expiry only after a status.
func TestIdleAppArmsNoTick(t *testing.T) {
	t.Parallel()
	d := newDiskLive(t)
	// Two days after the fixture's sessions: none runs, no usage block
	// is open, so nothing on any pane changes with time.
	later := testNow.Add(48 * time.Hour)
	m := New(Options{Home: d.home, Project: betaProject, Watch: true, Now: func() time.Time { return later }, Root: testroot.New(t),
		Alive: func(int) bool { return false }})
	polls := 0
	l := &liveLoop{t: t, m: m, msgs: make(chan tea.Msg, 256), seen: func(msg tea.Msg) {
		if _, ok := msg.(feed.LivePoll); ok {
			polls++
		}
	}}
	next, _ := l.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	l.m = next.(Model)
	l.exec(l.m.Init())
	l.until(time.Minute, "the watcher, the first snapshot and every Overview line", func() bool {
		return l.m.watch != nil && l.m.lv.Last() != nil && !l.m.feeds.overview.Counting() && len(l.m.loading) == 0
	})
	defer func() { l.m.watch.Close() }()
	if l.m.focus != paneOverview {
		t.Fatalf("the app starts on pane %d, want the Overview", l.m.focus)
	}
	if s := l.m.lv.Last(); len(s.Running) != 0 {
		t.Fatalf("a session counts as running: %+v", s.Running)
	}
	if l.m.lv.Ticking() {
		t.Fatal("after the start, with nothing running, a Live poll tick is armed")
	}
	msgs := []tea.Msg{keypress.Msg("j"), keypress.Msg("k"), keypress.Msg("2"), keypress.Msg("j"), keypress.Msg("5"), keypress.Msg("L"), keypress.Msg("j"), keypress.Msg("1"),
		tea.WindowSizeMsg{Width: 100, Height: 30}, keypress.Msg("j"), keypress.Msg("j"), keypress.Msg("k")}
	msgs = append(msgs, msgs...)
	for i, msg := range msgs {
		next, cmd := l.m.Update(msg)
		l.m = next.(Model)
		l.exec(cmd)
		// What the message started lands (loads of a pane shown first).
		l.until(time.Minute, "the message's loads", func() bool { return len(l.m.loading) == 0 && !l.m.feeds.overview.Counting() })
		if l.m.lv.Ticking() {
			t.Fatalf("after message %d (%v) a Live poll tick is armed with nothing running", i, msg)
		}
	}
	if polls != 0 {
		t.Errorf("%d Live polls ran with nothing running", polls)
	}
}
