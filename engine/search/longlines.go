package search

import (
	"context"
	"sync/atomic"
)

// longLines bounds the memory a search's workers hold for long lines, in
// total: a worker's read buffer is chunkSize, and growing it past that
// for a line longer than a chunk (up to model.MaxLineBytes) takes the one
// token, held until the worker is done with that file and has given the
// grown buffer back. So a search holds at most one long line's buffer
// however many workers it runs (16 workers on 30 MiB lines held 2 GB when
// each grew its own); a worker that meets a long line while another
// holds the token waits for it. The holder never waits on anything, so
// the wait always ends.
type longLines struct {
	token chan struct{}
	// grown is the bytes past chunkSize the workers' buffers hold now;
	// peak is the most they held at once (tests read it).
	grown, peak atomic.Int64
}

func newLongLines() *longLines {
	return &longLines{token: make(chan struct{}, 1)}
}

// acquire takes the token; false when ctx ended first.
func (l *longLines) acquire(ctx context.Context) bool {
	select {
	case l.token <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// release gives the token back.
func (l *longLines) release() { <-l.token }

// grew records that a buffer grew by n bytes (shrank, for n < 0).
func (l *longLines) grew(n int64) {
	now := l.grown.Add(n)
	for {
		p := l.peak.Load()
		if now <= p || l.peak.CompareAndSwap(p, now) {
			return
		}
	}
}
