package ui

import tea "charm.land/bubbletea/v2"

// flight runs one store's loads one at a time. A request made while a
// load runs waits, merged with any request already waiting, and starts
// when the running load's result has been applied. So results apply in
// the order their loads started (an incremental result always applies
// to the state it was read from), and a store that changes faster than
// it loads costs one load at a time, not one per change.
//
// A flight is a value inside the root Model: Update changes it, commands
// never see it.
type flight[R any] struct {
	running bool
	waiting bool
	next    R
}

// start reports whether r may start now. If a load is running, r waits
// (merged into the waiting request with merge) and start returns false.
func (f *flight[R]) start(r R, merge func(waiting, r R) R) bool {
	if !f.running {
		f.running = true
		return true
	}
	if f.waiting {
		f.next = merge(f.next, r)
	} else {
		f.next, f.waiting = r, true
	}
	return false
}

// done ends the running load. When a request waits, it is returned and
// counts as running: the caller starts it.
func (f *flight[R]) done() (R, bool) {
	var zero R
	if !f.waiting {
		f.running = false
		return zero, false
	}
	r := f.next
	f.next, f.waiting = zero, false
	return r, true
}

// request starts r with load on m, or queues it behind the running load
// (nil then: its result comes when the running one is done). load is a
// method expression, so m is copied only when a load starts.
func (f *flight[R]) request(m *Model, r R, merge func(waiting, r R) R, load func(Model, R) tea.Cmd) tea.Cmd {
	if !f.start(r, merge) {
		return nil
	}
	return load(*m, r)
}

// finish ends the running load and starts the waiting request, if any,
// with load on m.
func (f *flight[R]) finish(m *Model, load func(Model, R) tea.Cmd) tea.Cmd {
	if r, ok := f.done(); ok {
		return load(*m, r)
	}
	return nil
}

// newest merges requests by keeping the newest.
func newest[R any](_, r R) R { return r }
