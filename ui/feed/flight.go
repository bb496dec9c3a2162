package feed

// Flight runs one store's loads one at a time. A request made while a
// load runs waits, merged with any request already waiting, and starts
// when the running load's result has been applied. So results apply in
// the order their loads started (an incremental result always applies
// to the state it was read from), and a store that changes faster than
// it loads costs one load at a time, not one per change.
//
// A feed holds its flights; the shell's remaining stores hold theirs in
// the root's flights. Update changes a flight, commands never see it.
type Flight[R any] struct {
	running bool
	waiting bool
	next    R
}

// Start reports whether r may start now. If a load is running, r waits
// (merged into the waiting request with merge) and Start returns false.
func (f *Flight[R]) Start(r R, merge func(waiting, r R) R) bool {
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

// Done ends the running load. When a request waits, it is returned and
// counts as running: the caller starts it.
func (f *Flight[R]) Done() (R, bool) {
	var zero R
	if !f.waiting {
		f.running = false
		return zero, false
	}
	r := f.next
	f.next, f.waiting = zero, false
	return r, true
}

// Running reports whether a load runs.
func (f *Flight[R]) Running() bool { return f.running }

// Begin marks a load as running that was started without Start (the
// start-up loads Init issues): requests made before its result wait.
func (f *Flight[R]) Begin() { f.running = true }

// Newest merges requests by keeping the newest.
func Newest[R any](_, r R) R { return r }
