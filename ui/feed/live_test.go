package feed

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/model"
)

var liveNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// liveFeed is a Live feed over a home with one client's process file
// (pid 4242, an interactive session in /tmp/w); alive says whether that
// process exists.
func liveFeed(t *testing.T, watch, alive bool) *Live {
	t.Helper()
	mfs := fstest.MapFS{
		"sessions/4242.json": {Data: []byte(`{"pid":4242,"sessionId":"s1","cwd":"/tmp/w","status":"idle"}`), ModTime: liveNow.Add(-time.Hour)},
	}
	return NewLive(live.Options{
		Home: &model.Home{Dir: "/h", FS: mfs}, Now: func() time.Time { return liveNow },
		Alive: func(int) bool { return alive },
	}, watch)
}

// snap runs the feed's pending tracker call and hands its snapshot back.
func snap(t *testing.T, l *Live, shown bool) {
	t.Helper()
	cmd := l.Next()
	if cmd == nil {
		t.Fatal("no tracker call was due")
	}
	msg, ok := cmd().(LiveSnap)
	if !ok {
		t.Fatalf("the tracker call returned %T", cmd())
	}
	l.Loaded(msg, shown)
}

// Idle means idle: with no session running, no poll tick is armed, shown
// or not, and a tick that fires does not arm another; with a session
// running, the tick runs only while the pane is shown, and stops when
// the pane is hidden.
func TestLiveFeedTicksOnlyWhenShownAndChanging(t *testing.T) {
	t.Run("idle", func(t *testing.T) {
		l := liveFeed(t, true, false)
		snap(t, l, true)
		if len(l.Last().Running) != 0 {
			t.Fatalf("a dead process counts as running: %+v", l.Last().Running)
		}
		if l.Ticking() {
			t.Error("a tick is armed with nothing running")
		}
		if l.Shown(); l.Ticking() {
			t.Error("showing the pane armed a tick with nothing running")
		}
		l.ticking = true // a tick armed before the last session ended fires
		l.Poll(true)
		if l.Ticking() {
			t.Error("a poll re-armed the tick with nothing running")
		}
	})
	t.Run("running", func(t *testing.T) {
		l := liveFeed(t, true, true)
		snap(t, l, false)
		if len(l.Last().Running) != 1 {
			t.Fatalf("the live process is not running: %+v", l.Last())
		}
		if l.Ticking() {
			t.Error("a tick is armed while the pane is hidden")
		}
		if l.Shown() == nil || !l.Ticking() {
			t.Fatal("showing the pane with a session running armed no tick (or did not look again)")
		}
		if l.Tick(true) != nil {
			t.Error("a second tick was armed beside the first")
		}
		if cmd := l.Poll(true); cmd == nil || !l.Ticking() {
			t.Error("a poll while shown and running did not look again and re-arm")
		}
		l.Poll(false)
		if l.Ticking() {
			t.Error("a poll while hidden re-armed the tick")
		}
	})
	t.Run("no live reload", func(t *testing.T) {
		l := liveFeed(t, false, true)
		snap(t, l, true)
		if l.Shown() != nil || l.Ticking() {
			t.Error("without live reload the feed polls")
		}
	})
}

// File events are gathered while a tracker call runs and read by the
// next one; the first call lists the home.
func TestLiveFeedCoalescesEvents(t *testing.T) {
	l := liveFeed(t, false, true)
	first := l.Next()
	if first == nil {
		t.Fatal("the first call is not due")
	}
	if l.Changed("projects/-tmp-w/s1.jsonl") != nil {
		t.Error("a second tracker call started while one runs")
	}
	data, events, next := l.Loaded(first().(LiveSnap), true)
	if len(events) != 0 || !data.Now.Equal(liveNow) {
		t.Errorf("the first snapshot: events %v, time %v", events, data.Now)
	}
	if next == nil || !l.inflight || len(l.pending) != 0 {
		t.Error("the event noted meanwhile is not read when the call ends")
	}
	if l.Next() != nil {
		t.Error("a call started while one runs")
	}
}
