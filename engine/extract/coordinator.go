package extract

import (
	"context"
	"fmt"
	"sync"
)

// MinNewMessages is how many messages must have arrived since the last
// extraction before another one runs (the harness's MIN_NEW_MESSAGES).
const MinNewMessages = 4

// Func extracts memories from the messages numbered [from, to) of a
// conversation (0-based, in arrival order).
type Func func(ctx context.Context, from, to int) error

// Coordinator runs background memory extraction the way Claude Code's
// ExtractionCoordinator does: requests coalesce instead of being debounced.
// A request that arrives while an extraction runs only marks the
// coordinator dirty and returns; the running loop repeats while it is
// dirty, so the last state of the conversation is always extracted (a
// debounce could drop it), and extract never runs concurrently with itself.
// The zero value is not usable; use NewCoordinator.
type Coordinator struct {
	extract Func

	mu        sync.Mutex
	running   bool
	dirty     bool
	watermark int
	latest    int
	runs      int
	// drain asks the next pass to extract however few messages are new.
	drain bool
}

// CoordinatorState is a snapshot of a Coordinator, for display and tests.
type CoordinatorState struct {
	// Running is true while a request's loop is extracting.
	Running bool `json:"running"`
	// Dirty is true when a request arrived during the current run.
	Dirty bool `json:"dirty"`
	// Watermark is the message count the last successful extraction covered.
	Watermark int `json:"watermark"`
	// Latest is the highest message count any request reported.
	Latest int `json:"latest"`
	// Runs counts successful extractions.
	Runs int `json:"runs"`
}

// NewCoordinator returns a Coordinator that calls extract.
func NewCoordinator(extract Func) *Coordinator {
	return &Coordinator{extract: extract}
}

// RequestExtraction reports that the conversation now has messageCount
// messages. If an extraction is running it marks the coordinator dirty and
// returns nil at once; otherwise the caller's goroutine runs the loop until
// no request is pending (callers that must not block start it with go).
// Each pass extracts [watermark, latest) when at least MinNewMessages
// messages are new. The result is the last extraction error of the loop,
// or the context's error; a failed or cancelled extraction leaves the
// watermark where it was, so the next request retries those messages.
func (c *Coordinator) RequestExtraction(ctx context.Context, messageCount int) error {
	return c.request(ctx, func() { c.latest = max(c.latest, messageCount) })
}

// Drain extracts whatever is new, however few messages (MinNewMessages
// does not apply once): for the end of a run, such as a session's last
// compaction, after which no request will come to carry a small remainder
// over the threshold. Like RequestExtraction it coalesces into a running
// loop (that loop then drains) or runs the loop itself.
func (c *Coordinator) Drain(ctx context.Context) error {
	return c.request(ctx, func() { c.drain = true })
}

// request records a request (note runs under the lock) and coalesces it
// into a running loop, or runs the loop on the caller's goroutine.
func (c *Coordinator) request(ctx context.Context, note func()) error {
	c.mu.Lock()
	note()
	if c.running {
		c.dirty = true
		c.mu.Unlock()
		return nil
	}
	c.running = true
	c.mu.Unlock()
	return c.loop(ctx)
}

// loop is the coalescing loop: clear dirty, extract what is new, advance
// the watermark, and go again if a request came in meanwhile. Clearing
// running happens under the same lock as the dirty check, so a request
// either sees running and sets dirty before the check, or starts its own
// loop after it: none is lost.
func (c *Coordinator) loop(ctx context.Context) error {
	var lastErr error
	for {
		c.mu.Lock()
		c.dirty = false
		from, to := c.watermark, c.latest
		drain := c.drain
		c.mu.Unlock()

		var err error
		ran := to-from >= MinNewMessages || drain && to > from
		if ran {
			err = c.call(ctx, from, to)
		}

		c.mu.Lock()
		// Only a successful extraction moves the watermark: moving it past
		// a small increment would let a stream of small increments never
		// reach the threshold, and moving it past a failure would lose
		// those messages.
		if ran && err == nil {
			c.watermark = to
			c.runs++
		}
		if drain && err == nil && c.watermark >= to {
			c.drain = false
		}
		if err != nil {
			lastErr = err
		}
		if !c.dirty || ctx.Err() != nil {
			c.running = false
			c.mu.Unlock()
			if lastErr == nil {
				lastErr = ctx.Err()
			}
			return lastErr
		}
		c.mu.Unlock()
	}
}

// call runs extract, turning a panic into an error: a panic here would
// otherwise leave running set forever and stop all later extraction.
func (c *Coordinator) call(ctx context.Context, from, to int) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("extract messages %d..%d: panic: %v", from, to, r)
		}
	}()
	if err := c.extract(ctx, from, to); err != nil {
		return fmt.Errorf("extract messages %d..%d: %w", from, to, err)
	}
	return nil
}

// State returns a snapshot of the coordinator.
func (c *Coordinator) State() CoordinatorState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return CoordinatorState{Running: c.running, Dirty: c.dirty, Watermark: c.watermark, Latest: c.latest, Runs: c.runs}
}
