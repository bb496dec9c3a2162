package homepass

import (
	"sync"
	"time"
)

// DueWait bounds a Due's wait: a pass said to be due that has not made
// its claims by then (a Cmd runner that runs the waiting reader first,
// one Cmd at a time) leaves the reader to read for itself.
var DueWait = 5 * time.Second

// Due tells the readers that would take what a pass reads (a project
// load's loads, the Replay list's followers) that the pass is about to
// start: they wait for its claims (Started) instead of reading first
// what it claims a moment later. Only the first pass is waited for (the
// start's: later passes find the caches full). The zero value is ready
// for use; a nil *Due waits for nothing.
type Due struct {
	mu      sync.Mutex
	ch      chan struct{}
	started bool
}

// Expect says the pass is about to start (until Started or Resolve).
func (d *Due) Expect() {
	if d == nil {
		return
	}
	d.mu.Lock()
	if d.ch == nil && !d.started {
		d.ch = make(chan struct{})
	}
	d.mu.Unlock()
}

// Resolve ends the wait Expect began: the pass made its claims, or will
// not run.
func (d *Due) Resolve() {
	if d == nil {
		return
	}
	d.mu.Lock()
	if d.ch != nil {
		close(d.ch)
		d.ch = nil
	}
	d.mu.Unlock()
}

// Started says the pass made its claims: Resolve, and no wait again.
func (d *Due) Started() {
	if d == nil {
		return
	}
	d.mu.Lock()
	d.started = true
	d.mu.Unlock()
	d.Resolve()
}

// Wait waits while the pass is due, at most DueWait.
func (d *Due) Wait() {
	if d == nil {
		return
	}
	d.mu.Lock()
	ch := d.ch
	d.mu.Unlock()
	if ch == nil {
		return
	}
	t := time.NewTimer(DueWait)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}
