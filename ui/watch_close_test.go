package ui

import (
	"testing"
	"time"
)

// The file watcher a model starts is closed by Close: its goroutine ends
// (done closes) and its next-event command returns nothing.
func TestCloseStopsTheWatcher(t *testing.T) {
	m := New(Options{Home: fixedHome(t), Watch: true})
	started := startWatchCmd(t.TempDir())()
	next, _ := m.Update(started)
	m = next.(Model)
	if m.watch == nil {
		t.Fatalf("no watcher after %T", started)
	}
	m.Close()
	select {
	case <-m.watch.done:
	case <-time.After(30 * time.Second): // a hang guard, not a timing
		t.Fatal("the watcher's goroutine still runs after Close")
	}
	if msg := m.watch.next()(); msg != nil {
		t.Errorf("a closed watcher's next event is %T, want nothing", msg)
	}
}
