package cli

import (
	"runtime"
	"runtime/debug"
	"sync"
)

// gcHeadroom bounds a one-shot command's heap growth between
// collections to a fixed amount over its live heap, instead of a fixed
// multiple of it: after each collection the target is set to the
// percent that lets the heap grow by headroom bytes (percentFor), never
// over maxPercent (a small live heap: the collector would run at every
// few MB) nor under minPercent (the runtime's default: a large live
// heap is collected no more often than without it). A vault sync at a
// fixed 400 % grew to five times the live heap its last collection
// left, and that live heap grows with the home's files: a first sync of
// W peaked at 150 MB, of the 400 MB bench home at 71 MB
// (docs/VAULT.md, "i31r").
type gcHeadroom struct {
	headroom               uint64
	minPercent, maxPercent int
	// setPercent and live are the runtime's (debug.SetGCPercent, the
	// live heap the last collection marked); tests give their own.
	setPercent func(int) int
	live       func() uint64
	mu         sync.Mutex
	stopped    bool
}

// percentFor is the target that lets a heap of live bytes grow by
// h.headroom before the next collection.
func (h *gcHeadroom) percentFor(live uint64) int {
	if live == 0 {
		return h.maxPercent
	}
	return int(max(uint64(h.minPercent), min(uint64(h.maxPercent), h.headroom*100/live)))
}

// collected sets the target for the live heap a collection left, unless
// the command is over (stop).
func (h *gcHeadroom) collected() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return false
	}
	h.setPercent(h.percentFor(h.live()))
	return true
}

// stop ends the bounding and puts old back.
func (h *gcHeadroom) stop(old int) {
	h.mu.Lock()
	h.stopped = true
	h.setPercent(old)
	h.mu.Unlock()
}

// gcCycleSentinel is an object whose finalizer runs once a collection
// found it unreachable: it tells the bounding a collection ended.
type gcCycleSentinel struct{ _ *byte }

// arm sets a sentinel whose finalizer calls collected and arms the next.
func (h *gcHeadroom) arm() {
	runtime.SetFinalizer(&gcCycleSentinel{}, func(*gcCycleSentinel) {
		if h.collected() {
			h.arm()
		}
	})
}

// headroomGC sets the collector for a one-shot command's run: maxPercent
// (see raiseGC) while its live heap is small, headroom bytes over it
// once that is less (gcHeadroom), unless the environment sets GOGC or
// GOMEMLIMIT; it returns what puts the old target back.
func (e *env) headroomGC(maxPercent int, headroom uint64) (restore func()) {
	if e.getenv("GOGC") != "" || e.getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	h := &gcHeadroom{headroom: headroom, minPercent: 25, maxPercent: maxPercent,
		setPercent: debug.SetGCPercent, live: func() uint64 { return readHeap().live }}
	old := debug.SetGCPercent(maxPercent)
	h.arm()
	return func() { h.stop(old) }
}
