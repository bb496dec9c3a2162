package cli

import (
	"fmt"
	"runtime/debug"
	"time"
)

// clientHook is how one of memscope's hooks (gate.Hooks: the gate, the
// vault's sync) is run by Claude Code: it reads the event the client
// pipes it, at most maxEvent bytes within eventWait, and does its work
// within workWait. Past those bounds, or on a panic, it gives up with an
// error and the client's work goes on: a hook never stands in the way.
type clientHook struct {
	maxEvent  int
	eventWait time.Duration
	workWait  time.Duration
	// late says what giving up after workWait means for this hook.
	late string
}

// runClientHook reads the hook event on stdin (readClientJSON: answered
// as soon as the object is complete) and runs work on it with h's
// bounds. The error is why work did not finish: an unreadable event, a
// panic (with its stack) or the deadline; the caller reports it its way
// and exits 0.
func runClientHook[R any](e *env, h clientHook, work func(event []byte) (R, error)) (R, error) {
	var zero R
	data, err := readClientJSON(e.stdin, h.maxEvent, h.eventWait)
	if err != nil {
		return zero, fmt.Errorf("read the hook event: %w", err)
	}
	type result struct {
		res R
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r = result{err: fmt.Errorf("internal error: %v\n%s", p, debug.Stack())}
			}
			done <- r
		}()
		r.res, r.err = work(data)
	}()
	timer := time.NewTimer(h.workWait)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.res, r.err
	case <-timer.C:
		return zero, fmt.Errorf("no answer within %s: %s", h.workWait, h.late)
	}
}
